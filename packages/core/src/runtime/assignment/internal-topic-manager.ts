/**
 * Creates the internal topics the leader computed (Kafka Streams' InternalTopicManager, the
 * part the assignor uses): missing topics are created through the AdminPort, existing ones must
 * already have the expected partition count. Also holds the default configs of each kind of
 * internal topic. @internal
 */
import { StreamsError } from '../../errors.js'
import type { AdminPort, NewTopic } from '../kafka/ports.js'

/** Every internal topic: record timestamps are the producer's. */
export const INTERNAL_TOPIC_DEFAULT_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  'message.timestamp.type': 'CreateTime'
})

/** Key-value store changelogs. */
export const CHANGELOG_TOPIC_DEFAULT_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  ...INTERNAL_TOPIC_DEFAULT_CONFIGS,
  'cleanup.policy': 'compact'
})

/** Repartition topics: delete policy, 50 MB segments, infinite retention (committed records are purged explicitly). */
export const REPARTITION_TOPIC_DEFAULT_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  ...INTERNAL_TOPIC_DEFAULT_CONFIGS,
  'cleanup.policy': 'delete',
  'segment.bytes': '52428800',
  'retention.ms': '-1'
})

export class InternalTopicManager {
  readonly #admin: AdminPort

  constructor(admin: AdminPort) {
    this.#admin = admin
  }

  /**
   * Makes sure every topic exists with its partition count. Throws StreamsError ILLEGAL_STATE
   * naming an existing topic whose partition count differs; AdminPort failures propagate.
   */
  async makeReady(topics: readonly NewTopic[]): Promise<void> {
    if (topics.length === 0) return
    const existing = await this.#admin.partitionCounts(topics.map(topic => topic.topic))
    const wrong = topics.filter(topic => existing.has(topic.topic) && existing.get(topic.topic) !== topic.numPartitions)
    if (wrong.length > 0) {
      const details = wrong
        .map(topic => `${topic.topic} (expected: ${topic.numPartitions}; actual: ${existing.get(topic.topic)!})`)
        .join(', ')
      throw new StreamsError(
        'ILLEGAL_STATE',
        `Existing internal topics have invalid partitions: ${details}. Use the application reset tool to clean up invalid topics before processing.`
      )
    }
    const missing = topics.filter(topic => !existing.has(topic.topic))
    if (missing.length > 0) await this.#admin.createTopics(missing)
  }
}
