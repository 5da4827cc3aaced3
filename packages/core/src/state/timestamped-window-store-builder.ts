/**
 * Builds timestamped window stores (Kafka's TimestampedWindowStoreBuilder): the metered layer
 * stores `ValueAndTimestamp<V>` as `[8-byte big-endian timestamp][value bytes]` in the same kind
 * of bytes window store a plain window store uses, under the same optional layers as
 * WindowStoreBuilder; the change-logging layer logs plain values stamped with the stored
 * timestamp, and the changelog topic gets the windowed configs.
 */
import type { Serde } from '../serialization/serde.js'
import { ChangeLoggingTimestampedWindowBytesStore } from './change-logging-timestamped-window-bytes-store.js'
import { MeteredTimestampedWindowStore } from './metered-timestamped-window-store.js'
import { checkWindowSupplier, windowBytesLayers } from './window-store-builder.js'
import type { TimestampedWindowStore, WindowBytesStoreSupplier } from './window-store.js'
import { WindowedStoreBuilderBase } from './windowed-store-builder-base.js'

/** Builds timestamped window stores from a bytes-store supplier (Kafka's TimestampedWindowStoreBuilder). */
export class TimestampedWindowStoreBuilder<K, V> extends WindowedStoreBuilderBase<
  K,
  V,
  TimestampedWindowStore<K, V>,
  WindowBytesStoreSupplier
> {
  /** `valueSerde` is the serde of the plain value; the timestamp wrapping is added here. */
  constructor(supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkWindowSupplier(supplier), keySerde, valueSerde)
  }

  build(): TimestampedWindowStore<K, V> {
    const supplier = this.supplier
    const inner = windowBytesLayers(supplier, this.loggingEnabled, this.cachingEnabled, ChangeLoggingTimestampedWindowBytesStore)
    return new MeteredTimestampedWindowStore<K, V>({ ...this.meteredOptions(inner), windowSize: supplier.windowSize })
  }
}
