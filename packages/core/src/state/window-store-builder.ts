/**
 * Builds window stores from a bytes-store supplier (Kafka's WindowStoreBuilder): each build()
 * wraps a new backend store in the metered layer, which applies the serdes.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { MeteredWindowStore } from './metered-window-store.js'
import type { WindowBytesStoreSupplier, WindowStore } from './window-store.js'

export class WindowStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, WindowStore<K, V>> {
  readonly #supplier: WindowBytesStoreSupplier

  constructor (supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkWindowSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** The supplier's retention period (ms); the changelog topic's retention derives from it. */
  get retentionPeriod (): number {
    return this.#supplier.retentionPeriod
  }

  build (): WindowStore<K, V> {
    return new MeteredWindowStore<K, V>({
      inner: this.#supplier.get(),
      metricsScope: this.#supplier.metricsScope,
      windowSize: this.#supplier.windowSize,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}

/** @internal Shared with TimestampedWindowStoreBuilder. */
export function checkWindowSupplier (supplier: WindowBytesStoreSupplier): WindowBytesStoreSupplier {
  if (supplier === null || supplier === undefined || typeof supplier.get !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A window store builder needs a store supplier with a get() method')
  }
  if (typeof supplier.metricsScope !== 'string' || supplier.metricsScope.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no metricsScope`)
  }
  if (!Number.isSafeInteger(supplier.retentionPeriod) || !Number.isSafeInteger(supplier.windowSize)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no integer retentionPeriod and windowSize`)
  }
  return supplier
}
