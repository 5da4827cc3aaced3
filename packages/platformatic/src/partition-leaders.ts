/**
 * The leader of each partition, from Metadata requests of our own (platformatic's client
 * metadata fails as a whole when one topic is unknown, and the ports must leave just that topic
 * out). A topic whose every partition has a leader is cached for `maxAgeMs`; others are asked
 * for again on the next call. A topic error Kafka counts as retriable (unknown topic, leader
 * election) leaves the topic out; others (authorization, invalid name) reject.
 */
import { KAFKA_ERRORS, tpKey, type Clock, type TopicPartition } from '@kstreams/core'
import type { BrokerConnections } from './broker-connections.js'
import { fromErrorCode } from './platformatic-errors.js'

interface CachedTopic {
  readonly leaders: ReadonlyMap<number, number>
  readonly partitionCount: number
  readonly expiresAt: number
}

export class PartitionLeaders {
  readonly #connections: BrokerConnections
  readonly #clock: Clock
  readonly #maxAgeMs: number
  readonly #cache = new Map<string, CachedTopic>()
  /** Topics the last Metadata answer that asked about them did not know. */
  readonly #unknown = new Set<string>()
  /** The partition count of each topic the last Metadata answer about it knew. */
  readonly #counts = new Map<string, number>()

  constructor(options: { connections: BrokerConnections; clock: Clock; maxAgeMs: number }) {
    this.#connections = options.connections
    this.#clock = options.clock
    this.#maxAgeMs = options.maxAgeMs
  }

  /** Leader node ids keyed by `topic-partition`; partitions without a leader, or unknown, are absent. */
  async leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>> {
    const topics = [...new Set(partitions.map(tp => tp.topic))]
    const loaded = await this.#topics(topics, refresh)
    const result = new Map<string, number>()
    for (const { topic, partition } of partitions) {
      const leader = loaded.get(topic)?.leaders.get(partition)
      if (leader !== undefined) result.set(tpKey(topic, partition), leader)
    }
    return result
  }

  /** Partition counts of existing topics (fresh from the broker); missing topics are absent. */
  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    const loaded = await this.#topics([...new Set(topics)], true)
    return new Map([...loaded].filter(([, t]) => t.partitionCount > 0).map(([topic, t]) => [topic, t.partitionCount]))
  }

  /** Kafka's name for why a partition has no leader here: the topic or partition is unknown, or its leader is. */
  missingReason(tp: TopicPartition): 'UNKNOWN_TOPIC_OR_PARTITION' | 'LEADER_NOT_AVAILABLE' {
    const count = this.#counts.get(tp.topic)
    return this.#unknown.has(tp.topic) || (count !== undefined && tp.partition >= count)
      ? 'UNKNOWN_TOPIC_OR_PARTITION'
      : 'LEADER_NOT_AVAILABLE'
  }

  /** Forgets a topic's leaders (after a partition error that says they moved). */
  invalidate(topic: string): void {
    this.#cache.delete(topic)
  }

  clear(): void {
    this.#cache.clear()
    this.#unknown.clear()
    this.#counts.clear()
  }

  async #topics(topics: string[], refresh: boolean): Promise<Map<string, CachedTopic>> {
    const now = this.#clock.milliseconds()
    const result = new Map<string, CachedTopic>()
    const stale: string[] = []
    for (const topic of topics) {
      const cached = this.#cache.get(topic)
      if (!refresh && cached !== undefined && cached.expiresAt > now) result.set(topic, cached)
      else stale.push(topic)
    }
    if (stale.length === 0) return result
    const response = await this.#connections.metadata(stale, `Metadata of ${stale.join(', ')} (client ${this.#connections.clientId})`)
    for (const topic of stale) {
      this.#cache.delete(topic)
      this.#unknown.add(topic)
    }
    for (const { name, errorCode, partitions } of response.topics) {
      if (typeof name !== 'string' || !stale.includes(name)) continue
      if (errorCode !== 0) {
        const error = fromErrorCode(errorCode, `Metadata of topic ${name}`, null, { api: 'Metadata', topic: name })
        if (!error.retriable) throw error
        if (error.errorName !== 'UNKNOWN_TOPIC_OR_PARTITION') this.#unknown.delete(name)
        continue
      }
      this.#unknown.delete(name)
      this.#counts.set(name, partitions.length)
      const leaders = new Map<number, number>()
      for (const p of partitions) {
        if (p.leaderId >= 0 && p.errorCode !== LEADER_NOT_AVAILABLE) leaders.set(p.partitionIndex, p.leaderId)
      }
      const entry = { leaders, partitionCount: partitions.length, expiresAt: now + this.#maxAgeMs }
      result.set(name, entry)
      if (partitions.length > 0 && leaders.size === partitions.length) this.#cache.set(name, entry)
    }
    return result
  }
}

const LEADER_NOT_AVAILABLE = KAFKA_ERRORS.LEADER_NOT_AVAILABLE.code
