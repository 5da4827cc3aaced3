/**
 * The names of the requests the in-memory Kafka answers, one per port method, as faults, delays
 * and the request log name them; and the request log's entries.
 */
import type { TopicPartition } from '@kstreams/core'

export const KAFKA_APIS = [
  // GroupCoordinatorPort
  'joinGroup',
  'syncGroup',
  'heartbeat',
  'leaveGroup',
  'commitOffsets',
  'fetchCommittedOffsets',
  // FetchPort
  'leaders',
  'fetch',
  'listOffsets',
  // ProducerPort and its transactions
  'send',
  'beginTransaction',
  'sendOffsets',
  'commitTransaction',
  'abortTransaction',
  // AdminPort
  'partitionCounts',
  'createTopics',
  'endOffsets',
  'beginningOffsets',
  'committedOffsets',
  'deleteRecords',
  'listTopics',
  'topicConfigs'
] as const

export type KafkaApi = (typeof KAFKA_APIS)[number]

/** One request as the broker saw it, for assertions. */
export interface RequestRecord {
  readonly api: KafkaApi
  readonly clientId: string
  readonly groupId: string | undefined
  readonly partitions: readonly TopicPartition[] | undefined
  readonly startMs: number
  readonly endMs: number
  /** Kafka's error name (or the error's name) when the request failed. */
  readonly error: string | undefined
}
