/**
 * Restores stores from their changelog partitions: each registered partition is read from its
 * start offset (checkpoint + 1, or the beginning) up to the end offset captured when it was
 * registered - never ended by an idle timeout - in large batches applied through the store's
 * restore callback. Owns the restore reader's assignment and the restore progress of every
 * partition; reports restore progress to the StateRestoreListener and standby progress to the
 * StandbyUpdateListener. A position the changelog no longer has (truncated below it by an
 * unclean leader election, or deleted up to past it) makes the partition corrupted, as Kafka's
 * restore consumer without an offset reset does: it is dropped and reported (`takeCorrupted`)
 * for its task to be wiped and restored, instead of waiting for an end that never comes. @internal
 */
import { StreamsError } from '../errors.js'
import type { StateRestoreCallback } from '../state/state-store.js'
import { tpKey, type AdminPort, type FetchedBatch, type FetchedRecord, type TopicPartition } from './kafka/ports.js'
import type { PartitionReader } from './consumer/consumer-api.js'
import { retrying } from './retrying.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import type { StandbySuspendReason, StandbyUpdateListener } from './standby-update-listener.js'
import type { TaskId } from '../task-id.js'

export interface ChangelogRegistration {
  readonly partition: TopicPartition
  readonly storeName: string
  /** Checkpointed offset + 1, or undefined for the beginning. */
  readonly startOffset: number | undefined
  readonly apply: StateRestoreCallback
  /** Called with the offset of the last applied record after each batch. */
  readonly onApplied?: (lastOffset: number) => void
  /** A standby keeps reading with no end; it never completes. */
  readonly standby?: boolean
  /** The task whose store this is (reported in progress and to the standby listener). */
  readonly taskId?: TaskId
  /** Counts the records applied (the task's restore or update metrics). */
  readonly applied?: { record: (records: number) => void }
  /**
   * A source topic serving as the changelog (reuse.ktable.source.topics) is restored only up to
   * this offset, the group's committed offset: what follows is processed, not restored. A store
   * already past it (at-least-once: flushed before the commit) has nothing to restore. A standby
   * applies nothing beyond it either, and waits at it until `updateStandbyLimits` moves it on
   * (Kafka's limit offsets: a store ahead of the committed offset would see its records twice).
   */
  readonly endOffsetLimit?: number
}

interface Restoring {
  readonly reg: ChangelogRegistration
  /** Active: the end captured at registration. Standby: the limit (committed offset) or none. */
  endOffset: number
  position: number
  restored: number
  readonly startedAt: number
  /** The changelog end as last seen: captured at registration, then each batch's high watermark. */
  currentEnd: number
  /** The offset of the last record the store applied: the checkpoint at first, -1 for none. */
  lastApplied: number
}

/** Where the restore of one changelog partition stands. */
export interface RestoreProgress {
  /** The changelog partition. */
  readonly partition: TopicPartition
  /** The store it restores. */
  readonly storeName: string
  /** The store's task; undefined when it has none. */
  readonly taskId: TaskId | undefined
  /** The next offset to apply. */
  readonly position: number
  /** The end captured when the restore started. */
  readonly endOffset: number
  /** Records applied so far. */
  readonly restored: number
  /** Records left to the end. */
  readonly remaining: number
  /** Records applied per second since the restore started. */
  readonly recordsPerSecond: number
  /** Estimated time to the end at the current rate; undefined before the first batch. */
  readonly etaMs: number | undefined
}

/** Where a standby store stands against its changelog. */
export interface StandbyProgress {
  /** The changelog partition. */
  readonly partition: TopicPartition
  /** The standby store it updates. */
  readonly storeName: string
  /** The standby task; undefined when it has none. */
  readonly taskId: TaskId | undefined
  /** The next offset to apply. */
  readonly position: number
  /** The changelog's end as last seen. */
  readonly currentEndOffset: number
  /** Records behind the end (the lag a failover to this standby would restore). */
  readonly lag: number
  /** Records applied since the standby started. */
  readonly updated: number
  /** Records applied per second since the standby started. */
  readonly recordsPerSecond: number
}

export interface ChangelogReaderOptions {
  readonly reader: PartitionReader
  readonly admin: Pick<AdminPort, 'endOffsets' | 'beginningOffsets'>
  readonly listener?: StateRestoreListener
  readonly standbyListener?: StandbyUpdateListener
  /** Told after each restore step how many records it applied (the thread's restore metrics). */
  readonly onStep?: (records: number) => void
  /** Milliseconds now (for restore rates); default Date.now. */
  readonly now?: () => number
  /** How long the offset lookups of a registration are retried when they fail transiently (task.timeout.ms); default 0. */
  readonly retryTimeoutMs?: number
  readonly retryBackoffMs?: number
}

