/**
 * The active tasks of one stream thread and their lifecycle: creates them on assignment,
 * restores their stores through the changelog reader and reads the metadata of their committed
 * offsets before they process (wiping and restoring again a task whose local state cannot be
 * trusted), suspends them on revocation (committed, checkpointed, stores kept open so a task
 * that stays needs no restore), closes those that moved away or were lost, routes fetched
 * records to them, and shuts them down. Running tasks
 * are processed and committed by its TaskExecutor; TaskViews reads them for queries and
 * metadata. Standby tasks live in StandbyTasks; one that becomes active hands its in-memory
 * stores over (recycling). @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Clock } from '../clock.js'
import { childLogger, type Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import { Headers } from '../record.js'
import { StreamsError } from '../errors.js'
import { isRetriable } from './retrying.js'
import { changelogTopicName } from './assignment/topology-metadata.js'
import { LATEST_OFFSET } from './assignment/subscription-info.js'
import { TaskId } from '../task-id.js'
import { StreamTask } from './stream-task.js'
import type { DeserializationErrorHandler } from './record-queue.js'
import type { ThreadCache } from '../state/cache/thread-cache.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import { ProcessorStateManager } from './state/processor-state-manager.js'
import type { StateDirectory } from './state/state-directory.js'
import type { ChangelogReader, RestoreProgress, StandbyProgress } from './changelog-reader.js'
import type { KafkaRecordCollector } from './kafka-record-collector.js'
import { StandbyTasks, type RecycledStandby } from './standby-tasks.js'
import { tpKey, type CommittedOffset, type FetchedBatch, type TopicPartition, type TopicPartitionOffset } from './kafka/ports.js'
import type { MainConsumer } from './consumer/consumer-api.js'
import { decodeCommitMetadata } from './partition-time-metadata.js'
import { addTaskRestoreMetrics } from './restore-metrics.js'
import type { TaskMetadata } from './thread-metadata.js'
import { withSourceChangelogLimits } from './source-changelog-limits.js'
import { isTaskCorrupted } from './task-corrupted.js'
import type { ManagedTask } from './managed-task.js'
import { TaskExecutor, type TransactionalCommit } from './task-executor.js'
import { TaskViews } from './task-views.js'

export interface TaskManagerOptions {
  readonly topology: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly logger: Logger
  readonly stateDirectory: StateDirectory
  readonly collector: KafkaRecordCollector
  readonly consumer: MainConsumer
  readonly changelogReader: ChangelogReader
  readonly globalStores: ReadonlyMap<string, StateStore>
  readonly deserializationErrorHandler?: DeserializationErrorHandler
  /** The thread's record cache, shared by the caching stores of its tasks. */
  readonly cache?: ThreadCache
  readonly metrics?: StreamsMetricsRegistry
  /** How far the consumer is behind the end of an input partition, as last fetched; undefined when not known yet. */
  readonly currentLag: (tp: TopicPartition) => number | undefined
  /** Under exactly_once_v2: the thread's transactional producer and the group its offsets go to (TaskExecutor). */
  readonly transactions?: TransactionalCommit | undefined
}

export class TaskManager {
  readonly #o: TaskManagerOptions
  readonly #tasks = new Map<string, ManagedTask>()
  readonly #byPartition = new Map<string, ManagedTask>()
  readonly #changelogToTask = new Map<string, ManagedTask>()
  /** Standby tasks: stores kept current from their changelogs, no processing. */
  readonly #standbys: StandbyTasks
  /** Processes and commits the running tasks. */
  readonly #executor: TaskExecutor
  readonly #views: TaskViews

  /** Stores whose builder logs to a changelog. */
  readonly #loggedStores: ReadonlySet<string>
  /**
   * exactly_once_v2: running tasks write no checkpoint, a checkpoint is deleted once loaded, a
   * task with local state but no checkpoint is corrupted, and a task closed dirty is wiped.
   */
  readonly #eos: boolean

