/**
 * One open RocksDB instance (Kafka's RocksDBStore DB accessor): opens it in its directory with
 * the budget's allowance and the user's config setter, waits out a LOCK still held by an instance
 * of the same store that is closing, and turns every binding error into a RocksDBStoreError
 * naming the store and path. Reads, batch writes and iterators are synchronous; large changelog
 * batches may be written on the background writer thread (background-writes.ts), which every other
 * use of the DB waits for first.
 * @internal
 */
import type { ResolvedStreamsConfig } from '@kstreams/core'
import { setTimeout as sleep } from 'node:timers/promises'
import type { NativeChainedBatch, NativeDatabase, NativeDatabaseFactory, NativeIterator, NativeIteratorOptions } from './rocks-binding.js'
import { BackgroundWrites, defaultBackgroundWriter } from './background-writes.js'
import type { BackgroundWriter, ChangelogEntry } from './background-writes.js'
import { applyConfigSetter, defaultRocksDBOptions } from './rocksdb-config-setter.js'
import type { RocksDBConfigSetter, RocksDBOptions } from './rocksdb-config-setter.js'
import type { RocksDBMemoryAllocation, RocksDBMemoryBudget } from './rocksdb-memory-budget.js'
import { isLockError, toStoreError } from './rocksdb-store-error.js'
import type { RocksDBStoreError } from './rocksdb-store-error.js'

export interface RocksDBDatabaseOptions {
  /** The name errors and the config setter see (`<store>` or `<store>.<segmentStart>`). */
  readonly name: string
  /** The DB directory; it must exist. */
  readonly path: string
  readonly taskId: string | undefined
  readonly factory: NativeDatabaseFactory
  readonly budget: RocksDBMemoryBudget
  readonly configSetter: RocksDBConfigSetter | undefined
  readonly appConfigs: ResolvedStreamsConfig
  /** How long to retry while another handle holds the DB's LOCK file. */
  readonly lockTimeoutMs: number
  /** The thread large changelog batches are written on; default the process's. */
  readonly backgroundWriter?: BackgroundWriter
}

/** Delays between open attempts while the DB is locked: short first, then capped. */
const FIRST_RETRY_MS = 5
const MAX_RETRY_MS = 100
/** Changelog batches at least this long go to the background writer; shorter ones are written here. */
const BACKGROUND_MIN_RECORDS = 64

export class RocksDBDatabase {
  readonly name: string
  readonly path: string
  readonly #db: NativeDatabase
  readonly #allocation: RocksDBMemoryAllocation
  readonly #setter: RocksDBConfigSetter | undefined
  readonly #options: RocksDBOptions
  readonly #taskId: string | undefined
  readonly #writer: BackgroundWriter | undefined
  #closing: Promise<void> | undefined
  /** Created at the first large changelog batch; null when the native DB has no handle to share. */
  #background: BackgroundWrites | null | undefined

  private constructor(options: RocksDBDatabaseOptions, db: NativeDatabase, allocation: RocksDBMemoryAllocation, tuned: RocksDBOptions) {
    this.name = options.name
    this.path = options.path
    this.#db = db
    this.#allocation = allocation
    this.#setter = options.configSetter
    this.#options = tuned
    this.#taskId = options.taskId
    this.#writer = options.backgroundWriter
  }

  /** Opens the DB; rejects with STORE_CORRUPTED, STATE_DIR_LOCKED or STORE_IO_ERROR. */
  static async open(options: RocksDBDatabaseOptions): Promise<RocksDBDatabase> {
    const allocation = options.budget.allocate()
    let tuned: RocksDBOptions
    try {
      tuned = applyConfigSetter(options.name, defaultRocksDBOptions(allocation), options.configSetter, options.appConfigs)
    } catch (err) {
      allocation.release()
      throw err
    }
    try {
      const db = await openWithLockRetry(options, tuned)
      return new RocksDBDatabase(options, db, allocation, tuned)
    } catch (err) {
      allocation.release()
      options.configSetter?.close?.(options.name, tuned)
      throw toStoreError(err, options.name, options.path, 'open', options.taskId)
    }
  }

  /** The value of `key`, or undefined. */
  get(key: Buffer): Buffer | undefined {
    this.settle()
    try {
      return this.#db._getManySync([key])[0]
    } catch (err) {
      throw this.error(err, 'get')
    }
  }

  /** A native batch; fill it, then `write` it. */
  batch(): NativeChainedBatch {
    this.settle()
    try {
      return this.#db.batch()
    } catch (err) {
      throw this.error(err, 'write')
    }
  }

