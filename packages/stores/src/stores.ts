/**
 * The Stores factory (Kafka's `Stores`): store suppliers for the built-in backends and the
 * builders that wrap a supplier's bytes store in the typed, serde-applying layers.
 */
import {
  KeyValueStoreBuilder,
  SessionStoreBuilder,
  TimestampedKeyValueStoreBuilder,
  TimestampedWindowStoreBuilder,
  VersionedKeyValueStoreBuilder,
  WindowStoreBuilder
} from '@kstreams/core'
import type {
  KeyValueBytesStoreSupplier,
  Serde,
  SessionBytesStoreSupplier,
  VersionedBytesStoreSupplier,
  WindowBytesStoreSupplier
} from '@kstreams/core'
import { InMemoryKeyValueBytesStoreSupplier } from './in-memory-key-value-bytes-store-supplier.js'
import { InMemorySessionBytesStoreSupplier } from './in-memory-session-bytes-store-supplier.js'
import { InMemoryVersionedBytesStoreSupplier } from './in-memory-versioned-bytes-store-supplier.js'
import { InMemoryWindowBytesStoreSupplier } from './in-memory-window-bytes-store-supplier.js'

/**
 * The Stores factory (Kafka's `Stores`): suppliers of the in-memory stores, and the builders that wrap
 * a supplier's bytes store in the typed layers.
 */
export const Stores = Object.freeze({
  /** An in-memory key-value bytes store supplier. The name must be a legal store name. */
  inMemoryKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    return new InMemoryKeyValueBytesStoreSupplier(name)
  },

  /**
   * An in-memory versioned key-value bytes store supplier (Kafka Streams has only the RocksDB one,
   * `RocksDBStores.persistentVersionedKeyValueStore` here): old versions stay queryable for
   * `historyRetentionMs` (also the grace period of writes), kept in segments of
   * `segmentIntervalMs` (default: Kafka's, derived from the history retention).
   */
  inMemoryVersionedKeyValueStore(name: string, historyRetentionMs: number, segmentIntervalMs?: number): VersionedBytesStoreSupplier {
    return new InMemoryVersionedBytesStoreSupplier(name, historyRetentionMs, segmentIntervalMs)
  },

  /**
   * An in-memory window bytes store supplier. `retentionPeriod` and `windowSize` are in ms, not
   * negative, and the retention must be at least the window size. With `retainDuplicates` every
   * put is kept (stream-stream joins) and null puts are ignored.
   */
  inMemoryWindowStore(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
    return new InMemoryWindowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates)
  },

  /** An in-memory session bytes store supplier; `retentionPeriod` is in ms and not negative. */
  inMemorySessionStore(name: string, retentionPeriod: number): SessionBytesStoreSupplier {
    return new InMemorySessionBytesStoreSupplier(name, retentionPeriod)
  },

  /**
   * A builder of key-value stores over the supplier's bytes store. Serdes left undefined fall
   * back to `defaultKeySerde` / `defaultValueSerde` of the config when the store is initialised.
   */
  keyValueStoreBuilder<K, V>(supplier: KeyValueBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>): KeyValueStoreBuilder<K, V> {
    return new KeyValueStoreBuilder(supplier, keySerde, valueSerde)
  },

  /**
   * A builder of timestamped key-value stores: values are `ValueAndTimestamp<V>`; `valueSerde`
   * is the serde of the plain value.
   */
  timestampedKeyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde?: Serde<K>,
    valueSerde?: Serde<V>
  ): TimestampedKeyValueStoreBuilder<K, V> {
    return new TimestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde)
  },

  /**
   * A builder of versioned key-value stores (Kafka's `Stores.versionedKeyValueStoreBuilder`) over a
   * versioned supplier; serdes default as for key-value stores. Versioned stores have no caching
   * layer.
   */
  versionedKeyValueStoreBuilder<K, V>(
    supplier: VersionedBytesStoreSupplier,
    keySerde?: Serde<K>,
    valueSerde?: Serde<V>
  ): VersionedKeyValueStoreBuilder<K, V> {
    return new VersionedKeyValueStoreBuilder(supplier, keySerde, valueSerde)
  },

  /** A builder of window stores over the supplier's bytes store; serdes default as for key-value stores. */
  windowStoreBuilder<K, V>(supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>): WindowStoreBuilder<K, V> {
    return new WindowStoreBuilder(supplier, keySerde, valueSerde)
  },

  /**
   * A builder of timestamped window stores: values are `ValueAndTimestamp<V>`; `valueSerde` is
   * the serde of the plain value.
   */
  timestampedWindowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde?: Serde<K>,
    valueSerde?: Serde<V>
  ): TimestampedWindowStoreBuilder<K, V> {
    return new TimestampedWindowStoreBuilder(supplier, keySerde, valueSerde)
  },

  /** A builder of session stores over the supplier's bytes store; serdes default as for key-value stores. */
  sessionStoreBuilder<K, AGG>(
    supplier: SessionBytesStoreSupplier,
    keySerde?: Serde<K>,
    valueSerde?: Serde<AGG>
  ): SessionStoreBuilder<K, AGG> {
    return new SessionStoreBuilder(supplier, keySerde, valueSerde)
  }
})
