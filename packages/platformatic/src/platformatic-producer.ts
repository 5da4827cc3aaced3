/**
 * ProducerPort for @platformatic/kafka: idempotent (acks all, InitProducerId with producer id -1
 * and epoch -1), partitions chosen by the caller, sends serialised (one send() after the
 * previous one settled). Every send first checks its partitions against the topic metadata and
 * refuses an unknown one with UNKNOWN_TOPIC_OR_PARTITION before anything goes out.
 * Without a transactional id, sends are Produce requests of our own (idempotent-sends.ts).
 * With one, a platformatic Producer sends (platformatic wraps a partition number beyond the
 * topic's partition count around, hence the check), and `transactions`
 * (producer-transactions.ts) gives init, begin, sendOffsets (KIP-447), commit and abort; sends
 * go into the open transaction only.
 */
import type { Producer } from '@platformatic/kafka'
import {
  IllegalStateError,
  KafkaRequestError,
  tpKey,
  type ProducedRecord,
  type ProducerPort,
  type SendResult,
  SerialExecutor
} from '@kstreams/core'
import { BrokerConnections } from './broker-connections.js'
import { viaCallback } from './callbacks.js'
import { IdempotentSends } from './idempotent-sends.js'
import { PartitionLeaders } from './partition-leaders.js'
import type { PlatformaticClientConfig } from './platformatic-client-config.js'
import { toKafkaRequestError } from './platformatic-errors.js'
import { ProducerTransactions } from './producer-transactions.js'
import { ClientVersionsProducer } from './client-versions-producer.js'
import { toMessage } from './record-conversion.js'

const ACKS_ALL = -1
/** platformatic's answer for a topic its Metadata request did not know (a UserError without a code). */
const UNKNOWN_TOPIC = /^Unknown topic/

type ClientProducer = Producer<Buffer, Buffer, Buffer, Buffer>

export class PlatformaticProducer implements ProducerPort {
  /** platformatic's Producer, for the transactional sends and steps (none without a transactional id). */
  readonly #producer: ClientProducer | undefined
  readonly #clientId: string
  readonly #transactionalId: string | undefined
  readonly #executor = new SerialExecutor()
  readonly #connections: BrokerConnections
  readonly #transactions: ProducerTransactions | undefined
  /** The sends without a transactional id. */
  readonly #idempotent: IdempotentSends | undefined
  #closed = false
  readonly transactions?: ProducerPort['transactions']

