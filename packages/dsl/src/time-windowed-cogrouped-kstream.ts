/**
 * Cogrouped streams windowed by time or sliding windows (Kafka Streams'
 * `TimeWindowedCogroupedKStream`): every grouped stream's aggregator folds into one aggregate per
 * key and window, in one timestamped window store (retention = the Materialized's, else size +
 * grace, sliding: 2 * time difference + grace), emitted on every window update. Nodes are named
 * as CogroupedKStream's (COGROUPKSTREAM-AGGREGATE- per stream, COGROUPKSTREAM-MERGE-).
 */
import { WindowedSerdes } from '@kstreams/core'
import type { StateStore, StoreBuilder, Windowed } from '@kstreams/core'
import { EmitStrategy } from './emit-strategy.js'
import type { Initializer } from './functions.js'
import { buildCogroupAggregate } from './internal/cogroup-aggregate-builder.js'
import type { CogroupPattern } from './internal/cogroup-aggregate-builder.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import { slidingWindowAggregateSupplier } from './internal/kstream-sliding-window-aggregate.js'
import { windowAggregateSupplier } from './internal/kstream-window-aggregate.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { WindowedMaterializedInternal } from './internal/windowed-materialized-internal.js'
import type { RetentionRule } from './internal/windowed-materialized-internal.js'
import type { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import { SlidingWindows } from './sliding-windows.js'
import type { Windows } from './windows.js'

/** Cogrouped streams windowed by time or sliding windows (Kafka Streams' TimeWindowedCogroupedKStream). */
export class TimeWindowedCogroupedKStream<K, VOut> {
  readonly #builder: InternalStreamsBuilder
  readonly #patterns: ReadonlyArray<CogroupPattern<K, VOut>>
  readonly #windows: Windows | SlidingWindows

  /** @internal */
  constructor(builder: InternalStreamsBuilder, patterns: ReadonlyArray<CogroupPattern<K, VOut>>, windows: Windows | SlidingWindows) {
    this.#builder = builder
    this.#patterns = patterns
    this.#windows = windows
  }

  /** The aggregate of every cogrouped stream per key and window, started by `initializer`. */
  aggregate(
    initializer: Initializer<VOut>,
    named?: Named | Materialized<K, VOut>,
    materialized?: Materialized<K, VOut>
  ): KTable<Windowed<K>, VOut> {
    const args = named instanceof Materialized ? { named: undefined, materialized: named } : { named, materialized }
    const windows = this.#windows
    const sliding = windows instanceof SlidingWindows
    const m = new WindowedMaterializedInternal<K, VOut>(
      args.materialized,
      this.#builder,
      'COGROUPKSTREAM-AGGREGATE-',
      retentionRule(windows)
    )
    const windowSize = sliding ? windows.timeDifferenceMs() : windows.size()
    const keySerde = m.keySerde ?? this.#patterns[0]?.source.grouped.keySerde
    const emitStrategy = EmitStrategy.onWindowUpdate()
    return buildCogroupAggregate<K, Windowed<K>, VOut>(this.#builder, this.#patterns, {
      named: args.named,
      storeName: m.storeName,
      queryableStoreName: m.queryableStoreName,
      storeBuilder: m.windowStoreBuilder(keySerde, m.valueSerde, windowSize, true) as unknown as StoreBuilder<StateStore>,
      keySerde: keySerde === undefined ? undefined : WindowedSerdes.timeWindowedSerdeFrom(keySerde, windowSize),
      valueSerde: m.valueSerde,
      createSupplier: aggregator =>
        (sliding
          ? slidingWindowAggregateSupplier<K, unknown, VOut>(windows, m.storeName, emitStrategy, initializer, aggregator, m.retentionMs)
          : windowAggregateSupplier<K, unknown, VOut>(
              windows,
              m.storeName,
              emitStrategy,
              initializer,
              aggregator,
              m.retentionMs
            )) as KTableProcessorSupplier<K, unknown, Windowed<K>, VOut>
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
