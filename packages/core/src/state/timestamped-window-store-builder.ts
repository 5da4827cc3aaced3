/**
 * Builds timestamped window stores (Kafka's TimestampedWindowStoreBuilder): the metered layer
 * stores `ValueAndTimestamp<V>` as `[8-byte big-endian timestamp][value bytes]` in the same kind
 * of bytes window store a plain window store uses.
 */
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { MeteredTimestampedWindowStore } from './metered-timestamped-window-store.js'
import { checkWindowSupplier } from './window-store-builder.js'
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

  build (): TimestampedWindowStore<K, V> {
    return new MeteredTimestampedWindowStore<K, V>({
      inner: this.#supplier.get(),
      metricsScope: this.#supplier.metricsScope,
      windowSize: this.#supplier.windowSize,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}
