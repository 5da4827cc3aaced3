/**
 * The standby tasks of one stream thread: each keeps the stores of a task current from their
 * changelogs (persistent stores from their checkpoint) and processes nothing. A standby that
 * becomes active is handed over: with a persistent store it closes (checkpointed; the active
 * task reopens the store from disk and restores from the checkpoint); with in-memory stores only
 * it is recycled (Kafka's task recycling): its open stores and changelog positions go to the
 * active task, which restores only the tail of each changelog instead of all of it. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Clock } from '../clock.js'
import { childLogger, type Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import { StreamTask } from './stream-task.js'
import type { RecordCollector } from './record-collector.js'
import { ProcessorStateManager, type StoreMetadata } from './state/processor-state-manager.js'
import type { StateDirectory } from './state/state-directory.js'
import type { ChangelogReader } from './changelog-reader.js'
import { tpKey, type TopicPartition } from './kafka/ports.js'
import type { MainConsumer } from './consumer/consumer-api.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import { addTaskRestoreMetrics } from './restore-metrics.js'
import type { StandbySuspendReason } from './standby-update-listener.js'
import { withSourceChangelogLimits } from './source-changelog-limits.js'
import { isTaskCorrupted } from './task-corrupted.js'

export interface StandbyTask {
  readonly id: TaskId
  readonly task: StreamTask
  readonly stateManager: ProcessorStateManager
}

/** What a recycled standby hands to the active task that replaces it. */
export interface RecycledStandby {
  /** Its stores, open and current, by name. */
  readonly stores: ReadonlyMap<string, StateStore>
  /** Its stores' changelog partitions and the offsets applied up to, by store name. */
  readonly positions: ReadonlyMap<string, StoreMetadata>
}

export interface StandbyTasksOptions {
  readonly topology: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly logger: Logger
  readonly stateDirectory: StateDirectory
  /** In whose name the standbys' task directories are locked (the thread's task manager). */
  readonly lockOwner: object
  readonly collector: RecordCollector
  readonly changelogReader: ChangelogReader
  readonly globalStores: ReadonlyMap<string, StateStore>
  readonly metrics?: StreamsMetricsRegistry
  /** Reads the group's committed offsets: the limits of standbys whose changelog is a source topic. */
  readonly consumer: Pick<MainConsumer, 'committed'>
  /** The changelog partition of a task's store, or undefined when the store is not logged. */
  readonly changelogPartition: (storeName: string, id: TaskId) => TopicPartition | undefined
}

export class StandbyTasks {
  readonly #o: StandbyTasksOptions
  readonly #standbys = new Map<string, StandbyTask>()

  constructor(options: StandbyTasksOptions) {
    this.#o = options
  }

  get size(): number {
    return this.#standbys.size
  }

