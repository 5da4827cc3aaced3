/**
 * One open RocksDB instance (Kafka's RocksDBStore DB accessor): opens it in its directory with
 * the budget's allowance and the user's config setter, waits out a LOCK still held by an instance
 * of the same store that is closing, and turns every binding error into a RocksDBStoreError
 * naming the store and path. Reads, batch writes and iterators are synchronous.
 * @internal
 */
import type { ResolvedStreamsConfig } from '@kstreams/core'
import { setTimeout as sleep } from 'node:timers/promises'
import type { NativeChainedBatch, NativeDatabase, NativeDatabaseFactory, NativeIterator, NativeIteratorOptions } from './rocks-binding.js'
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
}

/** Delays between open attempts while the DB is locked: short first, then capped. */
const FIRST_RETRY_MS = 5
const MAX_RETRY_MS = 100

export class RocksDBDatabase {
  readonly name: string
  readonly path: string
  readonly #db: NativeDatabase
  readonly #allocation: RocksDBMemoryAllocation
  readonly #setter: RocksDBConfigSetter | undefined
  readonly #options: RocksDBOptions
  readonly #taskId: string | undefined
  #closing: Promise<void> | undefined

  private constructor(options: RocksDBDatabaseOptions, db: NativeDatabase, allocation: RocksDBMemoryAllocation, tuned: RocksDBOptions) {
    this.name = options.name
    this.path = options.path
    this.#db = db
    this.#allocation = allocation
    this.#setter = options.configSetter
    this.#options = tuned
    this.#taskId = options.taskId
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
    try {
      return this.#db._getManySync([key])[0]
    } catch (err) {
      throw this.error(err, 'get')
    }
  }

  /** A native batch; fill it, then `write` it. */
  batch(): NativeChainedBatch {
    try {
      return this.#db.batch()
    } catch (err) {
      throw this.error(err, 'write')
    }
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
    try {
      const estimate = Number(this.#db.getProperty('rocksdb.estimate-num-keys'))
      return Number.isFinite(estimate) && estimate > 0 ? estimate : 0
    } catch (err) {
      throw this.error(err, 'approximateNumEntries')
    }
  }

  /** Closes the DB (its native iterators with it); resolves once its LOCK is released. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#db.close().then(
      () => {
        this.#released()
      },
      (err: unknown) => {
        this.#released()
        throw toStoreError(err, this.name, this.path, 'close', this.#taskId)
      }
    )
    return this.#closing
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
