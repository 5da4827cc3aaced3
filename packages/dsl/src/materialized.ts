/**
 * How a KTable's state store is built (Kafka Streams' `Materialized`): a store name (which makes
 * the store queryable) or a bytes store supplier, the store backend of this operator
 * (`as(DslStoreSuppliers)` / `withStoreType`, KIP-954: it wins over the StreamsBuilder's
 * `dslStoreSuppliers`, an explicit supplier wins over both), serdes, and the caching and logging
 * toggles. As in Kafka Streams, DSL stores cache and log by default. Immutable: `with*` returns a copy.
 */
import { StreamsError } from '@kstreams/core'
import type {
  DslStoreSuppliers,
  KeyValueBytesStoreSupplier,
  Serde,
  SessionBytesStoreSupplier,
  VersionedBytesStoreSupplier,
  WindowBytesStoreSupplier
} from '@kstreams/core'
import { isDslStoreSuppliers } from './internal/is-dsl-store-suppliers.js'

interface MaterializedFields<K, V> {
  readonly storeName?: string | undefined
  readonly storeSupplier?: KeyValueBytesStoreSupplier | VersionedBytesStoreSupplier | undefined
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly cachingEnabled?: boolean
  readonly loggingEnabled?: boolean
  readonly logConfig?: Readonly<Record<string, string>>
  readonly retentionMs?: number | undefined
  readonly windowedStoreSupplier?: WindowBytesStoreSupplier | SessionBytesStoreSupplier | undefined
  readonly dslStoreSuppliers?: DslStoreSuppliers | undefined
}

/**
 * How a DSL state store is built (Kafka Streams' Materialized): a name (which makes the store
 * queryable) or a bytes store supplier, serdes, caching and logging. Immutable.
 */
export class Materialized<K, V> {
  /** The store's name; undefined: a generated name (not queryable). */
  readonly storeName: string | undefined
  /**
   * The bytes store supplier of a key-value store; undefined: the config's dslStoreSuppliers. A
   * versioned supplier (KIP-914) makes a versioned table: only table() and toTable() take one.
   */
  readonly storeSupplier: KeyValueBytesStoreSupplier | VersionedBytesStoreSupplier | undefined
  /** The key serde; undefined: the upstream or default serde. */
  readonly keySerde: Serde<K> | undefined
  /** The value serde; undefined: the upstream or default serde. */
  readonly valueSerde: Serde<V> | undefined
  /** Whether the store has a caching layer (default true). */
  readonly cachingEnabled: boolean
  /** Whether the store writes a changelog topic (default true). */
  readonly loggingEnabled: boolean
  /** Topic configs of the changelog topic. */
  readonly logConfig: Readonly<Record<string, string>>
  /** The retention of a window or session store (ms), when set by withRetention(). */
  readonly retentionMs: number | undefined
  /** The bytes store supplier of a windowed aggregation's store (Materialized.as(window or session supplier)). */
  readonly windowedStoreSupplier: WindowBytesStoreSupplier | SessionBytesStoreSupplier | undefined
  /**
   * The store backend of this operator's store (Kafka's store type); undefined: the
   * StreamsBuilder's `dslStoreSuppliers`. Not used when a bytes store supplier is given.
   */
  readonly dslStoreSuppliers: DslStoreSuppliers | undefined

  private constructor(fields: MaterializedFields<K, V>) {
    this.storeName = fields.storeName
    this.storeSupplier = fields.storeSupplier
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.cachingEnabled = fields.cachingEnabled ?? true
    this.loggingEnabled = fields.loggingEnabled ?? true
    this.logConfig = fields.logConfig ?? {}
    this.retentionMs = fields.retentionMs
    this.windowedStoreSupplier = fields.windowedStoreSupplier
    this.dslStoreSuppliers = fields.dslStoreSuppliers
  }

