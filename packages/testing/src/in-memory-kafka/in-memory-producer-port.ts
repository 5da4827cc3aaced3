/**
 * ProducerPort on the in-memory broker: appends each send to the partitions' logs (all or none:
 * every partition is checked first) and answers the last offset per partition; with a
 * transactional id, `transactions` runs them inside transactions (see ProducerTransactions).
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type { GroupGeneration, ProducedRecord, ProducerPort, SendResult, TopicPartitionOffset } from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import { ProducerTransactions } from './producer-transactions.js'

export class InMemoryProducerPort implements ProducerPort {
  readonly #broker: InMemoryBroker
  readonly #connection: ClientConnection
  readonly #transactions: ProducerTransactions | undefined
  readonly transactions: ProducerPort['transactions']

  constructor (broker: InMemoryBroker, options: { clientId: string, transactionalId?: string, transactionTimeoutMs: number }) {
    this.#broker = broker
    this.#connection = broker.connect(options.clientId, 'producer port')
    if (options.transactionalId !== undefined) {
      const transactions = new ProducerTransactions(broker, this.#connection, { transactionalId: options.transactionalId, transactionTimeoutMs: options.transactionTimeoutMs })
      this.#transactions = transactions
      this.transactions = {
        begin: async () => { await transactions.begin() },
        sendOffsets: async (groupId: string, generation: GroupGeneration, offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>) => {
          await transactions.sendOffsets(groupId, generation, offsets)
        },
        commit: async () => { await transactions.commit() },
        abort: async () => { await transactions.abort() }
      }
    }
  }

  async send (records: readonly ProducedRecord[]): Promise<SendResult> {
    const byPartition = new Map<string, ProducedRecord[]>()
    for (const r of records) {
      const key = tpKey(r.topic, r.partition)
      let group = byPartition.get(key)
      if (group === undefined) byPartition.set(key, group = [])
      group.push(r)
    }
    if (this.#transactions !== undefined) return await this.#transactions.send(records, byPartition)
    const partitions = [...byPartition.values()].map(g => ({ topic: g[0]!.topic, partition: g[0]!.partition }))
    return await this.#broker.call(this.#connection, { api: 'send', clientId: this.#connection.clientId, partitions }, () => {
      for (const group of byPartition.values()) this.#broker.topics.requireLog(group[0]!)
      const result: SendResult = new Map()
      for (const [key, group] of byPartition) result.set(key, this.#broker.topics.append(group[0]!, group))
      return result
    })
  }

  async close (): Promise<void> {
    this.#broker.release(this.#connection)
  }
}
