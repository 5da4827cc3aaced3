/**
 * A re-grouped table (Kafka Streams' `KGroupedTable`), made by KTable.groupBy: count, reduce and
 * aggregate with an adder and a subtractor into a new KTable. The selected updates always go
 * through the repartition topic `<Grouped name, else store name>-repartition` (no null-key
 * filter: the select step never sends null keys), as `Change` values in Kafka Streams' format.
 * Node names follow Kafka Streams: the store name, then `-sink`/KSTREAM-SINK-, `-source`/
 * KSTREAM-SOURCE-, then the operator (KTABLE-AGGREGATE-/KTABLE-REDUCE- or the Named name).
 * When the Grouped names the topic, later aggregations of this grouped table read the topic the
 * first one created (Kafka's KGroupedTableImpl reuses its repartition node; the indexes are
 * still drawn).
 * The result store is timestamped, cached and logged unless the Materialized says otherwise.
 */
import { Serdes } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import { ADD_INTERNAL_TOPIC } from '@kstreams/core/internal'
import type { Aggregator, Initializer, Reducer } from './functions.js'
import type { ChangedSerde } from './internal/changed-serde.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import { requireFunction } from './internal/windowed-args.js'
import { tableAggregateSupplier, tableReduceSupplier } from './internal/ktable-aggregate.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { Change } from './change.js'

const AGGREGATE_NAME = 'KTABLE-AGGREGATE-'
const REDUCE_NAME = 'KTABLE-REDUCE-'

/**
 * A re-grouped table (Kafka Streams' KGroupedTable), made by KTable.groupBy: count, reduce and
 * aggregate with an adder and a subtractor.
 */
export class KGroupedTable<K, V> {
  readonly #builder: InternalStreamsBuilder
  readonly #selectName: string
  readonly #repartitionName: string | undefined
  readonly #keySerde: Serde<K> | undefined
  readonly #valueSerde: Serde<V> | undefined
  readonly #changedSerde: ChangedSerde<V>
  /** The source of the repartition topic the first aggregation created. */
  #repartitionSource: string | undefined

  /** @internal */
  constructor(
    builder: InternalStreamsBuilder,
    selectName: string,
    repartitionName: string | undefined,
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    changedSerde: ChangedSerde<V>
  ) {
    this.#builder = builder
    this.#selectName = selectName
    this.#repartitionName = repartitionName
    this.#keySerde = keySerde
    this.#valueSerde = valueSerde
    this.#changedSerde = changedSerde
  }

  /** The number of values per key: +1 for every added value, -1 for every removed one. */
  count(named?: Named | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number> {
    const args = splitArgs(named, materialized)
    const m = new MaterializedInternal(args.materialized, this.#builder, AGGREGATE_NAME)
    const supplier = tableAggregateSupplier<K, V, number>(
      m.storeName,
      () => 0,
      (_k, _v, agg) => agg + 1,
      (_k, _v, agg) => agg - 1,
      this.#changedSerde
    )
    return this.#doAggregate(supplier, args.named, AGGREGATE_NAME, m, Serdes.Long())
  }

  /** Combines the values per key: `adder` for new values, `subtractor` for removed ones. */
  reduce(adder: Reducer<V>, subtractor: Reducer<V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    requireFunction(adder, 'adder')
    requireFunction(subtractor, 'subtractor')
    const args = splitArgs(named, materialized)
    const m = new MaterializedInternal(args.materialized, this.#builder, REDUCE_NAME)
    const supplier = tableReduceSupplier<K, V>(m.storeName, adder, subtractor, this.#changedSerde)
    return this.#doAggregate(supplier, args.named, REDUCE_NAME, m, this.#valueSerde)
  }

  /** Folds the values per key into an aggregate started by `initializer`; `subtractor` removes a value. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    named?: Named | Materialized<K, VA>,
    materialized?: Materialized<K, VA>
  ): KTable<K, VA> {
    requireFunction(initializer, 'initializer')
    requireFunction(adder, 'adder')
    requireFunction(subtractor, 'subtractor')
    const args = splitArgs(named, materialized)
    const m = new MaterializedInternal(args.materialized, this.#builder, AGGREGATE_NAME)
    const supplier = tableAggregateSupplier<K, V, VA>(m.storeName, initializer, adder, subtractor, this.#changedSerde)
    return this.#doAggregate(supplier, args.named, AGGREGATE_NAME, m, undefined)
  }

  #doAggregate<VA>(
    supplier: KTableProcessorSupplier<K, Change<V>, K, VA>,
    named: Named | undefined,
    prefix: string,
    m: MaterializedInternal<K, VA>,
    defaultValueSerde: Serde<VA> | undefined
  ): KTable<K, VA> {
    const builder = this.#builder
    // Kafka Streams draws the sink and source indexes even when the operator is named.
    const generatedSink = builder.newProcessorName('KSTREAM-SINK-')
    const sinkName = named === undefined ? generatedSink : named.name + '-sink'
    const generatedSource = builder.newProcessorName('KSTREAM-SOURCE-')
    const sourceName = named === undefined ? generatedSource : named.name + '-source'
    const name = builder.nameOrGenerate(named?.name, prefix)
    const topic = (this.#repartitionName ?? m.storeName) + '-repartition'
    const keySerde = m.keySerde ?? this.#keySerde
    const valueSerde = m.valueSerde ?? defaultValueSerde
    const topology = builder.topology
    const parent =
      this.#repartitionName !== undefined && this.#repartitionSource !== undefined
        ? this.#repartitionSource
        : this.#addRepartition(topic, sinkName, sourceName)
    topology.addProcessor(name, () => supplier.get(), parent)
    topology.addStateStore(m.storeBuilder(keySerde, valueSerde), name)
    return new KTable<K, VA>(
      builder,
      name,
      keySerde,
      valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, VA>,
      m.queryableStoreName
    )
  }

  #addRepartition(topic: string, sinkName: string, sourceName: string): string {
    const topology = this.#builder.topology
    topology[ADD_INTERNAL_TOPIC](topic)
    topology.addSink<K, Change<V>>(
      sinkName,
      topic,
      {
        ...(this.#keySerde === undefined ? {} : { keySerializer: this.#keySerde }),
        valueSerializer: this.#changedSerde
      },
      this.#selectName
    )
    topology.addSource(sourceName, topic, {
      ...(this.#keySerde === undefined ? {} : { keyDeserializer: this.#keySerde }),
      valueDeserializer: this.#changedSerde
    })
    this.#repartitionSource = sourceName
    return sourceName
  }
}

function splitArgs<K, V>(
  named: Named | Materialized<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): { named: Named | undefined; materialized: Materialized<K, V> | undefined } {
  if (named instanceof Materialized) return { named: undefined, materialized: named }
  return { named, materialized }
}
