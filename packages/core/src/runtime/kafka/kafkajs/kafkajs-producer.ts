/**
 * ProducerPort on a kafkajs idempotent producer (acks all, one request in flight per broker) and,
 * with a transactional id, its transaction API (one open transaction at a time). Sends are
 * serialised: kafkajs' idempotent producer can lose records under concurrent sends (kafkajs
 * #1005), so each send() is one sendBatch, started after the previous one settled. Partitions are
 * chosen by the caller; the partitioner only reads them.
 */
import type { Kafka, Producer, Transaction, TopicMessages } from 'kafkajs'
import { IllegalStateError, StreamsError } from '../../../errors.js'
import { tpKey, type ProducedRecord, type ProducerPort, type SendResult, type TopicPartitionOffset } from '../ports.js'
import { groupByTopic } from './kafkajs-assignor-bridge.js'
import type { ResolvedKafkajsConfig } from './kafkajs-client-config.js'
import { PRODUCER_FENCED_TYPES, toStreamsError } from './kafkajs-errors.js'
import { toKafkajsMessage } from './record-conversion.js'
import { SerialExecutor } from './serial-executor.js'

/** The partition is always set on the record; this only satisfies kafkajs (and its warning). */
const explicitPartitioner = () => ({ message }: { message: { partition?: number } }): number => {
  if (message.partition === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'record without a partition')
  return message.partition
}

export class KafkajsProducer implements ProducerPort {
  readonly #producer: Producer
  readonly #clientId: string
  readonly #executor = new SerialExecutor()
  #connected: Promise<void> | undefined
  #transaction: Transaction | undefined
  #closed = false
  readonly transactions?: ProducerPort['transactions']

  constructor (options: { kafka: Kafka, clientId: string, transactionalId: string | undefined, config: ResolvedKafkajsConfig }) {
    this.#clientId = options.clientId
    const transactionalId = options.transactionalId
    this.#producer = options.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      metadataMaxAge: options.config.metadataMaxAgeMs,
      createPartitioner: explicitPartitioner,
      ...(transactionalId === undefined ? {} : { transactionalId, transactionTimeout: options.config.transactionTimeoutMs })
    })
    if (transactionalId !== undefined) {
      this.transactions = {
        begin: async () => { await this.#begin() },
        sendOffsets: async (groupId, offsets) => { await this.#sendOffsets(groupId, offsets) },
        commit: async () => { await this.#end('commit') },
        abort: async () => { await this.#end('abort') }
      }
    }
  }

  async send (records: readonly ProducedRecord[]): Promise<SendResult> {
    this.#requireOpen('send')
    const result: SendResult = new Map()
    if (records.length === 0) return result
    const counts = new Map<string, number>()
    const byTopic = new Map<string, TopicMessages>()
    for (const record of records) {
      let entry = byTopic.get(record.topic)
      if (entry === undefined) byTopic.set(record.topic, entry = { topic: record.topic, messages: [] })
      entry.messages.push(toKafkajsMessage(record))
      const key = tpKey(record.topic, record.partition)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    return await this.#executor.run(async () => {
      if (this.transactions !== undefined) this.#requireTransaction('send')
      try {
        await this.#connect()
        const sender = this.#transaction ?? this.#producer
        const metadata = await sender.sendBatch({ topicMessages: [...byTopic.values()], acks: -1 })
        for (const m of metadata) {
          const key = tpKey(m.topicName, m.partition)
          const count = counts.get(key)
          if (count === undefined || m.baseOffset === undefined) continue
          result.set(key, Number(m.baseOffset) + count - 1)
        }
      } catch (error) {
        throw toStreamsError(error, `Send by producer ${this.#clientId}`, PRODUCER_FENCED_TYPES)
      }
      // kafkajs silently skips partitions missing from its metadata.
      const missing = [...counts.keys()].filter(key => !result.has(key))
      if (missing.length > 0) {
        throw new StreamsError('KAFKA', `Send by producer ${this.#clientId} failed: no acknowledgement for ${missing.join(', ')} (unknown partition?)`)
      }
      return result
    })
  }

  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#executor.idle()
    try {
      if (this.#connected !== undefined) await this.#producer.disconnect()
    } catch (error) {
      throw toStreamsError(error, `Closing producer ${this.#clientId}`)
    }
  }

  async #connect (): Promise<void> {
    this.#connected ??= this.#producer.connect()
    try {
      await this.#connected
    } catch (error) {
      this.#connected = undefined
      throw error
    }
  }

  async #begin (): Promise<void> {
    this.#requireOpen('begin')
    await this.#executor.run(async () => {
      if (this.#transaction !== undefined) throw new IllegalStateError(`Producer ${this.#clientId}: a transaction is already open`)
      try {
        await this.#connect()
        this.#transaction = await this.#producer.transaction()
      } catch (error) {
        throw toStreamsError(error, `Beginning a transaction of producer ${this.#clientId}`, PRODUCER_FENCED_TYPES)
      }
    })
  }

  async #sendOffsets (groupId: string, offsets: readonly TopicPartitionOffset[]): Promise<void> {
    this.#requireOpen('sendOffsets')
    await this.#executor.run(async () => {
      const transaction = this.#requireTransaction('sendOffsets')
      if (offsets.length === 0) return
      const topics = groupByTopic(offsets).map(({ topic, partitions }) => ({
        topic,
        partitions: partitions.map(partition => ({
          partition,
          offset: String(offsets.find(o => o.topic === topic && o.partition === partition)!.offset)
        }))
      }))
      try {
        await transaction.sendOffsets({ consumerGroupId: groupId, topics })
      } catch (error) {
        throw toStreamsError(error, `Sending offsets in a transaction of producer ${this.#clientId}`, PRODUCER_FENCED_TYPES)
      }
    })
  }

  /** Ends the open transaction; it stays open (abort() may follow) when committing fails. */
  async #end (how: 'commit' | 'abort'): Promise<void> {
    this.#requireOpen(how)
    await this.#executor.run(async () => {
      const transaction = this.#requireTransaction(how)
      try {
        await (how === 'commit' ? transaction.commit() : transaction.abort())
      } catch (error) {
        throw toStreamsError(error, `Transaction ${how} of producer ${this.#clientId}`, PRODUCER_FENCED_TYPES)
      }
      this.#transaction = undefined
    })
  }

  #requireTransaction (what: string): Transaction {
    if (this.#transaction === undefined) throw new IllegalStateError(`Producer ${this.#clientId}: ${what}() without an open transaction`)
    return this.#transaction
  }

  #requireOpen (what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what}() on closed producer ${this.#clientId}`)
  }
}
