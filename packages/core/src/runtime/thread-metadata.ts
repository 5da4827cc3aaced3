/**
 * What `KafkaStreams.metadataForLocalThreads()` reports (Kafka Streams' ThreadMetadata and
 * TaskMetadata): each stream thread's name, state, active and standby tasks with their input
 * partitions, and the client ids it uses. Offsets are keyed `topic-partition`.
 */
import type { TaskId } from '../task-id.js'
import type { TopicPartition } from './kafka/ports.js'

export interface TaskMetadata {
  readonly taskId: TaskId
  readonly topicPartitions: readonly TopicPartition[]
  /** The offsets this instance last committed for the task's input partitions (active tasks). */
  readonly committedOffsets: ReadonlyMap<string, number>
  /** The end offsets last seen when fetching the task's input partitions (active tasks). */
  readonly endOffsets: ReadonlyMap<string, number>
  /** Since when (ms) the task has been waiting for data on an empty input partition (max.task.idle.ms), if it is. */
  readonly timeCurrentIdlingStarted: number | undefined
}

export interface ThreadMetadata {
  readonly threadName: string
  readonly threadState: string
  readonly activeTasks: readonly TaskMetadata[]
  readonly standbyTasks: readonly TaskMetadata[]
  readonly mainConsumerClientId: string
  readonly restoreConsumerClientId: string
  readonly producerClientIds: readonly string[]
  readonly adminClientId: string
}