  /**
   * Writes changelog records (a null value deletes) without syncing the WAL: a large batch on the
   * background writer thread, a small one here. Throws what an earlier background batch failed with.
   */
  writeChangelog(records: ReadonlyArray<ChangelogEntry>): void {
    if (records.length >= BACKGROUND_MIN_RECORDS) {
      const background = (this.#background ??= backgroundWrites(this.#db, this.#writer))
      if (background !== null) {
        try {
          background.write(records)
        } catch (err) {
          throw this.error(err, 'restore')
        }
        return
      }
    }
    const batch = this.batch()
    try {
      for (const record of records) {
        if (record.value === null || record.value === undefined) batch._del(record.key)
        else batch._put(record.key, record.value)
      }
    } catch (err) {
      batch._closeSync()
      throw this.error(err, 'restore')
    }
    this.write(batch, false)
  }

  /** Writes and closes `batch`; with `sync` the WAL is fsynced first. */
  write(batch: NativeChainedBatch, sync: boolean): void {
    try {
      batch._writeSync({ sync })
    } catch (err) {
      throw this.error(err, 'write')
    } finally {
      batch._closeSync()
    }
  }

  /** A native iterator over a snapshot of the DB as it is now. */
  iterator(options: NativeIteratorOptions): NativeIterator {
    this.settle()
    try {
      return this.#db.iterator(options)
    } catch (err) {
      throw this.error(err, 'iterator')
    }
  }

  /**
   * Deletes every key in [from, to) with one range tombstone, synchronously. An error shows up
   * on the next tick, so it goes to `onError`.
   */
  deleteRange(from: Buffer, to: Buffer, onError: (err: RocksDBStoreError) => void): void {
    this.settle()
    try {
      this.#db._clear({ gte: from, lt: to, limit: -1 }, err => {
        if (err !== null && err !== undefined) onError(this.error(err, 'deleteRange'))
      })
    } catch (err) {
      throw this.error(err, 'deleteRange')
    }
  }

  /** RocksDB's estimate of the number of keys (overwrites and deletes make it approximate). */
  estimateNumKeys(): number {
    this.settle()
    try {
      const estimate = Number(this.#db.getProperty('rocksdb.estimate-num-keys'))
      return Number.isFinite(estimate) && estimate > 0 ? estimate : 0
    } catch (err) {
      throw this.error(err, 'approximateNumEntries')
    }
  }

  /** Closes the DB (its native iterators with it); resolves once its LOCK is released. Idempotent. */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing
    let unsettled: unknown
    try {
      this.settle()
    } catch (err) {
      unsettled = err
    }
    this.#closing = this.#db.close().then(
      () => {
        this.#released()
        if (unsettled !== undefined) throw unsettled
      },
      (err: unknown) => {
        this.#released()
        throw toStoreError(err, this.name, this.path, 'close', this.#taskId)
      }
    )
    return this.#closing
  }

  /**
   * Waits until every batch written in the background is applied; throws (for good) what one of
   * them failed with. Every other use of the DB does this first.
   */
  settle(): void {
    if (this.#background?.pending !== true) return
    try {
      this.#background.settle()
    } catch (err) {
      throw this.error(err, 'restore')
    }
  }

  /** Wraps a binding error of this DB. */
  error(err: unknown, operation: string): RocksDBStoreError {
    return toStoreError(err, this.name, this.path, operation, this.#taskId)
  }

  #released(): void {
    this.#allocation.release()
    this.#setter?.close?.(this.name, this.#options)
  }
}

/** Background writes of the DB, or null when the native DB has no handle another thread can use. */
function backgroundWrites(db: NativeDatabase, writer: BackgroundWriter | undefined): BackgroundWrites | null {
  const handle = db.handle
  return typeof handle === 'bigint' ? new BackgroundWrites(handle, writer ?? defaultBackgroundWriter()) : null
}

async function openWithLockRetry(options: RocksDBDatabaseOptions, tuned: RocksDBOptions): Promise<NativeDatabase> {
  let waited = 0
  let delay = FIRST_RETRY_MS
  for (;;) {
    const db = options.factory(options.path)
    try {
      await db.open({ ...tuned, createIfMissing: true, errorIfExists: false })
      return db
    } catch (err) {
      if (!isLockError(err) || waited >= options.lockTimeoutMs) throw err
    }
    const pause = Math.min(delay, options.lockTimeoutMs - waited)
    await sleep(pause)
    waited += pause
    delay = Math.min(delay * 2, MAX_RETRY_MS)
  }
}
