/**
 * The read side of one stream thread's tasks, for interactive queries, store lags and thread
 * metadata: their stores, the changelog positions of their logged stores and their metadata
 * (partitions, committed and end offsets, idling). It changes nothing; the TaskManager owns the
 * tasks. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { StateStore } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import type { ProcessorStateManager } from './state/processor-state-manager.js'
import type { StandbyTasks } from './standby-tasks.js'
import { tpKey, type TopicPartition } from './kafka/ports.js'
import type { TaskMetadata } from './thread-metadata.js'
import type { ManagedTask } from './managed-task.js'

export interface TaskViewsOptions {
  readonly topology: Pick<TopologyDef, 'subtopologies' | 'internalTopics'>
  readonly config: Pick<ResolvedStreamsConfig, 'applicationId'>
  /** The thread's active tasks by id, in every state. */
  readonly tasks: ReadonlyMap<string, ManagedTask>
  readonly standbys: Pick<StandbyTasks, 'values' | 'ids'>
  /** The offsets last committed per input partition, keyed by `topic-partition`. */
  readonly committed: ReadonlyMap<string, number>
}

export class TaskViews {
  readonly #o: TaskViewsOptions

  constructor(options: TaskViewsOptions) {
    this.#o = options
  }

  /** Local stores of running tasks by name, for interactive queries. */
  storesOf(taskId: string): ReadonlyMap<string, StateStore> | undefined {
    return this.#o.tasks.get(taskId)?.task.stores
  }

  /**
   * The task stores named `storeName` for interactive queries: of RUNNING active tasks, plus
   * (when `stale`) of restoring and suspended active tasks and of standby tasks.
   */
  queryableStores(storeName: string, stale: boolean): Array<{ partition: number; store: StateStore }> {
    const found: Array<{ partition: number; store: StateStore }> = []
    for (const t of this.#o.tasks.values()) {
      if (!stale && t.state !== 'RUNNING') continue
      const store = t.task.stores.get(storeName)
      if (store !== undefined && store.isOpen()) found.push({ partition: t.id.partition, store })
    }
    if (!stale) return found
    for (const s of this.#o.standbys.values()) {
      const store = s.task.stores.get(storeName)
      if (store !== undefined && store.isOpen()) found.push({ partition: s.id.partition, store })
    }
    return found
  }

  /**
   * The changelog position (next offset to apply) of every logged store of every task; 'latest'
   * for RUNNING active tasks, which are caught up by definition (Kafka's LATEST_OFFSET).
   */
  changelogPositions(): Array<{ storeName: string; changelog: TopicPartition; position: number | 'latest' }> {
    const positions: Array<{ storeName: string; changelog: TopicPartition; position: number | 'latest' }> = []
    const add = (stateManager: ProcessorStateManager, running: boolean): void => {
      for (const [storeName, m] of stateManager.stores) {
        if (m.changelog === undefined) continue
        positions.push({ storeName, changelog: m.changelog, position: running ? 'latest' : (m.offset ?? -1) + 1 })
      }
    }
    for (const t of this.#o.tasks.values()) add(t.stateManager, t.state === 'RUNNING')
    for (const s of this.#o.standbys.values()) add(s.stateManager, false)
    return positions
  }

  /** The active (not suspended) and standby tasks, for metadataForLocalThreads(). */
  taskMetadata(endOffsets: ReadonlyMap<string, number>): { active: TaskMetadata[]; standby: TaskMetadata[] } {
    // Every input partition is listed; -1 when nothing is known yet (as Kafka's TaskMetadata).
    const offsetsOf = (partitions: readonly TopicPartition[], from: ReadonlyMap<string, number>): Map<string, number> =>
      new Map(partitions.map(p => [tpKey(p.topic, p.partition), from.get(tpKey(p.topic, p.partition)) ?? -1]))
    const active = [...this.#o.tasks.values()]
      .filter(t => t.state !== 'SUSPENDED')
      .map(t => ({
        taskId: t.id,
        topicPartitions: [...t.partitions],
        committedOffsets: offsetsOf(t.partitions, this.#o.committed),
        endOffsets: offsetsOf(t.partitions, endOffsets),
        timeCurrentIdlingStarted: t.idleSince
      }))
    const standby = this.#o.standbys.ids.map(id => ({
      taskId: id,
      topicPartitions: this.#inputPartitions(id),
      committedOffsets: new Map<string, number>(),
      endOffsets: new Map<string, number>(),
      timeCurrentIdlingStarted: undefined
    }))
    return { active, standby }
  }

  /** The input partitions of a task: partition p of each source topic of its sub-topology (internal ones prefixed). */
  #inputPartitions(id: TaskId): TopicPartition[] {
    const sub = this.#o.topology.subtopologies.find(s => s.id === id.subtopology)
    const full = (topic: string): string =>
      this.#o.topology.internalTopics.has(topic) ? `${this.#o.config.applicationId}-${topic}` : topic
    return (sub?.sourceTopics ?? []).map(topic => ({ topic: full(topic), partition: id.partition }))
  }
}
