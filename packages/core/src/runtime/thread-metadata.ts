/**
 * What `KafkaStreams.metadataForLocalThreads()` reports (Kafka Streams' ThreadMetadata and
 * TaskMetadata): each stream thread's name, state, active and standby tasks with their input
 * partitions, and the client ids it uses. Offsets are keyed `topic-partition`.
 */
import type { TaskId } from '../task-id.js'
import type { TopicPartition } from './kafka/ports.js'

/** A task of a stream thread (Kafka Streams' TaskMetadata). */
export interface TaskMetadata {
  /** The task's id. */
  readonly taskId: TaskId
  /** Its input partitions. */
  readonly topicPartitions: readonly TopicPartition[]
  /** The offsets this instance last committed for the task's input partitions (active tasks). */
  readonly committedOffsets: ReadonlyMap<string, number>
  /** The end offsets last seen when fetching the task's input partitions (active tasks). */
  readonly endOffsets: ReadonlyMap<string, number>
  /** Since when (ms) the task has been waiting for data on an empty input partition (max.task.idle.ms), if it is. */
  readonly timeCurrentIdlingStarted: number | undefined
}

/** A stream thread of this instance (Kafka Streams' ThreadMetadata). */
export interface ThreadMetadata {
  /** The thread's name. */
  readonly threadName: string
  /** Its state (CREATED, STARTING, PARTITIONS_ASSIGNED, RUNNING, ...). */
  readonly threadState: string
  /** Its active tasks. */
  readonly activeTasks: readonly TaskMetadata[]
  /** Its standby tasks. */
  readonly standbyTasks: readonly TaskMetadata[]
  /** The client id of its group member (Kafka Streams' main consumer). */
  readonly mainConsumerClientId: string
  /** The client id it restores changelogs with. */
  readonly restoreConsumerClientId: string
  /** The client ids of its producers. */
  readonly producerClientIds: readonly string[]
  /** The client id of its admin client. */
  readonly adminClientId: string
}
