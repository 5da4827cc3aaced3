/**
 * Builds window stores from a bytes-store supplier (Kafka's WindowStoreBuilder): each build()
 * wraps a new backend store in change-logging (when logging is enabled), then caching (when
 * caching is enabled, and never for a store that retains duplicates, as in Kafka), then the
 * metered layer, which applies the serdes. The changelog of a windowed store is created with
 * `cleanup.policy=compact,delete` and `retention.ms` = retention period + one day (Kafka's
 * windowstore.changelog.additional.retention.ms default), both overridable by the topic configs
 * given to withLoggingEnabled().
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { CachingWindowStore } from './caching-window-store.js'
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store.js'
import { MeteredWindowStore } from './metered-window-store.js'
import type { WindowBytesStore, WindowBytesStoreSupplier, WindowStore } from './window-store.js'
import { WindowedStoreBuilderBase } from './windowed-store-builder-base.js'

export { WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS } from './windowed-store-builder-base.js'

/** Makes the change-logging layer over a new backend store. */
type ChangeLoggingLayer = new (inner: WindowBytesStore, retainDuplicates: boolean) => WindowBytesStore

/** Builds window stores from a bytes-store supplier (Kafka's WindowStoreBuilder). */
export class WindowStoreBuilder<K, V> extends WindowedStoreBuilderBase<K, V, WindowStore<K, V>, WindowBytesStoreSupplier> {
  constructor(supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkWindowSupplier(supplier), keySerde, valueSerde)
  }

  build(): WindowStore<K, V> {
    const supplier = this.supplier
    const inner = windowBytesLayers(supplier, this.loggingEnabled, this.cachingEnabled, ChangeLoggingWindowBytesStore)
    return new MeteredWindowStore<K, V>({ ...this.meteredOptions(inner), windowSize: supplier.windowSize })
  }
}

/**
 * @internal Shared with TimestampedWindowStoreBuilder: a new backend store, wrapped in
 * `changeLogging` (when logging is enabled), then in caching (when enabled; Kafka disables
 * caching of a store that retains duplicates: each put is kept, so a cache could not collapse them).
 */
export function windowBytesLayers(
  supplier: WindowBytesStoreSupplier,
  loggingEnabled: boolean,
  cachingEnabled: boolean,
  changeLogging: ChangeLoggingLayer
): WindowBytesStore {
  const logged = loggingEnabled ? new changeLogging(supplier.get(), supplier.retainDuplicates) : supplier.get()
  if (!cachingEnabled || supplier.retainDuplicates) return logged
  return new CachingWindowStore(logged, {
    windowSize: supplier.windowSize,
    segmentInterval: supplier.segmentInterval,
    retentionPeriod: supplier.retentionPeriod
  })
}

/** @internal Shared with TimestampedWindowStoreBuilder. */
export function checkWindowSupplier(supplier: WindowBytesStoreSupplier): WindowBytesStoreSupplier {
  if (supplier === null || supplier === undefined || typeof supplier.get !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A window store builder needs a store supplier with a get() method')
  }
  if (typeof supplier.metricsScope !== 'string' || supplier.metricsScope.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no metricsScope`)
  }
  if (!Number.isSafeInteger(supplier.retentionPeriod) || !Number.isSafeInteger(supplier.windowSize)) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `The supplier of store "${String(supplier.name)}" has no integer retentionPeriod and windowSize`
    )
  }
  return supplier
}
