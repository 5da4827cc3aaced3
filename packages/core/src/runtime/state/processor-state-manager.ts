/**
 * The state of one task: which stores it registered, the changelog partition of each logged
 * store, the offset each store has applied or written up to, and the task's `.checkpoint` file.
 * Every persistent, logged store is checkpointed, with OFFSET_UNKNOWN while it has no changelog
 * offset (a store that never wrote); in-memory stores restore from the beginning,
 * unless they come open from a recycled standby task, whose offsets this manager adopts. A
 * corrupted checkpoint means the task's local state cannot be trusted: TASK_CORRUPTED, and the
 * task is wiped and restored in full. Stores are flushed before every checkpoint (what it
 * covers is durable first). @internal
 */
import { join } from 'node:path'
import type { StateRestoreCallback, StateStore } from '../../state/state-store.js'
import type { TaskId } from '../../task-id.js'
import type { Logger } from '../../logger.js'
import { StreamsError } from '../../errors.js'
import { tpKey, type TopicPartition, type TopicPartitionOffset } from '../kafka/ports.js'
import { CheckpointCorruptedError, OFFSET_UNKNOWN, OffsetCheckpoint } from './offset-checkpoint.js'
import type { ChangelogRegistration } from '../changelog-reader.js'

export interface StoreMetadata {
  readonly store: StateStore
  readonly restore: StateRestoreCallback
  /** Undefined when the store is not logged. */
  readonly changelog: TopicPartition | undefined
  /** Offset of the last changelog record applied (restore) or written (processing). */
  offset: number | undefined
}

/** Checkpoint when changelog offsets moved by more than this since the last one (Kafka's rule). */
const CHECKPOINT_THRESHOLD = 10_000

export class ProcessorStateManager {
  readonly taskId: TaskId
  readonly #checkpoint: OffsetCheckpoint
  readonly #stores = new Map<string, StoreMetadata>()
  readonly #logger: Logger
  #checkpointed = new Map<string, number>()

  constructor(taskId: TaskId, taskDir: string, logger: Logger) {
    this.taskId = taskId
    this.#checkpoint = new OffsetCheckpoint(join(taskDir, '.checkpoint'))
    this.#logger = logger
  }

  get stores(): ReadonlyMap<string, StoreMetadata> {
    return this.#stores
  }

  /**
   * The sum of the logged stores' changelog positions (the next offset to read: 0 before any
   * record), the task's offset sum in a subscription (Kafka Streams' changelogOffsets summed);
   * undefined when no store is logged.
   */
  changelogOffsetSum(): number | undefined {
    let sum: number | undefined
    for (const meta of this.#stores.values()) {
      if (meta.changelog !== undefined) sum = (sum ?? 0) + (meta.offset === undefined ? 0 : meta.offset + 1)
    }
    return sum
  }

  register(store: StateStore, restore: StateRestoreCallback, changelog: TopicPartition | undefined): void {
    if (this.#stores.has(store.name)) {
      throw new StreamsError('DUPLICATE_STORE', `Store ${store.name} has already been registered in task ${this.taskId.toString()}`)
    }
    this.#stores.set(store.name, { store, restore, changelog, offset: undefined })
  }

