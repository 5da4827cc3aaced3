/**
 * Options shared by every RocksDB store supplier, and how a store resolves them at init against
 * the app configs: the memory budget (one per application instance by default), the config
 * setter, and the write-path knobs.
 */
import type { StateStoreContext } from '@kstreams/core'
import { StreamsError } from '@kstreams/core'
import { loadNativeDatabaseFactory } from './rocks-binding.js'
import type { NativeDatabaseFactory } from './rocks-binding.js'
import type { BackgroundWriter } from './background-writes.js'
import { resolveConfigSetter } from './rocksdb-config-setter.js'
import type { RocksDBConfigSetter } from './rocksdb-config-setter.js'
import { RocksDBMemoryBudget } from './rocksdb-memory-budget.js'
import type { RocksDBDatabaseOptions } from './rocksdb-database.js'

/** The options of every RocksDB store supplier: the memory budget, the config setter and the write path. */
export interface RocksDBStoreOptions {
  /** The budget this store's DBs draw from. Default: one shared by all stores of the app configs. */
  readonly memoryBudget?: RocksDBMemoryBudget
  /** Tunes each DB before it opens (Kafka's `rocksdb.config.setter`). */
  readonly configSetter?: RocksDBConfigSetter
  /**
   * How long opening waits while the DB's LOCK is held (by an instance of the same store that is
   * still closing, or by another process) before failing with STATE_DIR_LOCKED. Default 5000.
   */
  readonly lockTimeoutMs?: number
  /** Whether flush() (the commit) fsyncs RocksDB's write-ahead log. Default true. */
  readonly syncOnFlush?: boolean
  /**
   * Unflushed writes beyond this many bytes are written to RocksDB before the next flush, which
   * bounds the memory they hold. Default 8 MiB.
   */
  readonly maxPendingBytes?: number
  /** @internal Opens native DBs; tests inject failures through it. */
  readonly databaseFactory?: NativeDatabaseFactory
  /** @internal Writes large changelog batches off the stream thread; tests inject failures through it. */
  readonly backgroundWriter?: BackgroundWriter
}

/** The options with their defaults applied (budget and setter are resolved at init). */
export interface ResolvedRocksDBStoreOptions {
  readonly memoryBudget: RocksDBMemoryBudget | undefined
  readonly configSetter: RocksDBConfigSetter | undefined
  readonly lockTimeoutMs: number
  readonly syncOnFlush: boolean
  readonly maxPendingBytes: number
  readonly databaseFactory: NativeDatabaseFactory | undefined
  readonly backgroundWriter: BackgroundWriter | undefined
}

const DEFAULT_LOCK_TIMEOUT_MS = 5000
const DEFAULT_MAX_PENDING_BYTES = 8 * 1024 * 1024

/** Validates the options; throws ILLEGAL_ARGUMENT naming the option. */
export function resolveRocksDBStoreOptions(options: RocksDBStoreOptions = {}): ResolvedRocksDBStoreOptions {
  const nonNegative = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback
    if (!Number.isSafeInteger(value) || value < 0)
      throw new StreamsError('ILLEGAL_ARGUMENT', `RocksDB store option ${name} must be a non-negative integer, got ${String(value)}`)
    return value
  }
  if (options.memoryBudget !== undefined && !(options.memoryBudget instanceof RocksDBMemoryBudget)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'RocksDB store option memoryBudget must be a RocksDBMemoryBudget')
  }
  return {
    memoryBudget: options.memoryBudget,
    configSetter: options.configSetter,
    lockTimeoutMs: nonNegative('lockTimeoutMs', options.lockTimeoutMs, DEFAULT_LOCK_TIMEOUT_MS),
    syncOnFlush: options.syncOnFlush ?? true,
    maxPendingBytes: nonNegative('maxPendingBytes', options.maxPendingBytes, DEFAULT_MAX_PENDING_BYTES),
    databaseFactory: options.databaseFactory,
    backgroundWriter: options.backgroundWriter
  }
}

/** What opening one DB of a store needs, resolved against the store's context. */
export function databaseOptions(
  options: ResolvedRocksDBStoreOptions,
  context: StateStoreContext,
  name: string,
  path: string
): RocksDBDatabaseOptions {
  return {
    name,
    path,
    taskId: context.taskId.toString(),
    factory: options.databaseFactory ?? loadNativeDatabaseFactory(),
    budget: options.memoryBudget ?? RocksDBMemoryBudget.forConfig(context.appConfigs),
    configSetter: resolveConfigSetter(options.configSetter, context.appConfigs),
    appConfigs: context.appConfigs,
    lockTimeoutMs: options.lockTimeoutMs,
    backgroundWriter: options.backgroundWriter
  }
}