  get ids(): TaskId[] {
    return [...this.#standbys.values()].map(s => s.id)
  }

  has(id: string): boolean {
    return this.#standbys.has(id)
  }

  values(): IterableIterator<StandbyTask> {
    return this.#standbys.values()
  }

  /**
   * Creates a standby: its stores follow their changelogs from the checkpoint; nothing is
   * processed. Under exactly-once its checkpoint is loaded as an active task's (Kafka's
   * StandbyTask): state without one is wiped, and the file is deleted once read (the standby's
   * commits write it again).
   */
  async create(id: TaskId): Promise<void> {
    const taskDir = await this.#o.stateDirectory.lockTask(id, this.#o.lockOwner, this.#o.config.taskTimeoutMs)
    // Under exactly-once, as an active task: local state without a checkpoint may hold aborted writes.
    const eos = this.#o.config.processingGuarantee === 'exactly_once_v2'
    const dirWasEmpty = eos && (await this.#o.stateDirectory.taskDirIsEmpty(id))
    const stateManager = new ProcessorStateManager(id, taskDir, childLogger(this.#o.logger, { task: id.toString() }))
    const task = new StreamTask({
      id,
      topology: this.#o.topology,
      subtopologies: [id.subtopology],
      config: this.#o.config,
      clock: this.#o.clock,
      collector: this.#o.collector,
      stateDir: taskDir,
      globalStores: this.#o.globalStores,
      onStoreRegistered: (store, restore) => stateManager.register(store, restore, this.#o.changelogPartition(store.name, id))
    })
    await task.initializeStores()
    try {
      await stateManager.loadCheckpoint(eos ? { dirWasEmpty } : undefined)
    } catch (err) {
      if (!isTaskCorrupted(err)) throw err
      childLogger(this.#o.logger, { task: id.toString() }).warn(`${err.message}; wiping the local state of standby task ${id.toString()}`)
      task.close()
      await this.#o.stateDirectory.wipeTask(id, this.#o.lockOwner, task)
      return await this.create(id)
    }
    this.#standbys.set(id.toString(), { id, task, stateManager })
    const applied = addTaskRestoreMetrics(this.#o.metrics, this.#o.clock, id, 'update')
    const registrations = await withSourceChangelogLimits(
      stateManager.restoreRegistrations().map(r => ({ ...r, standby: true, applied })),
      this.#o.topology,
      this.#o.consumer
    )
    try {
      await this.#o.changelogReader.register(registrations)
    } catch (err) {
      if (!isTaskCorrupted(err)) throw err
      childLogger(this.#o.logger, { task: id.toString() }).warn(`${err.message}; wiping the local state of standby task ${id.toString()}`)
      await this.close(id.toString(), false, 'MIGRATED', true)
      await this.create(id)
    }
    childLogger(this.#o.logger, { task: id.toString() }).info(`Standby task ${id.toString()} created`)
  }

  /**
   * Stops following the standby's changelogs and closes its stores (checkpointed when
   * `checkpoint`), wipes its directory when `wipe`, and lets go of the directory; the standby
   * listener hears `reason` (nothing when null: shutdown).
   */
  async close(id: string, checkpoint = true, reason: StandbySuspendReason | null = 'MIGRATED', wipe = false): Promise<void> {
    const s = this.#remove(id, reason)
    if (s === undefined) return
    try {
      if (checkpoint) await s.stateManager.maybeCheckpoint(true)
      s.task.close()
      if (wipe) await this.#o.stateDirectory.wipeTask(s.id, this.#o.lockOwner, s.task)
    } finally {
      this.#o.stateDirectory.unlockTask(s.id, this.#o.lockOwner)
    }
  }

  /** The standby reading changelog partition `changelogKey` is wiped and created again (its changelog lost its position). */
  async recreate(changelogKey: string): Promise<void> {
    for (const s of [...this.#standbys.values()]) {
      const reads = [...s.stateManager.stores.values()].some(
        m => m.changelog !== undefined && tpKey(m.changelog.topic, m.changelog.partition) === changelogKey
      )
      if (!reads) continue
      await this.close(s.id.toString(), false, 'MIGRATED', true)
      await this.create(s.id)
      return
    }
  }

  /**
   * Takes a standby that becomes active out of this set. When none of its stores is persistent
   * and all are open, it is recycled: it stops following its changelogs and returns its open
   * stores with their positions, for the active task to take over. Otherwise it closes (as
   * close()) and returns undefined: the active task opens its stores anew.
   */
  async handOver(id: string): Promise<RecycledStandby | undefined> {
    const s = this.#standbys.get(id)
    if (s === undefined) return undefined
    const stores = s.task.stores
    if ([...stores.values()].some(store => store.persistent || !store.isOpen())) {
      await this.close(id, true, 'PROMOTED')
      return undefined
    }
    this.#remove(id, 'PROMOTED')
    // The StreamTask of the standby is dropped without close(): it ran no processor, and its stores live on.
    childLogger(this.#o.logger, { task: id }).info(
      `Standby task ${id} recycled into an active task; its in-memory stores continue from their changelog positions`
    )
    return { stores: new Map(stores), positions: new Map(s.stateManager.stores) }
  }

  #remove(id: string, reason: StandbySuspendReason | null): StandbyTask | undefined {
    const s = this.#standbys.get(id)
    if (s === undefined) return undefined
    this.#standbys.delete(id)
    this.#o.changelogReader.unregister(
      [...s.stateManager.stores.values()].flatMap(m => (m.changelog === undefined ? [] : [m.changelog])),
      reason
    )
    this.#o.metrics?.removeScope(`task-${id}`)
    return s
  }

  /** Sum of the changelog offsets of each standby task (for lag-aware assignment). */
  offsetSums(): Map<string, number> {
    const sums = new Map<string, number>()
    for (const [id, s] of this.#standbys) sums.set(id, s.stateManager.changelogOffsetSum() ?? 0)
    return sums
  }

  /**
   * Checkpoints standbys whose changelog offsets moved far enough, and moves on the limits of
   * standbys waiting at the committed offset of their source topic (on commit).
   */
  async commit(): Promise<void> {
    const held = this.#o.changelogReader.heldStandbys()
    if (held.length > 0) {
      const committed = await this.#o.consumer.committed(held)
      this.#o.changelogReader.updateStandbyLimits(new Map([...committed].map(([key, c]) => [key, c.offset])))
    }
    // A checkpoint flushes the stores first: what it covers is durable.
    for (const s of this.#standbys.values()) await s.stateManager.maybeCheckpoint(false)
  }
}
