/**
 * The tuning hook (Kafka Streams' `rocksdb.config.setter`): called for every RocksDB instance
 * before it opens, with the options kstreams chose from the memory budget, which it may change;
 * `close` is called when the instance closes. Options that would change what the store means
 * (creation flags, comparator, merge operator, column families) are not offered.
 */
import type { ResolvedStreamsConfig } from '@kstreams/core'
import { StreamsError } from '@kstreams/core'
import type { NativeOpenOptions } from './rocks-binding.js'
import type { RocksDBMemoryAllocation } from './rocksdb-memory-budget.js'

/**
 * The RocksDB options a config setter may change (all read by `@nxtedition/rocksdb` at open).
 * @interface
 */
export type RocksDBOptions = Omit<NativeOpenOptions, 'createIfMissing' | 'errorIfExists'>

/**
 * Tunes each RocksDB instance before it opens (Kafka Streams' `rocksdb.config.setter`): changes the
 * options kstreams chose from the memory budget.
 */
export interface RocksDBConfigSetter {
  /** `storeName` is the store's name, or `<store>.<segmentStart>` for a window or session segment. */
  setConfig(storeName: string, options: RocksDBOptions, configs: ResolvedStreamsConfig): void
  /** Called when the instance closes, to release what setConfig made for it. */
  close?(storeName: string, options: RocksDBOptions): void
}

const TUNABLE_KEYS: ReadonlyArray<keyof RocksDBOptions> = [
  'cacheSize',
  'cacheIndexAndFilterBlocks',
  'memtableMemoryBudget',
  'compaction',
  'compression',
  'blockSize',
  'blockRestartInterval',
  'filterPolicy',
  'optimize',
  'parallelism',
  'walTTL',
  'walSizeLimit',
  'walCompression',
  'pipelinedWrite',
  'infoLogLevel'
]

/** Future StreamsConfig key (proposed), read when present. */
const CONFIG_SETTER = 'rocksdbConfigSetter'

/** The setter from the store options, else from the app configs, else none. */
export function resolveConfigSetter(
  fromOptions: RocksDBConfigSetter | undefined,
  appConfigs: ResolvedStreamsConfig
): RocksDBConfigSetter | undefined {
  const setter = fromOptions ?? (appConfigs as unknown as Record<string, unknown>)[CONFIG_SETTER]
  if (setter === undefined || setter === null) return undefined
  if (typeof (setter as RocksDBConfigSetter).setConfig !== 'function') {
    throw new StreamsError(
      'INVALID_CONFIG',
      'A RocksDB config setter must be an object with a setConfig(storeName, options, configs) method'
    )
  }
  return setter as RocksDBConfigSetter
}

/** The options kstreams opens a DB with for a memory allocation, before any setter runs. */
export function defaultRocksDBOptions(allocation: RocksDBMemoryAllocation): RocksDBOptions {
  return {
    cacheSize: allocation.blockCacheBytes,
    // Index and filter blocks are charged to the cache, so the cache bounds them too.
    cacheIndexAndFilterBlocks: true,
    // Only with a compaction style does the binding size memtables from memtableMemoryBudget.
    compaction: 'level',
    memtableMemoryBudget: Math.floor(allocation.writeBufferBytes / 1.5),
    optimize: 'point-lookup',
    // Kafka Streams' RocksDBStore writes no compression (its CompressionType.NO_COMPRESSION) and
    // no write-ahead log; the binding's defaults would ZSTD-compress both, the WAL on every write.
    compression: false,
    walCompression: false
  }
}

/** Runs the setter on a copy of the defaults and keeps only the tunable keys. */
export function applyConfigSetter(
  storeName: string,
  defaults: RocksDBOptions,
  setter: RocksDBConfigSetter | undefined,
  configs: ResolvedStreamsConfig
): RocksDBOptions {
  const options: RocksDBOptions = { ...defaults }
  if (setter === undefined) return options
  try {
    setter.setConfig(storeName, options, configs)
  } catch (err) {
    throw new StreamsError('INVALID_CONFIG', `The RocksDB config setter failed for store "${storeName}"`, { cause: err })
  }
  const tuned: Record<string, unknown> = {}
  for (const key of TUNABLE_KEYS) {
    if (options[key] !== undefined) tuned[key] = options[key]
  }
  return tuned as RocksDBOptions
}
