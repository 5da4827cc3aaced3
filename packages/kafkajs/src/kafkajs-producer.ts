/**
 * ProducerPort on a kafkajs idempotent producer (acks all, one request in flight per broker) and,
 * with a transactional id, its transaction API (one open transaction at a time). Sends are
 * serialised: kafkajs' idempotent producer can lose records under concurrent sends (kafkajs
 * #1005), so each send() is one sendBatch, started after the previous one settled. Partitions are
 * chosen by the caller; the partitioner only reads them. A record with a null header value is
 * refused (SERIALIZATION) before anything of its send goes out: kafkajs cannot encode it.
 * kafkajs 2.2.4's TxnOffsetCommit has no group generation (KIP-447): sendOffsets ignores it.
 * An idempotent producer whose sequence the broker no longer accepts (OUT_OF_ORDER_SEQUENCE_NUMBER,
 * UNKNOWN_PRODUCER_ID, e.g. after a leader change) is replaced by a new one (a new producer id),
 * and the send fails retriably so it is sent again: Java's producer resets its sequence the same
 * way (KIP-360); kafkajs 2.2.4 would fail every later send. One whose producer id or epoch the
 * broker refuses (INVALID_PRODUCER_EPOCH, PRODUCER_FENCED, INVALID_PRODUCER_ID_MAPPING) is
 * replaced too, and the send fails with that error (the runtime closes the tasks as migrated):
 * the next send goes out with a new producer id.
 */
import { CompressionTypes, type Kafka, type Producer, type Transaction, type TopicMessages } from 'kafkajs'
import {
  IllegalStateError,
  KafkaRequestError,
  StreamsError,
  isKafkaError,
  tpKey,
  type GroupGeneration,
  type ProducedRecord,
  type ProducerPort,
  type SendResult,
  type TopicPartitionOffset,
  SerialExecutor,
  groupByTopic
} from '@kstreams/core'
import type { KafkajsClientConfig } from './kafkajs-client-config.js'
import { toKafkaRequestError } from './kafkajs-errors.js'
import { requireEncodableHeaders, toKafkajsMessage } from './record-conversion.js'
import { LazyConnection } from './lazy-connection.js'

/** The partition is always set on the record; this only satisfies kafkajs (and its warning). */
const explicitPartitioner =
  () =>
  ({ message }: { message: { partition?: number } }): number => {
    if (message.partition === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'record without a partition')
    return message.partition
  }

type OffsetsWithMetadata = ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>

/** Errors after which an idempotent (non-transactional) producer starts over with a new producer id, and the send is sent again. */
const SEQUENCE_LOST: ReadonlySet<string> = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID'])
/** Errors after which an idempotent (non-transactional) producer starts over with a new producer id, the send failing as it did. */
const PRODUCER_ID_REFUSED: ReadonlySet<string> = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED', 'INVALID_PRODUCER_ID_MAPPING'])

export class KafkajsProducer implements ProducerPort {
  #producer: Producer
  readonly #create: () => Producer
  readonly #clientId: string
  readonly #compression: CompressionTypes
  readonly #executor = new SerialExecutor()
  #connection: LazyConnection
  #transaction: Transaction | undefined
  /** InitProducerId was sent (init() or a first begin()). */
  #initialised = false
  #closed = false
  readonly transactions?: ProducerPort['transactions']

