/**
 * Several grouped streams aggregated into one table (Kafka Streams' `CogroupedKStream`), made by
 * KGroupedStream.cogroup: each grouped stream brings its own aggregator, all of them fold into
 * the same aggregate per key (one store), and every update is forwarded through one merge node.
 * The store is timestamped, cached and logged unless the Materialized says otherwise; records
 * with a null key or value are skipped, as in KGroupedStream's aggregations.
 */
import { StreamsError } from '@kstreams/core'
import type { StateStore, StoreBuilder } from '@kstreams/core'
import type { Aggregator, Initializer } from './functions.js'
import { aggregateSupplier } from './internal/kstream-aggregate.js'
import { SessionWindowedCogroupedKStream } from './session-windowed-cogrouped-kstream.js'
import { SessionWindows } from './session-windows.js'
import type { SlidingWindows } from './sliding-windows.js'
import { TimeWindowedCogroupedKStream } from './time-windowed-cogrouped-kstream.js'
import type { Windows } from './windows.js'
import { buildCogroupAggregate } from './internal/cogroup-aggregate-builder.js'
import type { CogroupPattern, CogroupSource } from './internal/cogroup-aggregate-builder.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import { requireFunction } from './internal/windowed-args.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import type { KGroupedStream } from './kgrouped-stream.js'
import type { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'

/** Several grouped streams aggregated into one table (Kafka Streams' CogroupedKStream), made by KGroupedStream.cogroup. */
export class CogroupedKStream<K, VOut> {
  readonly #builder: InternalStreamsBuilder
  readonly #patterns: Array<CogroupPattern<K, VOut>> = []

  /** @internal */
  constructor(builder: InternalStreamsBuilder) {
    this.#builder = builder
  }

  /** Adds a grouped stream (same key type) with the aggregator folding its values into the aggregate. */
  cogroup<VIn>(groupedStream: KGroupedStream<K, VIn>, aggregator: Aggregator<K, VIn, VOut>): this {
    if (groupedStream === null || groupedStream === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', "groupedStream can't be null")
    requireFunction(aggregator, 'aggregator')
    const source = groupedStream.cogroupSource as CogroupSource<K, unknown>
    const existing = this.#patterns.findIndex(p => p.stream === groupedStream)
    const pattern = { stream: groupedStream, source, aggregator: aggregator as Aggregator<K, unknown, VOut> }
    // As Kafka Streams' LinkedHashMap: cogrouping a stream again replaces its aggregator in place.
    if (existing >= 0) this.#patterns[existing] = pattern
    else this.#patterns.push(pattern)
    return this
  }

  /** The aggregate of every cogrouped stream per key, started by `initializer`. */
  aggregate(initializer: Initializer<VOut>, named?: Named | Materialized<K, VOut>, materialized?: Materialized<K, VOut>): KTable<K, VOut> {
    requireFunction(initializer, 'initializer')
    const args = named instanceof Materialized ? { named: undefined, materialized: named } : { named, materialized }
    const m = new MaterializedInternal(args.materialized, this.#builder, 'COGROUPKSTREAM-AGGREGATE-')
    // Kafka Streams takes the key serde from the Materialized only; the grouped streams' key serde is used when it has none.
    const keySerde = m.keySerde ?? this.#patterns[0]?.source.grouped.keySerde
    return buildCogroupAggregate<K, K, VOut>(this.#builder, this.#patterns, {
      named: args.named,
      storeName: m.storeName,
      queryableStoreName: m.queryableStoreName,
      storeBuilder: m.storeBuilder(keySerde, m.valueSerde) as StoreBuilder<StateStore>,
      keySerde,
      valueSerde: m.valueSerde,
      createSupplier: aggregator => aggregateSupplier<K, unknown, VOut>(m.storeName, initializer, aggregator)
    })
  }

  /**
   * Windowed cogrouped aggregations: by fixed windows (`TimeWindows`, tumbling or hopping;
   * `UnlimitedWindows`; or any custom `Windows`), by sliding windows, or by sessions.
   */
  windowedBy(windows: Windows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>
  windowedBy(
    windows: Windows | SlidingWindows | SessionWindows
  ): TimeWindowedCogroupedKStream<K, VOut> | SessionWindowedCogroupedKStream<K, VOut> {
    return windows instanceof SessionWindows
      ? new SessionWindowedCogroupedKStream<K, VOut>(this.#builder, [...this.#patterns], windows)
      : new TimeWindowedCogroupedKStream<K, VOut>(this.#builder, [...this.#patterns], windows)
  }
}
