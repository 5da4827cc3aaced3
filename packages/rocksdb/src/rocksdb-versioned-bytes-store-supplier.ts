/**
 * Supplies RocksDB versioned bytes stores (Kafka's RocksDbVersionedKeyValueBytesStoreSupplier):
 * the segmented versioned store of @kstreams/core over one RocksDBStore in
 * `<taskDir>/rocksdb/<name>` (latest values, the segment index and the segments as key spaces
 * of one DB; an expired segment goes with one range delete). Metrics scope 'rocksdb'. Without a
 * segment interval, Kafka's default for the history retention.
 */
import { checkVersionedStoreArguments, defaultVersionedSegmentInterval, SegmentedVersionedBytesStore } from '@kstreams/core'
import type { VersionedBytesStore, VersionedBytesStoreSupplier } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import { RocksDBStore } from './rocksdb-store.js'
import { resolveRocksDBStoreOptions } from './rocksdb-store-options.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'

/** Supplies RocksDB versioned bytes stores (RocksDBStores.persistentVersionedKeyValueStore). */
export class RocksDBVersionedBytesStoreSupplier implements VersionedBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'rocksdb'
  readonly historyRetentionMs: number
  readonly segmentIntervalMs: number
  readonly #options: RocksDBStoreOptions

  /** Throws ILLEGAL_ARGUMENT for an illegal name or option, a negative history retention or a segment interval below 1. */
  constructor(
    name: string,
    historyRetentionMs: number,
    segmentIntervalMs: number = defaultVersionedSegmentInterval(historyRetentionMs),
    options: RocksDBStoreOptions = {}
  ) {
    this.name = validateStoreName(name)
    checkVersionedStoreArguments(name, historyRetentionMs, segmentIntervalMs)
    resolveRocksDBStoreOptions(options)
    this.historyRetentionMs = historyRetentionMs
    this.segmentIntervalMs = segmentIntervalMs
    this.#options = options
  }

  get(): VersionedBytesStore {
    return new SegmentedVersionedBytesStore({
      physical: new RocksDBStore(this.name, this.#options),
      historyRetentionMs: this.historyRetentionMs,
      segmentIntervalMs: this.segmentIntervalMs
    })
  }
}