/** A changelog partition whose restore or standby position the changelog no longer has. */
export interface CorruptedChangelog {
  readonly partition: TopicPartition
  readonly storeName: string
  readonly standby: boolean
  readonly reason: string
}

export class ChangelogReader {
  readonly #options: ChangelogReaderOptions
  readonly #restoring = new Map<string, Restoring>()
  #corrupted: CorruptedChangelog[] = []
  /** The entries assigned to the reader. */
  #reading: Restoring[] = []
  #assignmentChanged = false

  constructor(options: ChangelogReaderOptions) {
    this.#options = options
  }

  /** Registers partitions to restore; captures their end offsets now. Returns those already complete. */
  async register(registrations: readonly ChangelogRegistration[]): Promise<TopicPartition[]> {
    if (registrations.length === 0) return []
    const partitions = registrations.map(r => r.partition)
    const [ends, begins] = await retrying(
      async () => await Promise.all([this.#options.admin.endOffsets(partitions), this.#options.admin.beginningOffsets(partitions)]),
      {
        timeoutMs: this.#options.retryTimeoutMs ?? 0,
        backoffMs: this.#options.retryBackoffMs ?? 100,
        clock: { milliseconds: () => this.#now() }
      }
    )
    const complete: TopicPartition[] = []
    for (const reg of registrations) {
      const key = tpKey(reg.partition.topic, reg.partition.partition)
      const endOffset = ends.get(key)
      if (endOffset === undefined)
        throw new StreamsError('UNKNOWN_TOPIC', `Changelog partition ${key} of store ${reg.storeName} does not exist`)
      const begin = begins.get(key) ?? 0
      if (reg.startOffset !== undefined && reg.startOffset < begin) {
        // The records between the checkpoint and the log start were deleted before this store
        // saw them (Kafka: OffsetOutOfRange -> TaskCorruptedException): its state has a gap.
        throw new StreamsError(
          'TASK_CORRUPTED',
          `Checkpointed offset ${reg.startOffset - 1} of ${reg.standby === true ? 'standby ' : ''}store ${reg.storeName} is below the log-start offset ${begin} of changelog ${key} (records it never applied were deleted)`,
          { taskId: reg.taskId?.toString() }
        )
      }
      const start = reg.startOffset ?? begin
      if (reg.standby === true) {
        if (reg.startOffset !== undefined && reg.startOffset > endOffset) {
          throw new StreamsError(
            'TASK_CORRUPTED',
            `Checkpointed offset ${reg.startOffset - 1} of standby store ${reg.storeName} is beyond the end ${endOffset} of changelog ${key}`
          )
        }
        this.#restoring.set(key, {
          reg,
          endOffset: reg.endOffsetLimit ?? Number.POSITIVE_INFINITY,
          position: start,
          restored: 0,
          startedAt: this.#now(),
          currentEnd: endOffset,
          lastApplied: (reg.startOffset ?? 0) - 1
        })
        this.#assignmentChanged = true
        this.#options.standbyListener?.onUpdateStart?.(reg.partition, reg.storeName, start)
        continue
      }
      if (reg.startOffset !== undefined && reg.startOffset > endOffset) {
        throw new StreamsError(
          'TASK_CORRUPTED',
          `Checkpointed offset ${reg.startOffset - 1} of store ${reg.storeName} is beyond the end ${endOffset} of changelog ${key} (truncated or recreated topic)`
        )
      }
      const restoreEnd = reg.endOffsetLimit === undefined ? endOffset : Math.min(endOffset, reg.endOffsetLimit)
      this.#options.listener?.onRestoreStart?.(reg.partition, reg.storeName, start, restoreEnd)
      const entry: Restoring = {
        reg,
        endOffset: restoreEnd,
        position: start,
        restored: 0,
        startedAt: this.#now(),
        currentEnd: endOffset,
        lastApplied: (reg.startOffset ?? 0) - 1
      }
      if (start >= restoreEnd) {
        this.#options.listener?.onRestoreEnd?.(reg.partition, reg.storeName, 0)
        complete.push(reg.partition)
        continue
      }
      this.#restoring.set(key, entry)
      this.#assignmentChanged = true
    }
    return complete
  }

  /**
   * Stops reading partitions: their task moved away, or (`PROMOTED`) a standby became the active
   * task here. The reason is what the standby listener hears; null (shutdown) tells it nothing,
   * as Kafka Streams says nothing of standbys when it closes.
   */
  unregister(partitions: readonly TopicPartition[], standbyReason: StandbySuspendReason | null = 'MIGRATED'): void {
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      const entry = this.#restoring.get(key)
      if (entry === undefined) continue
      this.#restoring.delete(key)
      this.#assignmentChanged = true
      if (entry.reg.standby !== true) this.#options.listener?.onRestoreSuspended?.(p, entry.reg.storeName, entry.restored)
      else if (standbyReason !== null)
        this.#options.standbyListener?.onUpdateSuspended?.(p, entry.reg.storeName, entry.lastApplied, entry.currentEnd, standbyReason)
    }
  }