  constructor(options: {
    kafka: Kafka
    clientId: string
    transactionalId: string | undefined
    config: KafkajsClientConfig
    /** The producer's `compression.type`; default none. */
    compression?: CompressionTypes
  }) {
    this.#clientId = options.clientId
    this.#compression = options.compression ?? CompressionTypes.None
    const transactionalId = options.transactionalId
    this.#create = () =>
      options.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        metadataMaxAge: options.config.metadataMaxAgeMs,
        createPartitioner: explicitPartitioner,
        ...(transactionalId === undefined ? {} : { transactionalId, transactionTimeout: options.config.transactionTimeoutMs })
      })
    this.#producer = this.#create()
    this.#connection = this.#connectionOf(this.#producer)
    if (transactionalId !== undefined) {
      this.transactions = {
        init: async () => {
          await this.#init()
        },
        begin: async () => {
          await this.#begin()
        },
        sendOffsets: async (groupId, generation, offsets) => {
          await this.#sendOffsets(groupId, generation, offsets)
        },
        commit: async () => {
          await this.#end('commit')
        },
        abort: async () => {
          await this.#end('abort')
        }
      }
    }
  }

  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    this.#requireOpen('send')
    const result: SendResult = new Map()
    if (records.length === 0) return result
    const counts = new Map<string, number>()
    const byTopic = new Map<string, TopicMessages>()
    for (const record of records) {
      requireEncodableHeaders(record)
      let entry = byTopic.get(record.topic)
      if (entry === undefined) byTopic.set(record.topic, (entry = { topic: record.topic, messages: [] }))
      entry.messages.push(toKafkajsMessage(record))
      const key = tpKey(record.topic, record.partition)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    return await this.#executor.run(async () => {
      if (this.transactions !== undefined) this.#requireTransaction('send')
      try {
        await this.#connection.ensure()
        const sender = this.#transaction ?? this.#producer
        const metadata = await sender.sendBatch({ topicMessages: [...byTopic.values()], acks: -1, compression: this.#compression })
        for (const m of metadata) {
          const key = tpKey(m.topicName, m.partition)
          const count = counts.get(key)
          if (count === undefined || m.baseOffset === undefined) continue
          result.set(key, Number(m.baseOffset) + count - 1)
        }
      } catch (error) {
        const mapped = toKafkaRequestError(error, `Send by producer ${this.#clientId}`, { api: 'Produce', topics: [...byTopic.keys()] })
        if (this.transactions === undefined && isKafkaError(mapped) && SEQUENCE_LOST.has(mapped.errorName)) {
          await this.#replace()
          throw new KafkaRequestError(
            mapped.errorName,
            `Send by producer ${this.#clientId} failed; it starts over with a new producer id`,
            { cause: error, retriable: true }
          )
        }
        if (this.transactions === undefined && isKafkaError(mapped) && PRODUCER_ID_REFUSED.has(mapped.errorName)) await this.#replace()
        throw mapped
      }
      // kafkajs silently skips partitions missing from its metadata.
      const missing = [...counts.keys()].filter(key => !result.has(key))
      if (missing.length > 0) {
        throw new KafkaRequestError(
          'UNKNOWN_TOPIC_OR_PARTITION',
          `Send by producer ${this.#clientId} failed: no acknowledgement for ${missing.join(', ')} (unknown partition?)`
        )
      }
      return result
    })
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#executor.idle()
    try {
      if (this.#connection.started) await this.#producer.disconnect()
    } catch (error) {
      throw toKafkaRequestError(error, `Closing producer ${this.#clientId}`)
    }
  }

  /** A new kafkajs producer in place of one whose producer id the brokers no longer accept. */
  async #replace(): Promise<void> {
    const old = this.#producer
    const connected = this.#connection.started
    this.#producer = this.#create()
    this.#connection = this.#connectionOf(this.#producer)
    if (connected) await old.disconnect().catch(() => undefined)
  }

  #connectionOf(producer: Producer): LazyConnection {
    return new LazyConnection(async () => {
      await producer.connect()
    })
  }

  /** kafkajs sends InitProducerId at its first transaction(): one opened and aborted empty (no EndTxn is sent). */
  async #init(): Promise<void> {
    this.#requireOpen('init')
    await this.#executor.run(async () => {
      if (this.#initialised) return
      try {
        await this.#connection.ensure()
        await (await this.#producer.transaction()).abort()
      } catch (error) {
        throw toKafkaRequestError(error, `Initialising the transactions of producer ${this.#clientId}`)
      }
      this.#initialised = true
    })
  }

  async #begin(): Promise<void> {
    this.#requireOpen('begin')
    await this.#executor.run(async () => {
      if (this.#transaction !== undefined) throw new IllegalStateError(`Producer ${this.#clientId}: a transaction is already open`)
      try {
        await this.#connection.ensure()
        this.#transaction = await this.#producer.transaction()
        this.#initialised = true
      } catch (error) {
        throw toKafkaRequestError(error, `Beginning a transaction of producer ${this.#clientId}`)
      }
    })
  }

  /** `_generation` cannot be sent: kafkajs 2.2.4 speaks TxnOffsetCommit v0-1, before KIP-447's member fields. */
  async #sendOffsets(groupId: string, _generation: GroupGeneration, offsets: OffsetsWithMetadata): Promise<void> {
    this.#requireOpen('sendOffsets')
    await this.#executor.run(async () => {
      const transaction = this.#requireTransaction('sendOffsets')
      if (offsets.length === 0) return
      const topics = groupByTopic(offsets).map(({ topic, items }) => ({
        topic,
        partitions: items.map(o => ({
          partition: o.partition,
          offset: String(o.offset),
          ...(o.metadata === undefined ? {} : { metadata: o.metadata })
        }))
      }))
      try {
        await transaction.sendOffsets({ consumerGroupId: groupId, topics })
      } catch (error) {
        throw toKafkaRequestError(error, `Sending offsets of group ${groupId} in a transaction of producer ${this.#clientId}`)
      }
    })
  }

  /** Ends the open transaction; it stays open (abort() may follow) when committing fails. */
  async #end(how: 'commit' | 'abort'): Promise<void> {
    this.#requireOpen(how)
    await this.#executor.run(async () => {
      const transaction = this.#requireTransaction(how)
      try {
        await (how === 'commit' ? transaction.commit() : transaction.abort())
      } catch (error) {
        throw toKafkaRequestError(error, `Transaction ${how} of producer ${this.#clientId}`)
      }
      this.#transaction = undefined
    })
  }

  #requireTransaction(what: string): Transaction {
    if (this.#transaction === undefined) throw new IllegalStateError(`Producer ${this.#clientId}: ${what}() without an open transaction`)
    return this.#transaction
  }

  #requireOpen(what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what}() on closed producer ${this.#clientId}`)
  }
}
