/**
 * A Materialized resolved against the builder (Kafka Streams' MaterializedInternal): the store
 * name (the user's, else generated with the operator's prefix when this object is created, which
 * is what fixes the name's index), whether the store is queryable, and the timestamped
 * key-value store builder with Kafka Streams' DSL defaults (the Materialized's store type, else
 * the builder's DslStoreSuppliers, unless a supplier is given; caching and logging on). Source
 * tables pass `serdes` to replace the Materialized's serdes with the Consumed ones (Kafka's
 * StreamsBuilder.table / globalTable overwrite them, even with null). @internal
 */
import { isVersionedBytesStoreSupplier, StreamsError } from '@kstreams/core'
import type { Serde, TimestampedKeyValueStoreBuilder, VersionedKeyValueStoreBuilder } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import type { Materialized } from '../materialized.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'

export class MaterializedInternal<K, V> {
  readonly storeName: string
  /** The store name when the user named the store (only then is it queryable). */
  readonly queryableStoreName: string | undefined
  readonly #materialized: Materialized<K, V> | undefined
  readonly #builder: InternalStreamsBuilder
  readonly #serdes: { readonly keySerde: Serde<K> | undefined; readonly valueSerde: Serde<V> | undefined } | undefined

  constructor(
    materialized: Materialized<K, V> | undefined,
    builder: InternalStreamsBuilder,
    generatedStorePrefix: string,
    serdes?: { readonly keySerde: Serde<K> | undefined; readonly valueSerde: Serde<V> | undefined }
  ) {
    this.#materialized = materialized
    this.#builder = builder
    this.#serdes = serdes
    this.queryableStoreName = materialized?.storeName
    this.storeName = materialized?.storeName ?? builder.newStoreName(generatedStorePrefix)
  }

  get keySerde(): Serde<K> | undefined {
    return this.#serdes === undefined ? this.#materialized?.keySerde : this.#serdes.keySerde
  }
  get valueSerde(): Serde<V> | undefined {
    return this.#serdes === undefined ? this.#materialized?.valueSerde : this.#serdes.valueSerde
  }

  /** Whether the Materialized asks for a versioned store (KIP-914). */
  get versioned(): boolean {
    return isVersionedBytesStoreSupplier(this.#materialized?.storeSupplier)
  }

  /**
   * The store builder of a source table (table(), toTable()): a versioned one when the
   * Materialized has a versioned supplier (no caching layer, as in Kafka Streams), else storeBuilder().
   */
  tableStoreBuilder(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined
  ): TimestampedKeyValueStoreBuilder<K, V> | VersionedKeyValueStoreBuilder<K, V> {
    const m = this.#materialized
    const supplier = m?.storeSupplier
    if (!isVersionedBytesStoreSupplier(supplier)) return this.storeBuilder(keySerde, valueSerde)
    const builder = Stores.versionedKeyValueStoreBuilder(supplier, this.keySerde ?? keySerde, this.valueSerde ?? valueSerde)
    this.#builder.versionedStores.set(this.storeName, supplier.historyRetentionMs)
    if (m?.loggingEnabled === false) builder.withLoggingDisabled()
    else builder.withLoggingEnabled(m?.logConfig ?? {})
    return builder
  }

  /** The store builder; serdes not set on the Materialized fall back to the given ones, then to the config defaults. */
  storeBuilder(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined): TimestampedKeyValueStoreBuilder<K, V> {
    const m = this.#materialized
    const backend = m?.dslStoreSuppliers ?? this.#builder.storeSuppliers
    const given = m?.storeSupplier
    if (isVersionedBytesStoreSupplier(given)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Store "${this.storeName}": a versioned store supplier materializes only source tables (table(), toTable()) in kstreams`
      )
    }
    const supplier = given ?? backend.keyValueStore({ name: this.storeName, isTimestamped: true })
    const builder = Stores.timestampedKeyValueStoreBuilder(supplier, this.keySerde ?? keySerde, this.valueSerde ?? valueSerde)
    if (m?.cachingEnabled === false) builder.withCachingDisabled()
    else builder.withCachingEnabled()
    if (m?.loggingEnabled === false) builder.withLoggingDisabled()
    else builder.withLoggingEnabled(m?.logConfig ?? {})
    return builder
  }
}
