/**
 * A Materialized resolved for a windowed aggregation (Kafka Streams' WindowStoreMaterializer,
 * SlidingWindowStoreMaterializer and SessionStoreMaterializer): the store name (the user's, else
 * generated with the operator's prefix when this object is created), the retention (the
 * Materialized's, else the minimum the windows need; a smaller one is an ILLEGAL_ARGUMENT error,
 * raised when the operator is added), and the timestamped window store or session store builder
 * with the DSL defaults (the Materialized's store type, else the builder's DslStoreSuppliers,
 * unless a supplier is given; caching and logging on unless turned off). @internal
 */
import { StreamsError } from '@kstreams/core'
import type {
  Serde,
  SessionBytesStoreSupplier,
  SessionStoreBuilder,
  TimestampedWindowStoreBuilder,
  WindowBytesStoreSupplier
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import type { Materialized } from '../materialized.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'

/** The minimum retention the windows need, and what to say when the Materialized's is smaller. */
export interface RetentionRule {
  readonly minimumMs: number
  /** The store kind and the rule, e.g. "window store", "its window size plus the grace period". */
  readonly storeKind: string
  readonly rule: string
  /** The parts of the minimum, for the message, e.g. "size=[500], grace=[0]". */
  readonly parts: string
}

export class WindowedMaterializedInternal<K, V> {
  readonly storeName: string
  /** The store name when the user named the store (only then is it queryable). */
  readonly queryableStoreName: string | undefined
  readonly retentionMs: number
  readonly #materialized: Materialized<K, V> | undefined
  readonly #builder: InternalStreamsBuilder

  constructor(
    materialized: Materialized<K, V> | undefined,
    builder: InternalStreamsBuilder,
    generatedStorePrefix: string,
    retention: RetentionRule
  ) {
    this.#materialized = materialized
    this.#builder = builder
    this.queryableStoreName = materialized?.storeName
    this.storeName = materialized?.storeName ?? builder.newStoreName(generatedStorePrefix)
    this.retentionMs = materialized?.retentionMs ?? retention.minimumMs
    if (retention.minimumMs > this.retentionMs) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The retention period of the ${retention.storeKind} ${this.storeName} must be no smaller than ${retention.rule}. Got ${retention.parts}, retention=[${this.retentionMs}]`
      )
    }
  }

  get keySerde(): Serde<K> | undefined {
    return this.#materialized?.keySerde
  }
  get valueSerde(): Serde<V> | undefined {
    return this.#materialized?.valueSerde
  }

  /** A timestamped window store of windows of `windowSizeMs`; `caching` false turns caching off whatever the Materialized says. */
  windowStoreBuilder(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    windowSizeMs: number,
    caching: boolean
  ): TimestampedWindowStoreBuilder<K, V> {
    const m = this.#materialized
    const given = m?.windowedStoreSupplier
    if (given !== undefined && !('windowSize' in given)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Store "${this.storeName}": a time-windowed aggregation needs a WindowBytesStoreSupplier, got a session store supplier`
      )
    }
    const supplier: WindowBytesStoreSupplier =
      given ??
      (m?.dslStoreSuppliers ?? this.#builder.storeSuppliers).windowStore({
        name: this.storeName,
        retentionPeriodMs: this.retentionMs,
        windowSizeMs,
        retainDuplicates: false,
        isTimestamped: true
      })
    const builder = Stores.timestampedWindowStoreBuilder(supplier, m?.keySerde ?? keySerde, m?.valueSerde ?? valueSerde)
    this.#configure(builder, caching)
    return builder
  }

  /** A session store; `caching` false turns caching off whatever the Materialized says. */
  sessionStoreBuilder(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined, caching: boolean): SessionStoreBuilder<K, V> {
    const m = this.#materialized
    const given = m?.windowedStoreSupplier
    if (given !== undefined && 'windowSize' in given) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Store "${this.storeName}": a session-windowed aggregation needs a SessionBytesStoreSupplier, got a window store supplier`
      )
    }
    const supplier: SessionBytesStoreSupplier =
      given ??
      (m?.dslStoreSuppliers ?? this.#builder.storeSuppliers).sessionStore({ name: this.storeName, retentionPeriodMs: this.retentionMs })
    const builder = Stores.sessionStoreBuilder(supplier, m?.keySerde ?? keySerde, m?.valueSerde ?? valueSerde)
    this.#configure(builder, caching)
    return builder
  }

  #configure(builder: TimestampedWindowStoreBuilder<K, V> | SessionStoreBuilder<K, V>, caching: boolean): void {
    const m = this.#materialized
    if (caching && m?.cachingEnabled !== false) builder.withCachingEnabled()
    else builder.withCachingDisabled()
    if (m?.loggingEnabled === false) builder.withLoggingDisabled()
    else builder.withLoggingEnabled(m?.logConfig ?? {})
  }
}