  /** Partitions still restoring (standbys not counted). */
  get restoringCount(): number {
    return [...this.#restoring.values()].filter(e => e.reg.standby !== true).length
  }

  /** Partitions the reader follows (restoring and standby). */
  get readingCount(): number {
    return this.#restoring.size
  }

  /** Distinct active tasks with a store still restoring. */
  restoringActiveTasks(): number {
    return this.#distinctTasks(false)
  }

  /** Distinct standby tasks being updated. */
  updatingStandbyTasks(): number {
    return this.#distinctTasks(true)
  }

  #distinctTasks(standby: boolean): number {
    const ids = new Set<string>()
    for (const e of this.#restoring.values())
      if ((e.reg.standby === true) === standby) ids.add(e.reg.taskId?.toString() ?? tpKey(e.reg.partition.topic, e.reg.partition.partition))
    return ids.size
  }

  /** Progress of every partition being restored (standbys not included): rate and ETA. */
  progress(): RestoreProgress[] {
    const now = this.#now()
    return [...this.#restoring.values()]
      .filter(e => e.reg.standby !== true)
      .map(e => {
        const seconds = Math.max((now - e.startedAt) / 1000, 0.001)
        const rate = e.restored / seconds
        const remaining = Math.max(0, e.endOffset - e.position)
        return {
          partition: e.reg.partition,
          storeName: e.reg.storeName,
          taskId: e.reg.taskId,
          position: e.position,
          endOffset: e.endOffset,
          restored: e.restored,
          remaining,
          recordsPerSecond: rate,
          etaMs: rate > 0 ? Math.round((remaining / rate) * 1000) : undefined
        }
      })
  }

  /** Progress of every standby store: position, the changelog end last seen, lag and rate. */
  standbyProgress(): StandbyProgress[] {
    const now = this.#now()
    return [...this.#restoring.values()]
      .filter(e => e.reg.standby === true)
      .map(e => ({
        partition: e.reg.partition,
        storeName: e.reg.storeName,
        taskId: e.reg.taskId,
        position: e.position,
        currentEndOffset: e.currentEnd,
        lag: Math.max(0, e.currentEnd - e.position),
        updated: e.restored,
        recordsPerSecond: e.restored / Math.max((now - e.startedAt) / 1000, 0.001)
      }))
  }

  #now(): number {
    return (this.#options.now ?? Date.now)()
  }

  /** One restore step: fetches and applies what is available; returns the partitions that completed. */
  async restoreStep(maxWaitMs: number): Promise<TopicPartition[]> {
    if (this.#assignmentChanged) {
      // A standby at its limit is not read until the limit moves.
      this.#reading = [...this.#restoring.values()].filter(e => e.position < e.endOffset)
      this.#options.reader.assign(
        this.#reading.map(e => ({
          ...e.reg.partition,
          offset: e.position,
          // A restore (or a limited standby) reads no further than its end.
          ...(Number.isFinite(e.endOffset) ? { endOffset: e.endOffset } : {})
        }))
      )
      this.#assignmentChanged = false
    }
    if (this.#reading.length === 0) {
      // Nothing to read (e.g. standbys handed over, new ones not registered yet, or all held at
      // their limit): wait instead of returning at once, or a loop calling this spins on
      // microtasks and starves the event loop (no I/O, no timers: the rebalance that would
      // register new work can never finish).
      await new Promise(resolve => setTimeout(resolve, Math.min(maxWaitMs, 50)))
      return []
    }
    const polled = new Map(this.#restoring)
    const batches = await this.#options.reader.poll(maxWaitMs)
    const completed: TopicPartition[] = []
    let applied = 0
    for (const batch of batches) {
      const key = tpKey(batch.topic, batch.partition)
      const entry = this.#restoring.get(key)
      // Registered again while the fetch was in flight: the batch was read from the old registration's position.
      if (entry === undefined || entry !== polled.get(key)) continue
      const lost = this.#lostPosition(entry, batch)
      if (lost !== undefined) {
        this.unregister([entry.reg.partition])
        this.#corrupted.push({
          partition: entry.reg.partition,
          storeName: entry.reg.storeName,
          standby: entry.reg.standby === true,
          reason: lost
        })
        continue
      }
      const before = entry.restored
      const done = this.#apply(entry, batch)
      applied += entry.restored - before
      // A standby never completes (at its limit it only waits).
      if (done && entry.reg.standby !== true) {
        this.#restoring.delete(key)
        this.#assignmentChanged = true
        this.#options.listener?.onRestoreEnd?.(entry.reg.partition, entry.reg.storeName, entry.restored)
        completed.push(entry.reg.partition)
      }
    }
    this.#options.onStep?.(applied)
    return completed
  }

  /**
   * Partitions found corrupted since the last call (see the class comment); their tasks must be
   * wiped and restored (registered again), or they are read no more.
   */
  takeCorrupted(): CorruptedChangelog[] {
    const corrupted = this.#corrupted
    this.#corrupted = []
    return corrupted
  }

  /**
   * Why the reader cannot go on from the entry's position, or undefined when it can: the reader
   * was reset below it (the changelog now ends before it), or the log start moved past it with
   * the records between unread.
   */
  #lostPosition(entry: Restoring, batch: FetchedBatch): string | undefined {
    const where = `changelog ${tpKey(batch.topic, batch.partition)} of store ${entry.reg.storeName}`
    if (batch.nextOffset < entry.position) {
      return `${where} was truncated below the position ${entry.position} (it now ends at ${batch.highWatermark}, reading starts over at ${batch.nextOffset}): the records the store applied beyond it are gone`
    }
    const first = batch.records[0]?.offset ?? batch.nextOffset
    if (batch.logStartOffset > entry.position && first > entry.position) {
      return `the records of ${where} from the position ${entry.position} to its log start ${batch.logStartOffset} were deleted before the store applied them`
    }
    return undefined
  }

  /** Applies the records below the end offset; returns whether the partition is complete. */
  #apply(entry: Restoring, batch: FetchedBatch): boolean {
    // A record without a key cannot be restored (a source topic serving as changelog may hold some).
    const records = applicable(batch.records, entry.position, entry.endOffset)
    entry.currentEnd = Math.max(entry.currentEnd, batch.highWatermark)
    if (records.length > 0) {
      const { reg } = entry
      reg.apply(records)
      const last = records[records.length - 1]!.offset
      entry.restored += records.length
      entry.lastApplied = last
      reg.onApplied?.(last)
      reg.applied?.record(records.length)
      if (reg.standby !== true) this.#options.listener?.onBatchRestored?.(reg.partition, reg.storeName, last, records.length)
      else if (reg.taskId !== undefined)
        this.#options.standbyListener?.onBatchLoaded?.(reg.partition, reg.storeName, reg.taskId, last, records.length, entry.currentEnd)
    }
    entry.position = Math.max(entry.position, Math.min(batch.nextOffset, entry.endOffset))
    // A standby that read past its limit is assigned again at its position (or held there).
    if (entry.reg.standby === true && batch.nextOffset > entry.endOffset) this.#assignmentChanged = true
    return entry.position >= entry.endOffset
  }

  /** Standby partitions waiting at their limit (see `endOffsetLimit`). */
  heldStandbys(): TopicPartition[] {
    return [...this.#restoring.values()].filter(e => e.reg.standby === true && e.position >= e.endOffset).map(e => e.reg.partition)
  }

  /** Moves the limits of limited standby partitions forward (the group committed further). */
  updateStandbyLimits(limits: ReadonlyMap<string, number>): void {
    for (const [key, limit] of limits) {
      const entry = this.#restoring.get(key)
      if (entry === undefined || entry.reg.standby !== true || entry.reg.endOffsetLimit === undefined || limit <= entry.endOffset) continue
      entry.endOffset = limit
      this.#assignmentChanged = true
    }
  }

  async close(): Promise<void> {
    this.#restoring.clear()
    this.#corrupted = []
    await this.#options.reader.close()
  }
}

/**
 * The records in [from, to) that have a key, as the restore callbacks take them: the fetched
 * records themselves, and the batch's own array when all of them qualify (the usual case).
 */
function applicable(records: readonly FetchedRecord[], from: number, to: number): ReadonlyArray<FetchedRecord & { readonly key: Buffer }> {
  const all =
    records.length === 0 || (records[0]!.offset >= from && records[records.length - 1]!.offset < to && records.every(r => r.key !== null))
  return (all ? records : records.filter(r => r.offset >= from && r.offset < to && r.key !== null)) as ReadonlyArray<
    FetchedRecord & { readonly key: Buffer }
  >
}
