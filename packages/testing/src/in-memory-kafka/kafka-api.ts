/**
 * The names of the requests the in-memory Kafka answers, one per port method, as faults, delays
 * and the request log name them; and the request log's entries.
 */
import type { TopicPartition } from '@kstreams/core'

/** The requests the in-memory Kafka answers, one per port method. */
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
  'topicConfigs',
  'offsetsForTimes'
] as const

/** The name of a request, as faults, delays and the request log name it. */
export type KafkaApi = (typeof KAFKA_APIS)[number]

/** One request as the broker saw it, for assertions. */
export interface RequestRecord {
  /** The request. */
  readonly api: KafkaApi
  /** The client id of the port that sent it. */
  readonly clientId: string
  /** Its group, for a group request. */
  readonly groupId: string | undefined
  /** The partitions it touched, when it names any. */
  readonly partitions: readonly TopicPartition[] | undefined
  /** When the client sent it (scheduler time, ms; before any injected delay). */
  readonly startMs: number
  /** When it was answered or failed (scheduler time, ms). */
  readonly endMs: number
  /** Kafka's error name (or the error's name) when the request failed. */
  readonly error: string | undefined
}
