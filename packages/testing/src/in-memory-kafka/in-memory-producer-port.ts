/**
 * ProducerPort on the in-memory broker: appends each send to the partitions' logs (all or none:
 * every partition is checked first, its records as one batch against the topic's max.message.bytes) and answers the last offset per partition; with a
 * transactional id, `transactions` runs them inside transactions (see ProducerTransactions).
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type { GroupGeneration, ProducedRecord, ProducerPort, SendResult, TopicPartitionOffset } from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import { ProducerTransactions } from './producer-transactions.js'
import { recordSize } from './partition-log.js'
import { kafkaError } from './request-errors.js'

/** The broker's default `message.max.bytes`, what a topic without `max.message.bytes` accepts. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1048588
/** Kafka's record batch header (v2). */
const RECORD_BATCH_OVERHEAD = 61

export class InMemoryProducerPort implements ProducerPort {
  readonly #broker: InMemoryBroker
  readonly #connection: ClientConnection
  readonly #transactions: ProducerTransactions | undefined
  readonly transactions: ProducerPort['transactions']

  constructor(broker: InMemoryBroker, options: { clientId: string; transactionalId?: string; transactionTimeoutMs: number }) {
    this.#broker = broker
    this.#connection = broker.connect(options.clientId, 'producer port')
    if (options.transactionalId !== undefined) {
      const transactions = new ProducerTransactions(broker, this.#connection, {
        transactionalId: options.transactionalId,
        transactionTimeoutMs: options.transactionTimeoutMs
      })
      this.#transactions = transactions
      this.transactions = {
        init: async () => {
          await transactions.init()
        },
        begin: async () => {
          await transactions.begin()
        },
        sendOffsets: async (
          groupId: string,
          generation: GroupGeneration,
          offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
        ) => {
          await transactions.sendOffsets(groupId, generation, offsets)
        },
        commit: async () => {
          await transactions.commit()
        },
        abort: async () => {
          await transactions.abort()
        }
      }
    }
  }

  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    const byPartition = new Map<string, ProducedRecord[]>()
    for (const r of records) {
      const key = tpKey(r.topic, r.partition)
      let group = byPartition.get(key)
      if (group === undefined) byPartition.set(key, (group = []))
      group.push(r)
    }
    if (this.#transactions !== undefined) return await this.#transactions.send(records, byPartition)
    const partitions = [...byPartition.values()].map(g => ({ topic: g[0]!.topic, partition: g[0]!.partition }))
    return await this.#broker.call(this.#connection, { api: 'send', clientId: this.#connection.clientId, partitions }, () => {
      for (const group of byPartition.values()) {
        this.#broker.topics.requireLog(group[0]!)
        this.#checkSize(group)
      }
      const result: SendResult = new Map()
      for (const [key, group] of byPartition) result.set(key, this.#broker.topics.append(group[0]!, group))
      return result
    })
  }

  /** A partition's records are one record batch: MESSAGE_TOO_LARGE past the topic's max.message.bytes. */
  #checkSize(group: readonly ProducedRecord[]): void {
    const first = group[0]!
    const configured = Number(this.#broker.topics.get(first.topic)?.configs['max.message.bytes'])
    const limit = Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_MESSAGE_BYTES
    let size = RECORD_BATCH_OVERHEAD
    for (const r of group) size += recordSize(r)
    if (size > limit)
      throw kafkaError(
        'MESSAGE_TOO_LARGE',
        `the record batch for ${tpKey(first.topic, first.partition)} is ${size} bytes, larger than max.message.bytes (${limit})`
      )
  }

  async close(): Promise<void> {
    this.#broker.release(this.#connection)
  }
}