  constructor(options: { config: PlatformaticClientConfig; clientId: string; transactionalId: string | undefined }) {
    const { config, transactionalId } = options
    this.#clientId = options.clientId
    this.#transactionalId = transactionalId
    const connection = config.connectionOptions()
    this.#connections = new BrokerConnections({ clientId: options.clientId, bootstrap: config.bootstrap, connection })
    if (transactionalId === undefined) {
      this.#idempotent = new IdempotentSends({
        connections: this.#connections,
        leaders: new PartitionLeaders({ connections: this.#connections, clock: config.clock, maxAgeMs: config.metadataMaxAgeMs }),
        clientId: options.clientId,
        timeoutMs: config.requestTimeoutMs,
        compression: config.compression
      })
    } else {
      const producer = new ClientVersionsProducer({
        ...connection,
        clientId: options.clientId,
        bootstrapBrokers: [...config.bootstrap],
        idempotent: true,
        acks: ACKS_ALL,
        autocreateTopics: false,
        // Inside a transaction a failed send cannot be sent again by the runtime (its records got
        // their sequence numbers), so platformatic retries it (and the transaction steps) through a
        // coordinator or leader failover, for about max.block.ms, as Java's producer does. A retried
        // Produce answered NOT_LEADER_OR_FOLLOWER reloads no metadata in platformatic until the
        // topic's metadata is older than metadataMaxAge: at most one retry pause old, it finds the
        // new leader.
        ...transactionalRetries(config),
        metadataMaxAge: Math.min(config.metadataMaxAgeMs, MAX_RETRY_DELAY_MS),
        compression: config.compression,
        // InitProducerId as Java sends it for a new producer (platformatic's default is 0/0).
        producerId: -1n,
        producerEpoch: -1,
        // The Produce ack timeout, and the transaction timeout InitProducerId sends.
        timeout: config.transactionTimeoutMs,
        transactionalId
      })
      this.#producer = producer
      const steps = new ProducerTransactions({
        producer,
        transactionalId,
        clientId: options.clientId,
        connections: this.#connections,
        logger: config.logger,
        clock: config.clock,
        initTimeoutMs: config.requestTimeoutMs
      })
      this.#transactions = steps
      this.transactions = {
        init: async () => {
          await this.#step('init', async () => {
            await steps.init()
          })
        },
        begin: async () => {
          await this.#step('begin', async () => {
            await steps.begin()
          })
        },
        sendOffsets: async (groupId, generation, offsets) => {
          await this.#step('sendOffsets', async () => {
            await steps.sendOffsets(groupId, generation, offsets)
          })
        },
        commit: async () => {
          await this.#step('commit', async () => {
            await steps.end('commit')
          })
        },
        abort: async () => {
          await this.#step('abort', async () => {
            await steps.end('abort')
          })
        }
      }
    }
  }

  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    return await this.#step('send', async () => {
      const result: SendResult = new Map()
      if (records.length === 0) return result
      if (this.#idempotent !== undefined) return await this.#idempotent.send(records)
      const transactions = this.#transactions!
      const transaction = transactions.sending()
      const what = `Send by producer ${this.#clientId}`
      await this.#checkPartitions(records, what)
      transactions.touch()
      for (const chunk of withinTimestampDeltaRange(records)) {
        const messages = chunk.map(toMessage)
        let produced
        try {
          produced = await viaCallback<Awaited<ReturnType<ClientProducer['send']>>>(cb => {
            transaction.send({ messages, acks: ACKS_ALL }, cb)
          })
        } catch (error) {
          const mapped = toKafkaRequestError(error, what, 'request', {
            api: 'Produce',
            topics: [...new Set(chunk.map(r => r.topic))],
            transactionalId: this.#transactionalId
          })
          if (mapped instanceof KafkaRequestError) transactions.failed(mapped)
          throw mapped
        }
        const chunkCounts = new Map<string, number>()
        for (const record of chunk) {
          const key = tpKey(record.topic, record.partition)
          chunkCounts.set(key, (chunkCounts.get(key) ?? 0) + 1)
        }
        for (const { topic, partition, offset } of produced.offsets ?? []) {
          const key = tpKey(topic, partition)
          const count = chunkCounts.get(key)
          if (count !== undefined) result.set(key, Number(offset) + count - 1)
        }
      }
      const missing = [...new Set(records.map(r => tpKey(r.topic, r.partition)))].filter(key => !result.has(key))
      if (missing.length > 0)
        throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${what} failed: no acknowledgement for ${missing.join(', ')}`)
      return result
    })
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#executor.idle()
    const producer = this.#producer
    try {
      if (producer !== undefined)
        await viaCallback(cb => {
          producer.close(cb)
        })
    } catch (error) {
      throw toKafkaRequestError(error, `Closing producer ${this.#clientId}`)
    } finally {
      await this.#connections.close().catch(() => undefined)
    }
  }

  /**
   * Refuses records for topics or partitions the cluster does not have (platformatic would wrap
   * the partition around); the metadata is reloaded once before a partition is refused.
   */
  async #checkPartitions(records: readonly ProducedRecord[], what: string): Promise<void> {
    const topics = [...new Set(records.map(r => r.topic))]
    for (const forceUpdate of [false, true]) {
      let metadata
      try {
        metadata = await viaCallback<Awaited<ReturnType<ClientProducer['metadata']>>>(cb => {
          this.#producer!.metadata({ topics, forceUpdate }, cb)
        })
      } catch (error) {
        if (error instanceof Error && UNKNOWN_TOPIC.test(error.message))
          throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${what} failed: ${error.message}`, { cause: error })
        throw toKafkaRequestError(error, `${what} (Metadata)`, 'request', { api: 'Metadata', topics })
      }
      const countOf = (topic: string): number => metadata.topics.get(topic)?.partitionsCount ?? 0
      const bad = records.find(r => !Number.isInteger(r.partition) || r.partition < 0 || r.partition >= countOf(r.topic))
      if (bad === undefined) return
      if (forceUpdate) {
        throw new KafkaRequestError(
          'UNKNOWN_TOPIC_OR_PARTITION',
          `${what} failed: ${tpKey(bad.topic, bad.partition)} does not exist (${bad.topic} has ${countOf(bad.topic)} partitions)`
        )
      }
    }
  }

  async #step<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new IllegalStateError(`${what}() on closed producer ${this.#clientId}`)
    return await this.#executor.run(run)
  }
}

/** Longest pause between two retries (Kafka's `retry.backoff.max.ms`). */
const MAX_RETRY_DELAY_MS = 1000

/**
 * platformatic's retry options for the transactional producer: a pause doubling from
 * `retryDelayMs` (1 ms at least) up to 1 s, and as many retries as fit in `maxBlockMs` (at least
 * `retries`).
 */
export function transactionalRetries(config: Pick<PlatformaticClientConfig, 'retries' | 'retryDelayMs' | 'maxBlockMs'>): {
  retries: number
  retryDelay: (client: unknown, operationId: string, attempt: number) => number
} {
  const first = Math.max(config.retryDelayMs, 1)
  const delay = (attempt: number): number => Math.min(first * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS)
  let retries = 0
  for (let waited = 0; waited < config.maxBlockMs; waited += delay(retries)) retries++
  return { retries: Math.max(config.retries, retries), retryDelay: (_client, _operationId, attempt) => delay(attempt) }
}

/** platformatic writes a record's timestamp delta (from its batch's first record) as 32 bits. */
const MAX_TIMESTAMP_DELTA = 2 ** 31 - 1

/**
 * The records cut into runs that platformatic writes correctly: in each run, every record lies
 * within 2^31 ms of the first record of its partition in that run (one run almost always).
 */
function withinTimestampDeltaRange(records: readonly ProducedRecord[]): ProducedRecord[][] {
  const runs: ProducedRecord[][] = []
  let run: ProducedRecord[] = []
  let firsts = new Map<string, number>()
  for (const record of records) {
    const key = tpKey(record.topic, record.partition)
    const first = firsts.get(key)
    if (first !== undefined && Math.abs(record.timestamp - first) > MAX_TIMESTAMP_DELTA) {
      runs.push(run)
      run = []
      firsts = new Map()
    }
    if (!firsts.has(key)) firsts.set(key, record.timestamp)
    run.push(record)
  }
  runs.push(run)
  return runs
}
