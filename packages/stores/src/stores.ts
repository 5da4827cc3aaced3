/**
 * The Stores factory (Kafka's `Stores`): store suppliers for the built-in backends and the
 * builders that wrap a supplier's bytes store in the typed, serde-applying layers.
 */
import { KeyValueStoreBuilder, TimestampedKeyValueStoreBuilder } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, Serde } from '@kstreams/core'
import { InMemoryKeyValueBytesStoreSupplier } from './in-memory-key-value-bytes-store-supplier.js'

export const Stores = Object.freeze({
  /** An in-memory key-value bytes store supplier. The name must be a legal store name. */
  inMemoryKeyValueStore (name: string): KeyValueBytesStoreSupplier {
    return new InMemoryKeyValueBytesStoreSupplier(name)
  },

  /**
   * A builder of key-value stores over the supplier's bytes store. Serdes left undefined fall
   * back to `defaultKeySerde` / `defaultValueSerde` of the config when the store is initialised.
   */
  keyValueStoreBuilder<K, V> (supplier: KeyValueBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>): KeyValueStoreBuilder<K, V> {
    return new KeyValueStoreBuilder(supplier, keySerde, valueSerde)
  },

  /**
   * A builder of timestamped key-value stores: values are `ValueAndTimestamp<V>`; `valueSerde`
   * is the serde of the plain value.
   */
  timestampedKeyValueStoreBuilder<K, V> (supplier: KeyValueBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>): TimestampedKeyValueStoreBuilder<K, V> {
    return new TimestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde)
  }
})
