/**
 * The RocksDB store suppliers (the persistent half of Kafka's `Stores`): use them wherever the
 * in-memory suppliers go, e.g. `Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('counts'))`.
 * Each takes optional RocksDBStoreOptions: a shared memory budget, a config setter, and the
 * write-path knobs.
 */
import type {
  KeyValueBytesStoreSupplier,
  SessionBytesStoreSupplier,
  VersionedBytesStoreSupplier,
  WindowBytesStoreSupplier
} from '@kstreams/core'
import { RocksDBKeyValueBytesStoreSupplier } from './rocksdb-key-value-bytes-store-supplier.js'
import { RocksDBSessionBytesStoreSupplier } from './rocksdb-session-bytes-store-supplier.js'
import type { RocksDBSessionStoreSupplierOptions } from './rocksdb-session-bytes-store-supplier.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'
import { RocksDBVersionedBytesStoreSupplier } from './rocksdb-versioned-bytes-store-supplier.js'
import { RocksDBWindowBytesStoreSupplier } from './rocksdb-window-bytes-store-supplier.js'
import type { RocksDBWindowStoreSupplierOptions } from './rocksdb-window-bytes-store-supplier.js'

/** The RocksDB store suppliers (the persistent half of Kafka's `Stores`); use them wherever the in-memory suppliers go. */
export const RocksDBStores = Object.freeze({
  /** A RocksDB key-value bytes store supplier. The name must be a legal store name. */
  persistentKeyValueStore(name: string, options?: RocksDBStoreOptions): KeyValueBytesStoreSupplier {
    return new RocksDBKeyValueBytesStoreSupplier(name, false, options)
  },

  /** The same store for `Stores.timestampedKeyValueStoreBuilder`, which adds the timestamps. */
  persistentTimestampedKeyValueStore(name: string, options?: RocksDBStoreOptions): KeyValueBytesStoreSupplier {
    return new RocksDBKeyValueBytesStoreSupplier(name, true, options)
  },

  /**
   * A RocksDB versioned key-value store supplier (Kafka's `Stores.persistentVersionedKeyValueStore`)
   * for `Stores.versionedKeyValueStoreBuilder` or `Materialized.as`: old versions stay queryable
   * for `historyRetentionMs` (also the grace period of writes), kept in segments of
   * `segmentIntervalMs` (default: Kafka's, derived from the history retention).
   */
  persistentVersionedKeyValueStore(
    name: string,
    historyRetentionMs: number,
    segmentIntervalMs?: number,
    options?: RocksDBStoreOptions
  ): VersionedBytesStoreSupplier {
    return new RocksDBVersionedBytesStoreSupplier(name, historyRetentionMs, segmentIntervalMs, options)
  },

  /** A time-segmented RocksDB window store supplier; retention >= window size >= 0. */
  persistentWindowStore(
    name: string,
    retentionPeriod: number,
    windowSize: number,
    retainDuplicates: boolean,
    options?: RocksDBWindowStoreSupplierOptions
  ): WindowBytesStoreSupplier {
    return new RocksDBWindowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates, false, options)
  },

  /** The same store for `Stores.timestampedWindowStoreBuilder`, which adds the timestamps. */
  persistentTimestampedWindowStore(
    name: string,
    retentionPeriod: number,
    windowSize: number,
    retainDuplicates: boolean,
    options?: RocksDBWindowStoreSupplierOptions
  ): WindowBytesStoreSupplier {
    return new RocksDBWindowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates, true, options)
  },

  /** A time-segmented RocksDB session store supplier; retention >= 0. */
  persistentSessionStore(name: string, retentionPeriod: number, options?: RocksDBSessionStoreSupplierOptions): SessionBytesStoreSupplier {
    return new RocksDBSessionBytesStoreSupplier(name, retentionPeriod, options)
  }
})
