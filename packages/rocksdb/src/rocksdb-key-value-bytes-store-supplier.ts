/**
 * Supplies RocksDB key-value bytes stores (Kafka's RocksDbKeyValueBytesStoreSupplier): a new
 * RocksDBStore per get(), metrics scope 'rocksdb'. A timestamped supplier gives the same store;
 * the timestamped builder's metered layer adds the timestamp to every value.
 */
import { validateStoreName } from '@kstreams/core/internal'
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from '@kstreams/core'
import { RocksDBStore } from './rocksdb-store.js'
import { resolveRocksDBStoreOptions } from './rocksdb-store-options.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'

/** Supplies RocksDB key-value bytes stores (RocksDBStores.persistentKeyValueStore). */
export class RocksDBKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'rocksdb'
  /** Whether the store was asked for as a timestamped store. */
  readonly timestamped: boolean
  readonly #options: RocksDBStoreOptions

  /** Throws ILLEGAL_ARGUMENT for an illegal store name or option. */
  constructor(name: string, timestamped = false, options: RocksDBStoreOptions = {}) {
    this.name = validateStoreName(name)
    resolveRocksDBStoreOptions(options)
    this.timestamped = timestamped
    this.#options = options
  }

  get(): KeyValueBytesStore {
    return new RocksDBStore(this.name, this.#options)
  }
}
