/**
 * A grouped stream windowed by sessions (Kafka Streams' `SessionWindowedKStream` and
 * SessionWindowedKStreamImpl): count, reduce and aggregate per key and session into a KTable keyed
 * by `Windowed<K>` (session windows), backed by a session store (retention = the Materialized's,
 * else gap + grace; logging on and caching on by default, caching off when emitting on window
 * close). Merged sessions are deleted with a tombstone. Nodes and stores are named as Kafka
 * Streams names them (KSTREAM-AGGREGATE- / KSTREAM-REDUCE-).
 */
import { Serdes, StreamsError, WindowedSerdes } from '@kstreams/core'
import type { Serde, Windowed } from '@kstreams/core'
import { EmitStrategy } from './emit-strategy.js'
import type { Aggregator, Initializer, Merger, Reducer } from './functions.js'
import { sessionWindowAggregateSupplier } from './internal/kstream-session-window-aggregate.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { addWindowedAggregate } from './internal/windowed-aggregate-builder.js'
import type { GroupedStreamSource } from './internal/windowed-aggregate-builder.js'
import { requireFunction, splitArgs } from './internal/windowed-args.js'
import { WindowedMaterializedInternal } from './internal/windowed-materialized-internal.js'
import type { KTable } from './ktable.js'
import type { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { SessionWindows } from './session-windows.js'

/** A grouped stream windowed by sessions (Kafka Streams' SessionWindowedKStream): aggregations per key and session. */
export class SessionWindowedKStream<K, V> {
  readonly #source: GroupedStreamSource<K, V>
  readonly #windows: SessionWindows
  #emitStrategy = EmitStrategy.onWindowUpdate()

  /** @internal */
  constructor(source: GroupedStreamSource<K, V>, windows: SessionWindows) {
    this.#source = source
    this.#windows = windows
  }

  /** When results are emitted: on every session update (the default) or when sessions close. */
  emitStrategy(emitStrategy: EmitStrategy): this {
    if (!(emitStrategy instanceof EmitStrategy)) throw new StreamsError('ILLEGAL_ARGUMENT', "emitStrategy can't be null")
    this.#emitStrategy = emitStrategy
    return this
  }

  /** The number of records per key and session (a record with a null value counts). */
  count(named?: Named | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number> {
    const args = splitArgs(named, materialized)
    // Kafka Streams burns a name here for compatibility when given an unnamed Materialized.
    if (args.materialized !== undefined && args.materialized.storeName === undefined)
      this.#source.builder.newStoreName('KSTREAM-AGGREGATE-')
    return this.#aggregate<number>(
      'KSTREAM-AGGREGATE-',
      args.named,
      args.materialized,
      () => 0,
      (_key, _value, count) => count + 1,
      (_key, one, two) => one + two,
      Serdes.Long()
    )
  }

  /** Combines the values per key and session; merged sessions are reduced together. */
  reduce(reducer: Reducer<V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    requireFunction(reducer, 'reducer')
    const args = splitArgs(named, materialized)
    const aggregator: Aggregator<K, V, V> = (_key, value, aggregate) => (aggregate === null ? value : reducer(aggregate, value))
    return this.#aggregate<V>(
      'KSTREAM-REDUCE-',
      args.named,
      args.materialized,
      () => null as V,
      aggregator,
      (key, one, two) => aggregator(key, two, one),
      this.#source.grouped.valueSerde
    )
  }

  /** Folds the values per key and session into an aggregate started by `initializer`; `sessionMerger` combines the aggregates of merged sessions. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    sessionMerger: Merger<K, VA>,
    named?: Named | Materialized<K, VA>,
    materialized?: Materialized<K, VA>
  ): KTable<Windowed<K>, VA> {
    requireFunction(initializer, 'initializer')
    requireFunction(aggregator, 'aggregator')
    requireFunction(sessionMerger, 'sessionMerger')
    const args = splitArgs(named, materialized)
    return this.#aggregate<VA>('KSTREAM-AGGREGATE-', args.named, args.materialized, initializer, aggregator, sessionMerger, undefined)
  }

  #aggregate<VA>(
    prefix: string,
    named: Named | undefined,
    materialized: Materialized<K, VA> | undefined,
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    merger: Merger<K, VA>,
    defaultValueSerde: Serde<VA> | undefined
  ): KTable<Windowed<K>, VA> {
    const builder = this.#source.builder
    const windows = this.#windows
    const gap = windows.inactivityGap()
    const grace = windows.gracePeriodMs()
    const m = new WindowedMaterializedInternal<K, VA>(materialized, builder, prefix, {
      minimumMs: gap + grace,
      storeKind: 'session store',
      rule: 'the session inactivity gap plus the grace period',
      parts: `gap=[${gap}], grace=[${grace}]`
    })
    const processorName = builder.nameOrGenerate(named?.name, prefix)
    const keySerde = m.keySerde ?? this.#source.grouped.keySerde
    const valueSerde = m.valueSerde ?? defaultValueSerde
    const emitStrategy = this.#emitStrategy
    const supplier = sessionWindowAggregateSupplier<K, V, VA>({
      windows,
      storeName: m.storeName,
      emitStrategy,
      initializer,
      aggregator,
      merger,
      retentionMs: m.retentionMs
    })
    return addWindowedAggregate<K, V, VA>(this.#source, {
      processorName,
      storeName: m.storeName,
      queryableStoreName: m.queryableStoreName,
      supplier: supplier as unknown as KTableProcessorSupplier<unknown, unknown, Windowed<K>, VA>,
      storeBuilder: m.sessionStoreBuilder(keySerde, valueSerde, emitStrategy.type !== 'ON_WINDOW_CLOSE'),
      keySerde: keySerde === undefined ? undefined : WindowedSerdes.sessionWindowedSerdeFrom(keySerde),
      valueSerde
    })
  }
}
