/**
 * Supplies RocksDB session bytes stores (Kafka's RocksDbSessionBytesStoreSupplier): a new
 * RocksDBSessionStore per get(), metrics scope 'rocksdb-session'. The retention period cannot be
 * negative; the segment interval defaults to max(retentionPeriod / 2, 60000).
 */
import { checkRetentionPeriod, checkSegmentInterval, defaultSegmentInterval, validateStoreName } from '@kstreams/core/internal'
import type { SessionBytesStore, SessionBytesStoreSupplier } from '@kstreams/core'
import { RocksDBSessionStore } from './rocksdb-session-store.js'
import { resolveRocksDBStoreOptions } from './rocksdb-store-options.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'

/** The options of RocksDBStores.persistentSessionStore: the RocksDB store options and the segment interval. */
export interface RocksDBSessionStoreSupplierOptions extends RocksDBStoreOptions {
  /** Default max(retentionPeriod / 2, 60000). */
  readonly segmentInterval?: number
}

/** Supplies RocksDB session bytes stores (RocksDBStores.persistentSessionStore). */
export class RocksDBSessionBytesStoreSupplier implements SessionBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'rocksdb-session'
  readonly retentionPeriod: number
  readonly segmentInterval: number
  readonly #options: RocksDBStoreOptions

  /** Throws ILLEGAL_ARGUMENT naming the store when an argument is invalid. */
  constructor(name: string, retentionPeriod: number, options: RocksDBSessionStoreSupplierOptions = {}) {
    this.name = validateStoreName(name)
    this.retentionPeriod = checkRetentionPeriod(name, retentionPeriod)
    this.segmentInterval = checkSegmentInterval(name, options.segmentInterval ?? defaultSegmentInterval(retentionPeriod))
    resolveRocksDBStoreOptions(options)
    this.#options = options
  }

  get(): SessionBytesStore {
    return new RocksDBSessionStore({
      ...this.#options,
      name: this.name,
      retentionPeriod: this.retentionPeriod,
      segmentInterval: this.segmentInterval
    })
  }
}
