/**
 * Builds timestamped window stores (Kafka's TimestampedWindowStoreBuilder): the metered layer
 * stores `ValueAndTimestamp<V>` as `[8-byte big-endian timestamp][value bytes]` in the same kind
 * of bytes window store a plain window store uses, under the same optional layers as
 * WindowStoreBuilder; the change-logging layer logs plain values stamped with the stored
 * timestamp, and the changelog topic gets the windowed configs.
 */
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { ChangeLoggingTimestampedWindowBytesStore } from './change-logging-timestamped-window-bytes-store.js'
import { MeteredTimestampedWindowStore } from './metered-timestamped-window-store.js'
import { checkWindowSupplier, maybeWrapWindowCaching, windowedChangelogConfig } from './window-store-builder.js'
import type { TimestampedWindowStore, WindowBytesStoreSupplier } from './window-store.js'

export class TimestampedWindowStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, TimestampedWindowStore<K, V>> {
  readonly #supplier: WindowBytesStoreSupplier

  /** `valueSerde` is the serde of the plain value; the timestamp wrapping is added here. */
  constructor (supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkWindowSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** The supplier's retention period (ms); the changelog topic's retention derives from it. */
  get retentionPeriod (): number {
    return this.#supplier.retentionPeriod
  }

  /** The changelog topic configs: the windowed defaults, overridden by those given to withLoggingEnabled(). */
  override get logConfig (): Readonly<Record<string, string>> {
    return windowedChangelogConfig(this.loggingEnabled, this.retentionPeriod, super.logConfig)
  }

  build (): TimestampedWindowStore<K, V> {
    const supplier = this.#supplier
    const logged = this.loggingEnabled ? new ChangeLoggingTimestampedWindowBytesStore(supplier.get(), supplier.retainDuplicates) : supplier.get()
    return new MeteredTimestampedWindowStore<K, V>({
      inner: maybeWrapWindowCaching(this.cachingEnabled, supplier, logged),
      metricsScope: supplier.metricsScope,
      windowSize: supplier.windowSize,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}
