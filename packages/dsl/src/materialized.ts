/**
 * How a KTable's state store is built (Kafka Streams' `Materialized`): a store name (which makes
 * the store queryable) or a bytes store supplier, serdes, and the caching and logging toggles.
 * As in Kafka Streams, DSL stores cache and log by default. Immutable: `with*` returns a copy.
 */
import { StreamsError } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, Serde, SessionBytesStoreSupplier, WindowBytesStoreSupplier } from '@kstreams/core'

interface MaterializedFields<K, V> {
  readonly storeName?: string | undefined
  readonly storeSupplier?: KeyValueBytesStoreSupplier | undefined
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly cachingEnabled?: boolean
  readonly loggingEnabled?: boolean
  readonly logConfig?: Readonly<Record<string, string>>
  readonly retentionMs?: number | undefined
  readonly windowedStoreSupplier?: WindowBytesStoreSupplier | SessionBytesStoreSupplier | undefined
}

/**
 * How a DSL state store is built (Kafka Streams' Materialized): a name (which makes the store
 * queryable) or a bytes store supplier, serdes, caching and logging. Immutable.
 */
export class Materialized<K, V> {
  /** The store's name; undefined: a generated name (not queryable). */
  readonly storeName: string | undefined
  /** The bytes store supplier of a key-value store; undefined: the config's dslStoreSuppliers. */
  readonly storeSupplier: KeyValueBytesStoreSupplier | undefined
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
  }

  /** A named (and therefore queryable) store, or a store from the given bytes store supplier. */
  static as<K = unknown, V = unknown>(
    storeNameOrSupplier: string | KeyValueBytesStoreSupplier | WindowBytesStoreSupplier | SessionBytesStoreSupplier
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
    if (storeNameOrSupplier === null || typeof storeNameOrSupplier !== 'object' || typeof storeNameOrSupplier.get !== 'function') {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'Materialized.as() takes a store name or a KeyValueBytesStoreSupplier')
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
      windowedStoreSupplier: this.windowedStoreSupplier
    }
  }
}
