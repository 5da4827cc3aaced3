/**
 * A grouped stream (Kafka Streams' `KGroupedStream`): count, reduce and aggregate into a KTable
 * backed by a timestamped key-value store (in-memory, caching and logging on, unless the
 * Materialized says otherwise). When the grouping changed keys the records first go through a
 * repartition topic named `<Grouped name, else store name>-repartition` (shared by all the
 * aggregations of this grouped stream when the Grouped names it); null keys pass the topic and
 * the aggregation drops and counts them. Its nodes are named as Kafka Streams names them.
 */
import { Serdes } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import type { Aggregator, Initializer, Reducer } from './functions.js'
import type { Grouped } from './grouped.js'
import { aggregateSupplier, reduceSupplier } from './internal/kstream-aggregate.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { groupedRepartitionSource } from './internal/grouped-repartition.js'
import type { SharedGroupedRepartition } from './internal/grouped-repartition.js'
import { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import { CogroupedKStream } from './cogrouped-kstream.js'
import type { CogroupSource } from './internal/cogroup-aggregate-builder.js'
import { SessionWindowedKStream } from './session-windowed-kstream.js'
import { SessionWindows } from './session-windows.js'
import type { SlidingWindows } from './sliding-windows.js'
import { TimeWindowedKStream } from './time-windowed-kstream.js'
import type { Windows } from './windows.js'

/** A grouped stream (Kafka Streams' KGroupedStream): count, reduce and aggregate per key into a KTable, or window first. */
export class KGroupedStream<K, V> {
  readonly #builder: InternalStreamsBuilder
  readonly #name: string
  readonly #grouped: Grouped<K, V>
  readonly #repartitionRequired: boolean
  readonly #repartition: SharedGroupedRepartition = { sourceName: undefined }

  /** @internal */
  constructor(builder: InternalStreamsBuilder, name: string, grouped: Grouped<K, V>, repartitionRequired: boolean) {
    this.#builder = builder
    this.#name = name
    this.#grouped = grouped
    this.#repartitionRequired = repartitionRequired
  }

  /** The number of records per key (records with a null key or value are skipped). */
  count(named?: Named | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number> {
    const args = splitArgs(named, materialized)
    // Kafka Streams burns one name for a Materialized without a store name (kept for topology compatibility).
    if (args.materialized !== undefined && args.materialized.storeName === undefined) this.#builder.newStoreName('KSTREAM-AGGREGATE-')
    const m = new MaterializedInternal(args.materialized, this.#builder, 'KSTREAM-AGGREGATE-')
    const name = this.#builder.nameOrGenerate(args.named?.name, 'KSTREAM-AGGREGATE-')
    const supplier = aggregateSupplier<K, V, number>(
      m.storeName,
      () => 0,
      (_key, _value, count) => count + 1
    )
    return this.#doAggregate(supplier, name, m, Serdes.Long())
  }

  /** Combines the values per key; the first value of a key is its initial result. */
  reduce(reducer: Reducer<V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    const args = splitArgs(named, materialized)
    const m = new MaterializedInternal(args.materialized, this.#builder, 'KSTREAM-REDUCE-')
    const name = this.#builder.nameOrGenerate(args.named?.name, 'KSTREAM-REDUCE-')
    return this.#doAggregate(reduceSupplier<K, V>(m.storeName, reducer), name, m, this.#grouped.valueSerde)
  }

  /** Folds the values per key into an aggregate started by `initializer`. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    named?: Named | Materialized<K, VA>,
    materialized?: Materialized<K, VA>
  ): KTable<K, VA> {
    const args = splitArgs(named, materialized)
    const m = new MaterializedInternal(args.materialized, this.#builder, 'KSTREAM-AGGREGATE-')
    const name = this.#builder.nameOrGenerate(args.named?.name, 'KSTREAM-AGGREGATE-')
    return this.#doAggregate(aggregateSupplier<K, V, VA>(m.storeName, initializer, aggregator), name, m, undefined)
  }

  /**
   * Windowed aggregations: by fixed windows (`TimeWindows`, tumbling or hopping;
   * `UnlimitedWindows`; or any custom `Windows`), by sliding windows, or by sessions.
   */
  windowedBy(windows: Windows | SlidingWindows): TimeWindowedKStream<K, V>
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>
  windowedBy(windows: Windows | SlidingWindows | SessionWindows): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    const source = {
      builder: this.#builder,
      name: this.#name,
      grouped: this.#grouped,
      repartitionRequired: this.#repartitionRequired,
      repartition: this.#repartition
    }
    return windows instanceof SessionWindows ? new SessionWindowedKStream(source, windows) : new TimeWindowedKStream(source, windows)
  }

  /** Starts a cogrouping of this grouped stream with others (`CogroupedKStream.cogroup`), each with its aggregator. */
  cogroup<VOut>(aggregator: Aggregator<K, V, VOut>): CogroupedKStream<K, VOut> {
    return new CogroupedKStream<K, VOut>(this.#builder).cogroup(this, aggregator)
  }

  /** @internal What a cogrouping needs of this grouped stream. */
  get cogroupSource(): CogroupSource<K, V> {
    return { builder: this.#builder, name: this.#name, grouped: this.#grouped, repartitionRequired: this.#repartitionRequired }
  }

  #doAggregate<VA>(
    supplier: KTableProcessorSupplier<K, V, K, VA>,
    name: string,
    m: MaterializedInternal<K, VA>,
    defaultValueSerde: Serde<VA> | undefined
  ): KTable<K, VA> {
    const builder = this.#builder
    const keySerde = m.keySerde ?? this.#grouped.keySerde
    const valueSerde = m.valueSerde ?? defaultValueSerde
    const parent = this.#repartitionRequired
      ? groupedRepartitionSource({ builder, name: this.#name, grouped: this.#grouped, shared: this.#repartition }, m.storeName)
      : this.#name
    builder.topology.addProcessor(name, () => supplier.get(), parent)
    builder.topology.addStateStore(m.storeBuilder(keySerde, valueSerde), name)
    return new KTable<K, VA>(
      builder,
      name,
      keySerde,
      valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, VA>,
      m.queryableStoreName
    )
  }
}

function splitArgs<K, V>(
  named: Named | Materialized<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): { named: Named | undefined; materialized: Materialized<K, V> | undefined } {
  if (named instanceof Materialized) return { named: undefined, materialized: named }
  return { named, materialized }
}