  /**
   * Loads the checkpoint into the persistent logged stores. A corrupted file is TASK_CORRUPTED:
   * the stores may hold anything up to an unknown offset, so restoring over them could keep keys
   * whose tombstones the changelog no longer has; the caller wipes the task and restores it.
   */
  async loadCheckpoint(eos?: { readonly dirWasEmpty: boolean }): Promise<void> {
    let offsets: Map<string, TopicPartitionOffset>
    try {
      offsets = await this.#checkpoint.read()
    } catch (err) {
      if (!(err instanceof CheckpointCorruptedError)) throw err
      throw new StreamsError('TASK_CORRUPTED', `Task ${this.taskId.toString()}: ${err.message}`, {
        cause: err,
        taskId: this.taskId.toString()
      })
    }
    for (const meta of this.#stores.values()) {
      if (meta.changelog === undefined || !meta.store.persistent) continue
      const entry = offsets.get(tpKey(meta.changelog.topic, meta.changelog.partition))
      // OFFSET_UNKNOWN: checkpointed while the store had no changelog offset (it never wrote nor
      // restored a record); it restores from the beginning, and it is no corruption.
      meta.offset = entry === undefined || entry.offset === OFFSET_UNKNOWN ? undefined : entry.offset
      if (entry === undefined && eos !== undefined && !eos.dirWasEmpty) {
        // Under exactly-once a running task writes no checkpoint: state without one may hold
        // writes of a transaction that was aborted (Kafka's TaskCorruptedException).
        throw new StreamsError(
          'TASK_CORRUPTED',
          `Task ${this.taskId.toString()}: store ${meta.store.name} has local state but no checkpoint (exactly_once_v2: it may hold uncommitted writes)`,
          { taskId: this.taskId.toString() }
        )
      }
      if (meta.offset === undefined)
        this.#logger.info(
          `Task ${this.taskId.toString()}: no checkpointed offset for store ${meta.store.name}; restoring it from the beginning of its changelog`
        )
    }
    // Under exactly-once the checkpoint is valid once: a crash from now on leaves none (and a
    // standby, whose stores hold committed records only, checkpoints again once far enough).
    if (eos !== undefined) await this.#checkpoint.delete()
    this.#checkpointed = eos === undefined ? this.#currentOffsets() : new Map()
  }

  /**
   * Continues where the state manager of a standby task left off, whose open stores this task
   * took over (recycled): each registered logged store takes the offset the standby applied up
   * to, so its restore reads only the tail of the changelog. Call after the stores registered.
   */
  adoptOffsets(
    standby: ReadonlyMap<string, { readonly changelog: TopicPartition | undefined; readonly offset: number | undefined }>
  ): void {
    for (const [name, meta] of this.#stores) {
      const from = standby.get(name)
      if (meta.changelog === undefined || from?.offset === undefined || from.changelog === undefined) continue
      if (tpKey(from.changelog.topic, from.changelog.partition) !== tpKey(meta.changelog.topic, meta.changelog.partition)) continue
      meta.offset = from.offset
    }
  }

  /** What the changelog reader must restore: every logged store from its offset + 1. */
  restoreRegistrations(): ChangelogRegistration[] {
    const registrations: ChangelogRegistration[] = []
    for (const meta of this.#stores.values()) {
      if (meta.changelog === undefined) continue
      registrations.push({
        partition: meta.changelog,
        storeName: meta.store.name,
        taskId: this.taskId,
        startOffset: meta.offset === undefined ? undefined : meta.offset + 1,
        apply: meta.restore,
        onApplied: last => {
          meta.offset = last
        }
      })
    }
    return registrations
  }

  /** Records the offsets the task's changelog writes reached (after the producer acknowledged them). */
  updateChangelogOffsets(acked: (topic: string, partition: number) => number | undefined): void {
    for (const meta of this.#stores.values()) {
      if (meta.changelog === undefined) continue
      const offset = acked(meta.changelog.topic, meta.changelog.partition)
      if (offset !== undefined && (meta.offset === undefined || offset > meta.offset)) meta.offset = offset
    }
  }

  /** Flushes every open store (a persistent store makes what it holds durable). */
  flush(): void {
    for (const meta of this.#stores.values()) if (meta.store.isOpen()) meta.store.flush()
  }

  /**
   * Writes the checkpoint when enforced, or when offsets moved by more than 10,000 records; the
   * stores are flushed first (Kafka's maybeCheckpoint), so restored and standby writes are
   * durable before a checkpoint says they are there.
   */
  async maybeCheckpoint(enforce: boolean): Promise<void> {
    const current = this.#currentOffsets()
    if (!enforce) {
      let moved = 0
      for (const [key, offset] of current) moved += offset - (this.#checkpointed.get(key) ?? -1)
      if (moved <= CHECKPOINT_THRESHOLD) return
    }
    this.flush()
    const entries: TopicPartitionOffset[] = []
    for (const meta of this.#stores.values()) {
      // Every logged persistent store, OFFSET_UNKNOWN when it has no offset yet (Kafka's
      // checkpoint()): under exactly-once a store missing from the checkpoint is corrupted.
      if (meta.changelog === undefined || !meta.store.persistent) continue
      entries.push({ ...meta.changelog, offset: meta.offset ?? OFFSET_UNKNOWN })
    }
    await this.#checkpoint.write(entries)
    this.#checkpointed = current
  }

  async deleteCheckpoint(): Promise<void> {
    await this.#checkpoint.delete()
  }

  #currentOffsets(): Map<string, number> {
    const offsets = new Map<string, number>()
    for (const meta of this.#stores.values()) {
      if (meta.changelog !== undefined && meta.offset !== undefined)
        offsets.set(tpKey(meta.changelog.topic, meta.changelog.partition), meta.offset)
    }
    return offsets
  }

  /** Closes every store; reports the first failure after trying all. */
  close(): void {
    let first: unknown
    for (const meta of this.#stores.values()) {
      try {
        if (meta.store.isOpen()) meta.store.close()
      } catch (err) {
        first ??= err
      }
    }
    if (first !== undefined) throw first
  }
}
