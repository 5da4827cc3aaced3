/**
 * Builds key-value stores from a bytes-store supplier (Kafka's KeyValueStoreBuilder): each
 * build() wraps a new backend store in change-logging (when logging is enabled), then caching
 * (when caching is enabled), then the metered layer, which applies the serdes.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { CachingKeyValueStore } from './caching-key-value-store.js'
import { ChangeLoggingKeyValueBytesStore } from './change-logging-key-value-bytes-store.js'
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier, KeyValueStore } from './key-value-store.js'
import { MeteredKeyValueStore } from './metered-key-value-store.js'

/**
 * Builds key-value stores from a bytes-store supplier (Kafka's KeyValueStoreBuilder); see
 * `Stores.keyValueStoreBuilder` in @kstreams/stores.
 */
export class KeyValueStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, KeyValueStore<K, V>> {
  readonly #supplier: KeyValueBytesStoreSupplier

  constructor(supplier: KeyValueBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  build(): KeyValueStore<K, V> {
    const supplier = this.#supplier
    const inner = keyValueBytesLayers(supplier, this.loggingEnabled, this.cachingEnabled, ChangeLoggingKeyValueBytesStore)
    return new MeteredKeyValueStore<K, V>({
      inner,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}

/**
 * @internal Shared with TimestampedKeyValueStoreBuilder: a new backend store, wrapped in
 * `changeLogging` (when logging is enabled), then in caching (when enabled).
 */
export function keyValueBytesLayers(
  supplier: KeyValueBytesStoreSupplier,
  loggingEnabled: boolean,
  cachingEnabled: boolean,
  changeLogging: new (inner: KeyValueBytesStore) => KeyValueBytesStore
): KeyValueBytesStore {
  const logged = loggingEnabled ? new changeLogging(supplier.get()) : supplier.get()
  return cachingEnabled ? new CachingKeyValueStore(logged) : logged
}

/** @internal Shared with TimestampedKeyValueStoreBuilder. */
export function checkSupplier(supplier: KeyValueBytesStoreSupplier): KeyValueBytesStoreSupplier {
  if (supplier === null || supplier === undefined || typeof supplier.get !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A store builder needs a store supplier with a get() method')
  }
  if (typeof supplier.metricsScope !== 'string' || supplier.metricsScope.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no metricsScope`)
  }
  return supplier
}
