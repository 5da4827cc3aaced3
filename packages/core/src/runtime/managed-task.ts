/**
 * One active task as its stream thread keeps it: the StreamTask, its state manager, its input
 * partitions and where it is in its lifecycle. The TaskManager creates and moves it through its
 * states; the TaskExecutor processes and commits it while RUNNING; TaskViews reads it. @internal
 */
import type { TaskId } from '../task-id.js'
import type { StreamTask } from './stream-task.js'
import type { ProcessorStateManager } from './state/processor-state-manager.js'
import type { TopicPartition } from './kafka/ports.js'
import type { RecordsRate } from './restore-metrics.js'

export type ManagedState = 'RESTORING' | 'RUNNING' | 'SUSPENDED'

export interface ManagedTask {
  readonly id: TaskId
  readonly task: StreamTask
  readonly stateManager: ProcessorStateManager
  partitions: TopicPartition[]
  state: ManagedState
  /** Changelog partitions still restoring. */
  restoring: Set<string>
  /**
   * Whether the metadata of its committed offsets (partition times, KIP-825 processor metadata)
   * is still to be read: a task runs only once it is (Kafka's StreamTask.completeRestoration).
   */
  metadataPending: boolean
  /** When its task timeout expires (Kafka's AbstractTask deadlineMs): set at its first failed attempt, cleared by one that succeeds. */
  timeoutDeadline: number | undefined
  /** When the task first could not process because an input partition was empty (max.task.idle.ms). */
  idleSince: number | undefined
  /** Records restored into the task's stores (its restore metrics). */
  readonly restored: RecordsRate
}
