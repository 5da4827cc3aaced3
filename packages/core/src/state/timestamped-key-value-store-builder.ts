/**
 * Builds timestamped key-value stores (Kafka's TimestampedKeyValueStoreBuilder): the metered
 * layer stores `ValueAndTimestamp<V>` as `[8-byte big-endian timestamp][value bytes]` in the
 * same kind of bytes store a plain key-value store uses. The layers are those of
 * KeyValueStoreBuilder, with the timestamped change-logging layer (plain values in the changelog,
 * the stored timestamp as the record timestamp).
 */
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { ChangeLoggingTimestampedKeyValueBytesStore } from './change-logging-timestamped-key-value-bytes-store.js'
import { checkSupplier, keyValueBytesLayers } from './key-value-store-builder.js'
import type { KeyValueBytesStoreSupplier, TimestampedKeyValueStore } from './key-value-store.js'
import { MeteredTimestampedKeyValueStore } from './metered-timestamped-key-value-store.js'

/** Builds timestamped key-value stores from a bytes-store supplier (Kafka's TimestampedKeyValueStoreBuilder). */
export class TimestampedKeyValueStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, TimestampedKeyValueStore<K, V>> {
  readonly #supplier: KeyValueBytesStoreSupplier

  /** `valueSerde` is the serde of the plain value; the timestamp wrapping is added here. */
  constructor(supplier: KeyValueBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  build(): TimestampedKeyValueStore<K, V> {
    const supplier = this.#supplier
    const inner = keyValueBytesLayers(supplier, this.loggingEnabled, this.cachingEnabled, ChangeLoggingTimestampedKeyValueBytesStore)
    return new MeteredTimestampedKeyValueStore<K, V>({
      inner,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}
