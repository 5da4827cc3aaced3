/**
 * The leader of each partition, from Metadata requests of our own (kafkajs' cluster metadata
 * fails as a whole when one topic is unknown or one partition has no leader, and the port must
 * leave just those out). A topic whose every partition has a leader is cached for
 * `metadataMaxAgeMs`; others are asked for again on the next call. A topic error Kafka counts as
 * retriable (unknown topic, leader election) leaves the topic out; others (authorization,
 * invalid name) reject.
 */
import { KAFKA_ERRORS, tpKey, type Clock, type TopicPartition } from '@kstreams/core'
import { fromKafkajsError } from './kafkajs-errors.js'
import type { InternalCluster, KafkajsInternals, MetadataResponse } from './kafkajs-internals.js'

interface CachedTopic {
  readonly leaders: ReadonlyMap<number, number>
  readonly expiresAt: number
}

export class PartitionLeaders {
  readonly #cluster: InternalCluster
  readonly #internals: KafkajsInternals
  readonly #clock: Clock
  readonly #maxAgeMs: number
  readonly #cache = new Map<string, CachedTopic>()
  /** Topics the last Metadata response that asked about them did not know. */
  readonly #unknown = new Set<string>()

  constructor(options: { cluster: InternalCluster; internals: KafkajsInternals; clock: Clock; maxAgeMs: number }) {
    this.#cluster = options.cluster
    this.#internals = options.internals
    this.#clock = options.clock
    this.#maxAgeMs = options.maxAgeMs
  }

  /** Leader node ids keyed by `topic-partition`; partitions without a leader, or unknown, are absent. */
  async leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>> {
    const now = this.#clock.milliseconds()
    const topics = [...new Set(partitions.map(tp => tp.topic))]
    const stale = refresh ? topics : topics.filter(topic => !((this.#cache.get(topic)?.expiresAt ?? 0) > now))
    const fresh = stale.length === 0 ? new Map<string, ReadonlyMap<number, number>>() : await this.#load(stale, now)
    const result = new Map<string, number>()
    for (const { topic, partition } of partitions) {
      const leader = (fresh.get(topic) ?? this.#cache.get(topic)?.leaders)?.get(partition)
      if (leader !== undefined) result.set(tpKey(topic, partition), leader)
    }
    return result
  }

  /** Kafka's name for why `topic` has no leader here: the topic is unknown, or its leader is. */
  missingReason(topic: string): 'UNKNOWN_TOPIC_OR_PARTITION' | 'LEADER_NOT_AVAILABLE' {
    return this.#unknown.has(topic) ? 'UNKNOWN_TOPIC_OR_PARTITION' : 'LEADER_NOT_AVAILABLE'
  }

  /** Forgets a topic's leaders (after a partition error that says they moved). */
  invalidate(topic: string): void {
    this.#cache.delete(topic)
  }

  clear(): void {
    this.#cache.clear()
    this.#unknown.clear()
  }

  async #load(topics: string[], now: number): Promise<Map<string, ReadonlyMap<number, number>>> {
    const broker = await this.#cluster.brokerPool.findConnectedBroker()
    const response = await this.#internals.send<MetadataResponse>(
      broker,
      'Metadata',
      { topics, allowAutoTopicCreation: false },
      { decodeOnly: true }
    )
    const loaded = new Map<string, ReadonlyMap<number, number>>()
    for (const topic of topics) {
      this.#cache.delete(topic)
      this.#unknown.add(topic)
    }
    for (const { topic, topicErrorCode, partitionMetadata } of response.topicMetadata) {
      if (!topics.includes(topic)) continue
      if (topicErrorCode !== 0) {
        const error = fromKafkajsError(this.#internals.protocolError(topicErrorCode), `Metadata of topic ${topic}`, {
          api: 'Metadata',
          topic
        })
        if (!error.retriable) throw error
        if (error.errorName !== 'UNKNOWN_TOPIC_OR_PARTITION') this.#unknown.delete(topic)
        continue
      }
      this.#unknown.delete(topic)
      const leaders = new Map<number, number>()
      for (const { partitionId, leader, partitionErrorCode } of partitionMetadata) {
        if (leader >= 0 && partitionErrorCode !== LEADER_NOT_AVAILABLE) leaders.set(partitionId, leader)
      }
      loaded.set(topic, leaders)
      if (partitionMetadata.length > 0 && leaders.size === partitionMetadata.length) {
        this.#cache.set(topic, { leaders, expiresAt: now + this.#maxAgeMs })
      }
    }
    return loaded
  }
}

const LEADER_NOT_AVAILABLE = KAFKA_ERRORS.LEADER_NOT_AVAILABLE.code
