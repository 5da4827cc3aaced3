/**
 * AdminPort on the in-memory broker: partition counts, CreateTopics (existing topics left as they
 * are; -1 takes the broker default), high watermarks and log-start offsets, a group's committed
 * offsets, DeleteRecords, the topic list, topic configs (with the broker's default max.message.bytes),
 * offsets by timestamp.
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type { AdminPort, IsolationLevel, NewTopic, TopicPartition, TopicPartitionOffset, TopicPartitionTimestamp } from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import type { KafkaApi } from './kafka-api.js'
import { DEFAULT_MAX_MESSAGE_BYTES } from './in-memory-producer-port.js'

export class InMemoryAdminPort implements AdminPort {
  readonly #broker: InMemoryBroker
  readonly #connection: ClientConnection

  constructor(broker: InMemoryBroker, options: { clientId: string }) {
    this.#broker = broker
    this.#connection = broker.connect(options.clientId, 'admin port')
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    return await this.#call('partitionCounts', undefined, () => {
      const result = new Map<string, number>()
      for (const name of topics) {
        const topic = this.#broker.topics.get(name)
        if (topic !== undefined) result.set(name, topic.logs.length)
      }
      return result
    })
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    await this.#call('createTopics', undefined, () => {
      // Each topic on its own, as Kafka answers per topic; the first error rejects the call.
      let firstError: unknown
      for (const t of topics) {
        try {
          this.#broker.topics.create(t.topic, t.numPartitions === -1 ? this.#broker.defaultPartitions : t.numPartitions, {
            replicationFactor: t.replicationFactor === -1 ? 1 : t.replicationFactor,
            configs: t.configs
          })
        } catch (error) {
          firstError ??= error
        }
      }
      if (firstError !== undefined) throw firstError
    })
  }

  async endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets('endOffsets', partitions, tp => this.#broker.topics.requireLog(tp).highWatermark)
  }

  async beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets('beginningOffsets', partitions, tp => this.#broker.topics.requireLog(tp).logStartOffset)
  }

  async committedOffsets(groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#broker.call(
      this.#connection,
      { api: 'committedOffsets', clientId: this.#connection.clientId, groupId, partitions },
      async () => {
        const committed = await this.#broker.offsets.fetch(groupId, partitions, false)
        return new Map([...committed].map(([key, c]) => [key, c.offset]))
      }
    )
  }

  async deleteRecords(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    await this.#call('deleteRecords', offsets, () => {
      for (const o of offsets) this.#broker.topics.requireLog(o)
      for (const o of offsets) this.#broker.topics.requireLog(o).deleteBefore(o.offset)
      this.#broker.signal.notify()
    })
  }

  async listTopics(): Promise<string[]> {
    return await this.#call('listTopics', undefined, () => this.#broker.topics.names())
  }

  async topicConfigs(topics: readonly string[]): Promise<Map<string, Readonly<Record<string, string>>>> {
    return await this.#call('topicConfigs', undefined, () => {
      const result = new Map<string, Readonly<Record<string, string>>>()
      for (const name of topics) {
        const topic = this.#broker.topics.get(name)
        if (topic !== undefined) result.set(name, { 'max.message.bytes': String(DEFAULT_MAX_MESSAGE_BYTES), ...topic.configs })
      }
      return result
    })
  }

  async offsetsForTimes(partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel): Promise<Map<string, number>> {
    return await this.#call('offsetsForTimes', partitions, () => {
      for (const tp of partitions) this.#broker.topics.requireLog(tp)
      const result = new Map<string, number>()
      for (const tp of partitions) {
        const offset = this.#broker.topics.requireLog(tp).offsetForTimestamp(tp.timestamp, isolationLevel)
        if (offset !== undefined) result.set(tpKey(tp.topic, tp.partition), offset)
      }
      return result
    })
  }

  async close(): Promise<void> {
    this.#broker.release(this.#connection)
  }

  async #offsets(
    api: 'endOffsets' | 'beginningOffsets',
    partitions: readonly TopicPartition[],
    offsetOf: (tp: TopicPartition) => number
  ): Promise<Map<string, number>> {
    return await this.#call(api, partitions, () => new Map(partitions.map(tp => [tpKey(tp.topic, tp.partition), offsetOf(tp)])))
  }

  async #call<T>(api: KafkaApi, partitions: readonly TopicPartition[] | undefined, handler: () => T): Promise<T> {
    return await this.#broker.call(this.#connection, { api, clientId: this.#connection.clientId, partitions }, handler)
  }
}