  constructor(options: TaskManagerOptions) {
    this.#o = options
    this.#eos = options.config.processingGuarantee === 'exactly_once_v2'
    this.#loggedStores = new Set([...options.topology.storeBuilders].filter(([, b]) => b.loggingEnabled).map(([name]) => name))
    // The task directories of this thread's tasks, active and standby, are locked in its name.
    this.#standbys = new StandbyTasks({
      ...options,
      lockOwner: this,
      changelogPartition: (storeName, id) => this.#changelogPartition(storeName, id)
    })
    this.#executor = new TaskExecutor({ ...options, tasks: this.#tasks })
    this.#views = new TaskViews({ ...options, tasks: this.#tasks, standbys: this.#standbys, committed: this.#executor.committedOffsets })
  }

  /**
   * The changelog partition of a task's store (the task's own partition): its changelog topic, or
   * the source topic serving as its changelog; undefined when the store has neither.
   */
  #changelogPartition(storeName: string, id: TaskId): TopicPartition | undefined {
    const source = this.#o.topology.sourceChangelogs.get(storeName)
    if (source !== undefined) return { topic: source, partition: id.partition }
    if (!this.#loggedStores.has(storeName)) return undefined
    return { topic: changelogTopicName(this.#o.config.applicationId, storeName), partition: id.partition }
  }

  get activeTaskIds(): TaskId[] {
    return [...this.#tasks.values()].filter(t => t.state !== 'SUSPENDED').map(t => t.id)
  }

  get hasRestoringTasks(): boolean {
    return [...this.#tasks.values()].some(t => t.state === 'RESTORING')
  }

  /** Local stores of a task by name (TaskViews). */
  storesOf(taskId: string): ReadonlyMap<string, StateStore> | undefined {
    return this.#views.storesOf(taskId)
  }

  /** The task stores named `storeName` for interactive queries (TaskViews). */
  queryableStores(storeName: string, stale: boolean): Array<{ partition: number; store: StateStore }> {
    return this.#views.queryableStores(storeName, stale)
  }

  /** The changelog position of every logged store of every task (TaskViews). */
  changelogPositions(): Array<{ storeName: string; changelog: TopicPartition; position: number | 'latest' }> {
    return this.#views.changelogPositions()
  }

  /** The active (not suspended) and standby tasks, for metadataForLocalThreads() (TaskViews). */
  taskMetadata(endOffsets: ReadonlyMap<string, number>): { active: TaskMetadata[]; standby: TaskMetadata[] } {
    return this.#views.taskMetadata(endOffsets)
  }

  /** Eager revocation: commit everything, checkpoint, keep the tasks (suspended) with their stores open. */
  async handleRevocation(): Promise<void> {
    await this.commit(true)
    for (const t of this.#tasks.values()) {
      if (t.state === 'RESTORING') this.#o.changelogReader.unregister(this.#changelogPartitions(t))
      await t.stateManager.maybeCheckpoint(true)
      t.task.clearBuffers()
      t.state = 'SUSPENDED'
      this.#o.stateDirectory.setTaskSuspended(t.id, this, true)
    }
  }

  /**
   * The member lost its partitions (evicted, fenced, a commit the group rejected): every active
   * task is closed without committing its offsets or writing a checkpoint (Kafka's handleLostAll,
   * at-least-once: the new owner processes their input since the last commit again). The record
   * collector drops what the lost tasks produced and had not sent yet (a late write of the old
   * owner would land after the new owner's in the changelog), so their persistent stores may
   * hold writes their changelog never got: those are wiped, as Kafka wipes the state of a task
   * closed dirty under exactly-once, and a task that comes back restores from the changelog.
   * Standby tasks are kept.
   */
  async handleLostAll(): Promise<void> {
    for (const t of [...this.#tasks.values()]) {
      const persistent = [...t.task.stores.values()].some(s => s.persistent)
      if (persistent)
        childLogger(this.#o.logger, { task: t.id.toString() }).info(
          `Task ${t.id.toString()} was lost: wiping its local state (it restores from the changelog if it returns)`
        )
      await this.#closeTask(t, false, persistent)
    }
    this.#byPartition.clear()
  }

  /**
   * exactly_once_v2, after the thread's transaction was aborted (a send or a commit failed
   * without fencing): the transaction covered every active task, so each one's stores may hold
   * aborted writes and its input position is past its committed offset. Each is closed dirty
   * (wiped), created again (restoring from its changelog), and its input is read again from the
   * committed offsets (Kafka's handleCorruption: closeDirtyAndRevive, then the offset reset).
   */
  async reviveActiveTasks(): Promise<void> {
    const tasks = [...this.#tasks.values()].filter(t => t.state !== 'SUSPENDED')
    for (const t of tasks) {
      childLogger(this.#o.logger, { task: t.id.toString() }).info(
        `Task ${t.id.toString()}: its transaction was aborted; wiping its local state, restoring it and processing again from the committed offsets`
      )
      await this.#closeTask(t, false, true)
      for (const p of t.partitions) this.#byPartition.delete(tpKey(p.topic, p.partition))
    }
    for (const t of tasks) {
      const fresh = await this.#createTask(t.id, t.partitions)
      for (const p of fresh.partitions) this.#byPartition.set(tpKey(p.topic, p.partition), fresh)
    }
    const partitions = tasks.flatMap(t => t.partitions)
    if (partitions.length === 0) return
    this.#o.consumer.resetToCommitted(partitions)
    this.#o.consumer.pause(partitions.filter(p => this.#byPartition.get(tpKey(p.topic, p.partition))?.state === 'RESTORING'))
  }

  /** Applies a new assignment: resumes kept tasks, closes the others, creates (and restores) new ones. */
  async handleAssignment(
    active: ReadonlyMap<string, readonly TopicPartition[]>,
    standby: ReadonlyMap<string, readonly TopicPartition[]> = new Map()
  ): Promise<void> {
    for (const [id, t] of [...this.#tasks]) {
      if (!active.has(id)) await this.#closeTask(t, true)
    }
    // Standbys that moved away close; those that became active hand over (in-memory stores are recycled).
    const recycled = new Map<string, RecycledStandby | undefined>()
    for (const s of [...this.#standbys.values()]) {
      const id = s.id.toString()
      if (active.has(id)) recycled.set(id, await this.#standbys.handOver(id))
      else if (!standby.has(id)) await this.#standbys.close(id)
    }
    this.#byPartition.clear()
    for (const [id, partitions] of active) {
      let t = this.#tasks.get(id)
      if (t === undefined) {
        t = await this.#createTask(TaskId.parse(id), partitions, recycled.get(id))
      } else {
        t.partitions = [...partitions]
        for (const p of partitions) t.task.addPartition(p.topic, p.partition)
        // A kept task resumes where it was: its stores are open and current. Under exactly-once
        // the checkpoint of its suspension is deleted: it writes uncommitted state from now on.
        // As a new one, it runs once its committed offsets' metadata is read again (Kafka's resume()).
        if (this.#eos) await t.stateManager.deleteCheckpoint()
        t.state = 'RESTORING'
        t.metadataPending = true
        this.#o.stateDirectory.setTaskSuspended(t.id, this, false)
        if (t.restoring.size > 0) await this.#registerChangelogs(t)
      }
      for (const p of partitions) this.#byPartition.set(tpKey(p.topic, p.partition), t)
    }
    for (const id of standby.keys()) {
      if (!this.#standbys.has(id) && !active.has(id)) await this.#standbys.create(TaskId.parse(id))
    }
    const restoringPartitions = [...this.#tasks.values()].filter(t => t.state === 'RESTORING').flatMap(t => t.partitions)
    if (restoringPartitions.length > 0) this.#o.consumer.pause(restoringPartitions)
  }

  /** A new active task; with a recycled standby, on its open stores, restoring from its positions. */
  async #createTask(id: TaskId, partitions: readonly TopicPartition[], recycled?: RecycledStandby): Promise<ManagedTask> {
    // Another thread of this instance may still have the task: it closes it in its own rebalance.
    const taskDir = await this.#o.stateDirectory.lockTask(id, this, this.#o.config.taskTimeoutMs)
    const dirWasEmpty = this.#eos && (await this.#o.stateDirectory.taskDirIsEmpty(id))
    const stateManager = new ProcessorStateManager(id, taskDir, childLogger(this.#o.logger, { task: id.toString() }))
    const changelogOf = (storeName: string): TopicPartition | undefined => this.#changelogPartition(storeName, id)
    const task = new StreamTask({
      id,
      topology: this.#o.topology,
      subtopologies: [id.subtopology],
      config: this.#o.config,
      clock: this.#o.clock,
      collector: this.#o.collector,
      stateDir: taskDir,
      globalStores: this.#o.globalStores,
      cache: this.#o.cache,
      metrics: this.#o.metrics,
      changelogWriter: storeName => {
        const changelog = changelogOf(storeName)
        // A store whose changelog is its source topic never writes to it.
        if (changelog === undefined || this.#o.topology.sourceChangelogs.has(storeName)) return undefined
        return {
          append: (key, value, timestamp) =>
            this.#o.collector.send({
              topic: changelog.topic,
              partition: changelog.partition,
              key,
              value,
              timestamp,
              headers: new Headers(),
              origin: task,
              changelog: true,
              source: task.context.recordContext,
              processorNodeId: task.context.currentNode?.name
            })
        }
      },
      onStoreRegistered: (store, restore) => stateManager.register(store, restore, changelogOf(store.name)),
      onDroppedRecord: (record, reason) => {
        childLogger(this.#o.logger, { task: id.toString() }).warn(
          `Task ${id.toString()} dropped a record of ${record.topic}-${record.partition} at offset ${record.offset}: ${reason}`
        )
      },
      onDeserializationError: this.#o.deserializationErrorHandler,
      recycledStores: recycled?.stores
    })
    for (const p of partitions) task.addPartition(p.topic, p.partition)
    try {
      await task.initializeStores()
    } catch (err) {
      if (recycled === undefined) throw err
      childLogger(this.#o.logger, { task: id.toString() }).warn(
        `Task ${id.toString()}: the stores of its standby could not be taken over (${String(err)}); opening new ones`
      )
      try {
        task.close()
      } catch {
        /* the recycled stores are dropped either way */
      }
      return await this.#createTask(id, partitions)
    }
    if (recycled !== undefined) stateManager.adoptOffsets(recycled.positions)
    try {
      await stateManager.loadCheckpoint(this.#eos ? { dirWasEmpty } : undefined)
    } catch (err) {
      if (!isTaskCorrupted(err)) throw err
      childLogger(this.#o.logger, { task: id.toString() }).warn(
        `${err.message}; wiping the local state of task ${id.toString()} and restoring it from the beginning`
      )
      task.close()
      await this.#o.stateDirectory.wipeTask(id, this, task)
      return await this.#createTask(id, partitions)
    }
    const remaining = (): number =>
      this.#o.changelogReader.progress().reduce((n, p) => (p.taskId?.equals(id) === true ? n + p.remaining : n), 0)
    const restored = addTaskRestoreMetrics(this.#o.metrics, this.#o.clock, id, 'restore', remaining)
    const t: ManagedTask = {
      id,
      task,
      stateManager,
      partitions: [...partitions],
      state: 'RESTORING',
      restoring: new Set(),
      metadataPending: true,
      timeoutDeadline: undefined,
      idleSince: undefined,
      restored
    }
    this.#tasks.set(id.toString(), t)
    for (const reg of stateManager.restoreRegistrations()) t.restoring.add(tpKey(reg.partition.topic, reg.partition.partition))
    await this.#registerChangelogs(t)
    return t
  }

  async #registerChangelogs(t: ManagedTask): Promise<void> {
    const pending = t.stateManager
      .restoreRegistrations()
      .filter(r => t.restoring.has(tpKey(r.partition.topic, r.partition.partition)))
      .map(r => ({ ...r, applied: t.restored }))
    const registrations = await withSourceChangelogLimits(pending, this.#o.topology, this.#o.consumer)
    for (const r of registrations) this.#changelogToTask.set(tpKey(r.partition.topic, r.partition.partition), t)
    let complete: TopicPartition[]
    try {
      const started = this.#o.clock.milliseconds()
      complete = await this.#o.changelogReader.register(registrations)
      childLogger(this.#o.logger, { task: t.id.toString() }).info(
        `Task ${t.id.toString()}: changelog offsets of ${registrations.length} store(s) read in ${this.#o.clock.milliseconds() - started} ms`
      )
    } catch (err) {
      if (!isTaskCorrupted(err)) throw err
      childLogger(this.#o.logger, { task: t.id.toString() }).warn(
        `${err.message}; wiping the local state of task ${t.id.toString()} and restoring it from the beginning`
      )
      await this.#wipeAndReinitialize(t)
      return
    }
    this.#markRestored(complete)
  }

  /** A corrupted task: close its stores, delete its directory, open fresh stores, restore everything. */
  async #wipeAndReinitialize(t: ManagedTask): Promise<void> {
    this.#o.changelogReader.unregister(this.#changelogPartitions(t))
    t.task.close()
    await this.#o.stateDirectory.wipeTask(t.id, this, t.task)
    this.#tasks.delete(t.id.toString())
    const fresh = await this.#createTask(t.id, t.partitions)
    for (const p of fresh.partitions) this.#byPartition.set(tpKey(p.topic, p.partition), fresh)
  }

  /** Marks changelog partitions restored; returns the tasks that became RUNNING. */
  #markRestored(partitions: readonly TopicPartition[]): ManagedTask[] {
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      const t = this.#changelogToTask.get(key)
      if (t === undefined) continue
      t.restoring.delete(key)
      this.#changelogToTask.delete(key)
    }
    const started: ManagedTask[] = []
    for (const t of this.#tasks.values()) {
      if (t.state === 'RESTORING' && t.restoring.size === 0 && !t.metadataPending) {
        if (t.task.state === 'CREATED') t.task.initializeTopology()
        t.state = 'RUNNING'
        this.#o.consumer.resume(t.partitions)
        childLogger(this.#o.logger, { task: t.id.toString() }).info(`Task ${t.id.toString()} restored and running`)
        started.push(t)
      }
    }
    return started
  }

  /** Progress of the stores this thread restores now. */
  restoreProgress(): RestoreProgress[] {
    return this.#o.changelogReader.progress()
  }

  /** Progress of the stores of this thread's standby tasks. */
  standbyProgress(): StandbyProgress[] {
    return this.#o.changelogReader.standbyProgress()
  }

  /** Standby task ids. */
  get standbyTaskIds(): TaskId[] {
    return this.#standbys.ids
  }

  /** Whether the changelog reader has partitions to follow (restoring or standby). */
  get needsChangelogReader(): boolean {
    return this.hasRestoringTasks || this.#standbys.size > 0
  }

  /** Sum of the changelog offsets of each standby task (for lag-aware assignment). */
  standbyOffsetSums(): Map<string, number> {
    return this.#standbys.offsetSums()
  }

  /**
   * What this thread's subscription reports of the tasks it owns (Kafka Streams'
   * TaskManager.taskOffsetSums): LATEST_OFFSET for a running active task; for an active task
   * restoring, or suspended by a revocation (its stores, in memory too, stay open and a task
   * given back resumes on them), and for a standby, the sum of its stores' changelog positions.
   */
  taskOffsetSums(): Map<string, number> {
    const sums = this.#standbys.offsetSums()
    for (const t of this.#tasks.values()) {
      const sum = t.state === 'RUNNING' ? LATEST_OFFSET : t.stateManager.changelogOffsetSum()
      if (sum !== undefined) sums.set(t.id.toString(), sum)
    }
    return sums
  }

  /**
   * One restore step of the changelog reader; tasks whose stores are complete checkpoint and
   * start running. Tasks (active or standby) whose changelog no longer has their position are
   * wiped and restored from the beginning.
   */
  async restoreStep(maxWaitMs: number): Promise<void> {
    const completed = await this.#o.changelogReader.restoreStep(maxWaitMs)
    // Under exactly-once a running task has no checkpoint (the stores will hold uncommitted writes).
    for (const t of this.#markRestored(completed)) if (!this.#eos) await t.stateManager.maybeCheckpoint(true)
    for (const c of this.#o.changelogReader.takeCorrupted()) {
      const key = tpKey(c.partition.topic, c.partition.partition)
      this.#o.logger.warn(
        `${c.reason}; wiping the local state of its ${c.standby ? 'standby ' : ''}task and restoring it from the beginning`
      )
      if (c.standby) {
        await this.#standbys.recreate(key)
        continue
      }
      const t = this.#changelogToTask.get(key)
      if (t !== undefined && this.#tasks.get(t.id.toString()) === t) await this.#wipeAndReinitialize(t)
    }
  }

  /** Buffers a fetched batch in its task; pauses the partition when its buffer is full. */
  addBatch(batch: FetchedBatch): void {
    const t = this.#byPartition.get(tpKey(batch.topic, batch.partition))
    if (t === undefined || t.state === 'SUSPENDED') return
    t.task.addRecords(batch.topic, batch.partition, batch.records)
    if (t.task.bufferedFor(batch.topic, batch.partition) > this.#o.config.bufferedRecordsPerPartition) {
      this.#o.consumer.pause([{ topic: batch.topic, partition: batch.partition }])
    }
  }

  /** Whether a running task has records buffered (the thread polls without waiting then). */
  get hasProcessableRecords(): boolean {
    return this.#executor.hasProcessableRecords
  }

  /** Processes up to `maxPerTask` records of every processable running task; returns how many (TaskExecutor). */
  process(maxPerTask: number): number {
    return this.#executor.process(maxPerTask)
  }

  /** Wall-clock punctuation of every running task (TaskExecutor). */
  punctuateWallClock(): number {
    return this.#executor.punctuateWallClock()
  }

  /** The offsets last committed per input partition of the running tasks (the next offsets to read). */
  committedOffsets(): TopicPartitionOffset[] {
    return [...this.#executor.committedOffsets].map(([key, offset]) => {
      const dash = key.lastIndexOf('-')
      return { topic: key.slice(0, dash), partition: Number(key.slice(dash + 1)), offset }
    })
  }

  /** Whether a task asked for a commit (context.commit()). */
  get commitRequested(): boolean {
    return this.#executor.commitRequested
  }

  /** Standby tasks commit, then the running tasks that need it (all when `force`, TaskExecutor); returns how many did. */
  async commit(force = false): Promise<number> {
    await this.#standbys.commit()
    return await this.#executor.commit(force)
  }

  /**
   * Reads the metadata of the committed offsets of the tasks waiting for it, once their stores are
   * restored or while they restore (Kafka's StreamTask.initializeTaskTimeAndProcessorMetadata, in
   * completeRestoration): partition times and KIP-825 processor metadata, in place before the
   * task's processors are initialized and it processes. The stream thread calls it at every
   * iteration, between polls, so the member keeps polling and heartbeating. A read that fails with
   * a retriable error (it kept timing out for defaultApiTimeoutMs) leaves the tasks waiting, to be
   * tried again at the next iteration, until they have waited for taskTimeoutMs since the first
   * failure: then the thread fails (Kafka's maybeInitTaskTimeoutOrThrow). The read is never skipped.
   */
  async initializeMetadata(): Promise<void> {
    const pending = [...this.#tasks.values()].filter(t => t.state === 'RESTORING' && t.metadataPending)
    if (pending.length === 0) return
    let committed: Map<string, CommittedOffset>
    try {
      committed = await this.#o.consumer.committed(pending.flatMap(t => t.partitions))
    } catch (err) {
      const ids = pending.map(t => t.id.toString()).join(', ')
      if (!isRetriable(err)) {
        if (err instanceof StreamsError) throw err
        throw new StreamsError('KAFKA', `Reading the committed offsets of task(s) ${ids} failed: ${messageOf(err)}`, { cause: err })
      }
      const now = this.#o.clock.milliseconds()
      for (const t of pending) this.#maybeInitTaskTimeoutOrThrow(t, now, err)
      this.#o.logger.warn(
        `Reading the committed offsets of task(s) ${ids} failed (${messageOf(err)}); the tasks wait and it is tried again at the next iteration (for up to taskTimeoutMs)`
      )
      return
    }
    for (const t of pending) {
      // Closed or wiped (the restore goes on meanwhile) while the offsets were read: not this task any more.
      if (this.#tasks.get(t.id.toString()) !== t) continue
      for (const p of t.partitions) {
        const { partitionTime, processorMetadata } = decodeCommitMetadata(committed.get(tpKey(p.topic, p.partition))?.metadata)
        if (partitionTime !== undefined) t.task.initializePartitionTime(p.topic, p.partition, partitionTime)
        t.task.initializeProcessorMetadata(processorMetadata)
      }
      t.metadataPending = false
      t.timeoutDeadline = undefined
    }
    // Under exactly-once a running task has no checkpoint (as after restoreStep).
    for (const t of this.#markRestored([])) if (!this.#eos) await t.stateManager.maybeCheckpoint(true)
  }

  /** Kafka's AbstractTask.maybeInitTaskTimeoutOrThrow: starts the task's timeout, or fails once it expired. */
  #maybeInitTaskTimeoutOrThrow(t: ManagedTask, now: number, cause: unknown): void {
    const timeoutMs = this.#o.config.taskTimeoutMs
    if (t.timeoutDeadline === undefined) {
      t.timeoutDeadline = now + timeoutMs
      return
    }
    if (now <= t.timeoutDeadline) return
    throw new StreamsError(
      'KAFKA',
      `Task ${t.id.toString()} did not make progress within ${now - t.timeoutDeadline + timeoutMs} ms (taskTimeoutMs ${timeoutMs}): reading its committed offsets kept failing (${messageOf(cause)})`,
      { cause, taskId: t.id.toString() }
    )
  }

  #changelogPartitions(t: ManagedTask): TopicPartition[] {
    return [...t.stateManager.stores.values()].flatMap(m => (m.changelog === undefined ? [] : [m.changelog]))
  }

  /** Closes a task (wiping its directory when `wipe`) and lets go of its directory. */
  async #closeTask(t: ManagedTask, clean: boolean, wipe = false): Promise<void> {
    // Under exactly-once the stores of a task closed dirty may hold aborted writes.
    wipe ||= !clean && this.#eos
    this.#tasks.delete(t.id.toString())
    this.#executor.forgetCommitted(t.partitions)
    this.#o.changelogReader.unregister(this.#changelogPartitions(t))
    if (clean && t.state !== 'SUSPENDED') {
      t.task.prepareCommit()
      await this.#o.collector.flush()
      t.stateManager.updateChangelogOffsets((topic, partition) => this.#o.collector.ackedOffset(topic, partition))
    }
    if (clean) await t.stateManager.maybeCheckpoint(true)
    this.#o.metrics?.removeScope(`task-${t.id.toString()}`)
    try {
      t.task.close()
      // Before the lock is let go: the next owner must not open what is being deleted.
      if (wipe) await this.#o.stateDirectory.wipeTask(t.id, this, t.task)
    } finally {
      this.#o.stateDirectory.unlockTask(t.id, this)
    }
  }

  /** Commits and closes every task (clean), or closes them without committing (dirty). */
  async shutdown(clean: boolean): Promise<void> {
    let first: unknown
    if (clean) {
      try {
        await this.commit(true)
      } catch (err) {
        first = err
        clean = false
      }
    }
    for (const t of [...this.#tasks.values()]) {
      try {
        await this.#closeTask(t, clean)
      } catch (err) {
        first ??= err
      }
    }
    for (const s of [...this.#standbys.values()]) {
      try {
        await this.#standbys.close(s.id.toString(), clean, null)
      } catch (err) {
        first ??= err
      }
    }
    this.#o.stateDirectory.unlockAllTasks(this)
    if (first !== undefined) throw first
  }
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))
