/**
 * Supplies in-memory versioned bytes stores (kstreams' addition: Kafka Streams only has the
 * RocksDB one): the segmented versioned store of @kstreams/core over an InMemoryKeyValueStore,
 * with Kafka's history retention, grace period and segment semantics; metrics scope 'in-memory'.
 */
import { checkVersionedStoreArguments, defaultVersionedSegmentInterval, SegmentedVersionedBytesStore } from '@kstreams/core'
import type { VersionedBytesStore, VersionedBytesStoreSupplier } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import { InMemoryKeyValueStore } from './in-memory-key-value-store.js'

/** Supplies in-memory versioned bytes stores (Stores.inMemoryVersionedKeyValueStore). */
export class InMemoryVersionedBytesStoreSupplier implements VersionedBytesStoreSupplier {
  readonly name: string
  readonly metricsScope = 'in-memory'
  readonly historyRetentionMs: number
  readonly segmentIntervalMs: number

  /** Throws ILLEGAL_ARGUMENT for an illegal name, a negative history retention or a segment interval below 1. */
  constructor(name: string, historyRetentionMs: number, segmentIntervalMs: number = defaultVersionedSegmentInterval(historyRetentionMs)) {
    this.name = validateStoreName(name)
    checkVersionedStoreArguments(name, historyRetentionMs, segmentIntervalMs)
    this.historyRetentionMs = historyRetentionMs
    this.segmentIntervalMs = segmentIntervalMs
  }

  get(): VersionedBytesStore {
    return new SegmentedVersionedBytesStore({
      physical: new InMemoryKeyValueStore(this.name),
      historyRetentionMs: this.historyRetentionMs,
      segmentIntervalMs: this.segmentIntervalMs
    })
  }
}
