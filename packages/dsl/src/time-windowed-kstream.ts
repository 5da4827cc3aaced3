/**
 * A grouped stream windowed by time or sliding windows (Kafka Streams' `TimeWindowedKStream`,
 * TimeWindowedKStreamImpl and SlidingWindowedKStreamImpl): count, reduce and aggregate per key
 * and window into a KTable keyed by `Windowed<K>`, backed by a timestamped window store (retention
 * = the Materialized's, else size + grace, sliding: 2 * time difference + grace; caching and
 * logging on by default). Results are emitted on every window update, or once per window when it
 * closes (`emitStrategy(EmitStrategy.onWindowClose())`). Nodes and stores are named as Kafka
 * Streams names them (KSTREAM-AGGREGATE- / KSTREAM-REDUCE-).
 */
import { Serdes, StreamsError, WindowedSerdes } from '@kstreams/core'
import type { Serde, Windowed } from '@kstreams/core'
import { EmitStrategy } from './emit-strategy.js'
import type { Aggregator, Initializer, Reducer } from './functions.js'
import { slidingWindowAggregateSupplier } from './internal/kstream-sliding-window-aggregate.js'
import { windowAggregateSupplier } from './internal/kstream-window-aggregate.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { addWindowedAggregate } from './internal/windowed-aggregate-builder.js'
import type { GroupedStreamSource } from './internal/windowed-aggregate-builder.js'
import { requireFunction, splitArgs } from './internal/windowed-args.js'
import { WindowedMaterializedInternal } from './internal/windowed-materialized-internal.js'
import type { RetentionRule } from './internal/windowed-materialized-internal.js'
import type { KTable } from './ktable.js'
import type { Materialized } from './materialized.js'
import type { Named } from './named.js'
import { SlidingWindows } from './sliding-windows.js'
import { UnlimitedWindows } from './unlimited-windows.js'
import type { Windows } from './windows.js'

/** A grouped stream windowed by time or sliding windows (Kafka Streams' TimeWindowedKStream): aggregations per key and window. */
export class TimeWindowedKStream<K, V> {
  readonly #source: GroupedStreamSource<K, V>
  readonly #windows: Windows | SlidingWindows
  #emitStrategy = EmitStrategy.onWindowUpdate()

  /** @internal */
  constructor(source: GroupedStreamSource<K, V>, windows: Windows | SlidingWindows) {
    this.#source = source
    this.#windows = windows
  }

  /**
   * When results are emitted: on every window update (the default) or when windows close; only
   * `TimeWindows` and `SlidingWindows` close (UnlimitedWindows or custom Windows with
   * onWindowClose: an ILLEGAL_ARGUMENT error).
   */
  emitStrategy(emitStrategy: EmitStrategy): this {
    if (!(emitStrategy instanceof EmitStrategy)) throw new StreamsError('ILLEGAL_ARGUMENT', "emitStrategy can't be null")
    if (emitStrategy.type === 'ON_WINDOW_CLOSE' && this.#windows instanceof UnlimitedWindows) {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'ON_WINDOW_CLOSE emit strategy cannot be used for UnlimitedWindows')
    }
    this.#emitStrategy = emitStrategy
    return this
  }

  /** The number of records per key and window (a record with a null value counts). */
  count(named?: Named | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number> {
    const args = splitArgs(named, materialized)
    // Kafka Streams burns a name here for compatibility when given an unnamed Materialized (not for sliding windows).
    if (args.materialized !== undefined && args.materialized.storeName === undefined && !(this.#windows instanceof SlidingWindows)) {
      this.#source.builder.newStoreName('KSTREAM-AGGREGATE-')
    }
    return this.#aggregate<number>(
      'KSTREAM-AGGREGATE-',
      args.named,
      args.materialized,
      () => 0,
      (_key, _value, count) => count + 1,
      Serdes.Long()
    )
  }

  /** Combines the values per key and window; the first value of a window is its initial result. */
  reduce(reducer: Reducer<V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    requireFunction(reducer, 'reducer')
    const args = splitArgs(named, materialized)
    return this.#aggregate<V>(
      'KSTREAM-REDUCE-',
      args.named,
      args.materialized,
      () => null as V,
      (_key, value, aggregate) => (aggregate === null ? value : reducer(aggregate, value)),
      this.#source.grouped.valueSerde
    )
  }

  /** Folds the values per key and window into an aggregate started by `initializer`. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    named?: Named | Materialized<K, VA>,
    materialized?: Materialized<K, VA>
  ): KTable<Windowed<K>, VA> {
    requireFunction(initializer, 'initializer')
    requireFunction(aggregator, 'aggregator')
    const args = splitArgs(named, materialized)
    return this.#aggregate<VA>('KSTREAM-AGGREGATE-', args.named, args.materialized, initializer, aggregator, undefined)
  }

  #aggregate<VA>(
    prefix: string,
    named: Named | undefined,
    materialized: Materialized<K, VA> | undefined,
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    defaultValueSerde: Serde<VA> | undefined
  ): KTable<Windowed<K>, VA> {
    const builder = this.#source.builder
    const windows = this.#windows
    const sliding = windows instanceof SlidingWindows
    const m = new WindowedMaterializedInternal<K, VA>(materialized, builder, prefix, retentionRule(windows))
    const processorName = builder.nameOrGenerate(named?.name, prefix)
    const keySerde = m.keySerde ?? this.#source.grouped.keySerde
    const valueSerde = m.valueSerde ?? defaultValueSerde
    const windowSize = sliding ? windows.timeDifferenceMs() : windows.size()
    const supplier = sliding
      ? slidingWindowAggregateSupplier<K, V, VA>(windows, m.storeName, this.#emitStrategy, initializer, aggregator, m.retentionMs)
      : windowAggregateSupplier<K, V, VA>(windows, m.storeName, this.#emitStrategy, initializer, aggregator, m.retentionMs)
    return addWindowedAggregate<K, V, VA>(this.#source, {
      processorName,
      storeName: m.storeName,
      queryableStoreName: m.queryableStoreName,
      supplier: supplier as unknown as KTableProcessorSupplier<unknown, unknown, Windowed<K>, VA>,
      // Sliding windows never cache when emitting on close (Kafka's SlidingWindowStoreMaterializer).
      storeBuilder: m.windowStoreBuilder(keySerde, valueSerde, windowSize, !(sliding && this.#emitStrategy.type === 'ON_WINDOW_CLOSE')),
      keySerde: keySerde === undefined ? undefined : WindowedSerdes.timeWindowedSerdeFrom(keySerde, windowSize),
      valueSerde
    })
  }
}

function retentionRule(windows: Windows | SlidingWindows): RetentionRule {
  const grace = windows.gracePeriodMs()
  if (windows instanceof SlidingWindows) {
    const d = windows.timeDifferenceMs()
    return {
      minimumMs: 2 * d + grace,
      storeKind: 'window store',
      rule: '2 * time difference plus the grace period',
      parts: `time difference=[${d}], grace=[${grace}]`
    }
  }
  const size = windows.size()
  return {
    minimumMs: size + grace,
    storeKind: 'window store',
    rule: 'its window size plus the grace period',
    parts: `size=[${size}], grace=[${grace}]`
  }
}