  /**
   * A named (and therefore queryable) store, a store from the given bytes store supplier, or a
   * store with a generated name (not queryable) built by the given store backend
   * (Kafka's `Materialized.as(DslStoreSuppliers)`, e.g. `RocksDBDslStoreSuppliers`).
   */
  static as<K = unknown, V = unknown>(
    storeNameOrSupplier:
      | string
      | KeyValueBytesStoreSupplier
      | VersionedBytesStoreSupplier
      | WindowBytesStoreSupplier
      | SessionBytesStoreSupplier
      | DslStoreSuppliers
  ): Materialized<K, V> {
    if (typeof storeNameOrSupplier === 'string') {
      if (!/^[a-zA-Z0-9._-]+$/.test(storeNameOrSupplier) || storeNameOrSupplier.length > 249) {
        throw new StreamsError(
          'ILLEGAL_ARGUMENT',
          `Store name "${storeNameOrSupplier}" is illegal: use 1 to 249 ASCII alphanumerics, '.', '_' and '-'`
        )
      }
      return new Materialized<K, V>({ storeName: storeNameOrSupplier })
    }
    if (isDslStoreSuppliers(storeNameOrSupplier)) return new Materialized<K, V>({ dslStoreSuppliers: storeNameOrSupplier })
    if (storeNameOrSupplier === null || typeof storeNameOrSupplier !== 'object' || typeof storeNameOrSupplier.get !== 'function') {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'Materialized.as() takes a store name, a bytes store supplier or DslStoreSuppliers')
    }
    if ('retentionPeriod' in storeNameOrSupplier)
      return new Materialized<K, V>({ storeName: storeNameOrSupplier.name, windowedStoreSupplier: storeNameOrSupplier })
    return new Materialized<K, V>({ storeName: storeNameOrSupplier.name, storeSupplier: storeNameOrSupplier })
  }

  /** Serdes only; the store gets a generated name and is not queryable. */
  static with<K, V>(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined): Materialized<K, V> {
    return new Materialized<K, V>({ keySerde, valueSerde })
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), keySerde })
  }

  /** A copy with another value serde. */
  withValueSerde(valueSerde: Serde<V>): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), valueSerde })
  }

  /** A copy with the caching layer (the default). */
  withCachingEnabled(): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), cachingEnabled: true })
  }

  /** A copy without the caching layer: every update goes downstream. */
  withCachingDisabled(): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), cachingEnabled: false })
  }

  /** A copy that logs to a changelog topic created with `config` as topic configs. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), loggingEnabled: true, logConfig: { ...config } })
  }

  /** A copy without a changelog: the store is not restored after a failure or a move. */
  withLoggingDisabled(): Materialized<K, V> {
    return new Materialized({ ...this.#fields(), loggingEnabled: false, logConfig: {} })
  }

  /**
   * A copy whose store is built by the given store backend (Kafka's `withStoreType`, KIP-954),
   * whatever the StreamsBuilder's `dslStoreSuppliers`. Throws ILLEGAL_ARGUMENT when this
   * Materialized already has a bytes store supplier (it fixes the store type), as Kafka does.
   */
  withStoreType(storeSuppliers: DslStoreSuppliers): Materialized<K, V> {
    if (!isDslStoreSuppliers(storeSuppliers)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        'Materialized.withStoreType() takes DslStoreSuppliers (keyValueStore, windowStore and sessionStore functions)'
      )
    }
    if (this.storeSupplier !== undefined || this.windowedStoreSupplier !== undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'Cannot set store type when store supplier is pre-configured.')
    }
    return new Materialized({ ...this.#fields(), dslStoreSuppliers: storeSuppliers })
  }

  /** The retention (ms) of a window or session store; at least the window size (sliding: twice the time difference, sessions: the gap) plus the grace period. */
  withRetention(retentionMs: number): Materialized<K, V> {
    if (typeof retentionMs !== 'number' || !Number.isSafeInteger(retentionMs)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `retention must be an integer number of milliseconds, got ${String(retentionMs)}`)
    }
    if (retentionMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Retention must not be negative.')
    return new Materialized({ ...this.#fields(), retentionMs })
  }

  #fields(): MaterializedFields<K, V> {
    return {
      storeName: this.storeName,
      storeSupplier: this.storeSupplier,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      cachingEnabled: this.cachingEnabled,
      loggingEnabled: this.loggingEnabled,
      logConfig: this.logConfig,
      retentionMs: this.retentionMs,
      windowedStoreSupplier: this.windowedStoreSupplier,
      dslStoreSuppliers: this.dslStoreSuppliers
    }
  }
}
