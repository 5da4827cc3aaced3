/**
 * Supplies RocksDB window bytes stores (Kafka's RocksDbWindowBytesStoreSupplier): a new
 * RocksDBWindowStore per get(), metrics scope 'rocksdb-window'. Arguments are checked as Kafka's
 * Stores does; the segment interval defaults to max(retentionPeriod / 2, 60000).
 */
import {
  checkRetainDuplicates,
  checkSegmentInterval,
  checkWindowStoreArguments,
  defaultSegmentInterval,
  validateStoreName
} from '@kstreams/core/internal'
import type { WindowBytesStore, WindowBytesStoreSupplier } from '@kstreams/core'
import { RocksDBWindowStore } from './rocksdb-window-store.js'
import { resolveRocksDBStoreOptions } from './rocksdb-store-options.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'

/** The options of RocksDBStores.persistentWindowStore: the RocksDB store options and the segment interval. */
export interface RocksDBWindowStoreSupplierOptions extends RocksDBStoreOptions {
  /** Default max(retentionPeriod / 2, 60000). */
  readonly segmentInterval?: number
}

/** Supplies RocksDB window bytes stores (RocksDBStores.persistentWindowStore). */
export class RocksDBWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'rocksdb-window'
  readonly retentionPeriod: number
  readonly windowSize: number
  readonly retainDuplicates: boolean
  readonly segmentInterval: number
  /** Whether the store was asked for as a timestamped store. */
  readonly timestamped: boolean
  readonly #options: RocksDBStoreOptions

  /** Throws ILLEGAL_ARGUMENT naming the store when an argument is invalid. */
  constructor(
    name: string,
    retentionPeriod: number,
    windowSize: number,
    retainDuplicates: boolean,
    timestamped = false,
    options: RocksDBWindowStoreSupplierOptions = {}
  ) {
    this.name = validateStoreName(name)
    checkWindowStoreArguments(name, retentionPeriod, windowSize)
    this.retentionPeriod = retentionPeriod
    this.windowSize = windowSize
    this.retainDuplicates = checkRetainDuplicates(name, retainDuplicates)
    this.segmentInterval = checkSegmentInterval(name, options.segmentInterval ?? defaultSegmentInterval(retentionPeriod))
    this.timestamped = timestamped
    resolveRocksDBStoreOptions(options)
    this.#options = options
  }

  get(): WindowBytesStore {
    return new RocksDBWindowStore({
      ...this.#options,
      name: this.name,
      retentionPeriod: this.retentionPeriod,
      windowSize: this.windowSize,
      retainDuplicates: this.retainDuplicates,
      segmentInterval: this.segmentInterval
    })
  }
}
