/**
 * Adds a windowed aggregation to the topology (Kafka Streams' GroupedStreamAggregateBuilder, as
 * used by the windowed streams): the repartition topic when the grouping changed keys (named
 * `<Grouped name, else store name>-repartition`, as KGroupedStream's aggregations), the
 * aggregation processor and its store, and the resulting windowed KTable. @internal
 */
import type { Serde, StateStore, StoreBuilder, Windowed } from '@kstreams/core'
import type { Grouped } from '../grouped.js'
import { KTable } from '../ktable.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { groupedRepartitionSource } from './grouped-repartition.js'
import type { SharedGroupedRepartition } from './grouped-repartition.js'

/** What a windowed stream knows of the grouped stream it came from. */
export interface GroupedStreamSource<K, V> {
  readonly builder: InternalStreamsBuilder
  readonly name: string
  readonly grouped: Grouped<K, V>
  readonly repartitionRequired: boolean
  /** The repartition topic the grouped stream's aggregations share (see grouped-repartition.ts). */
  readonly repartition?: SharedGroupedRepartition | undefined
}

export interface WindowedAggregate<K, VA> {
  readonly processorName: string
  readonly storeName: string
  readonly queryableStoreName: string | undefined
  readonly supplier: KTableProcessorSupplier<unknown, unknown, Windowed<K>, VA>
  readonly storeBuilder: StoreBuilder<StateStore>
  readonly keySerde: Serde<Windowed<K>> | undefined
  readonly valueSerde: Serde<VA> | undefined
}

export function addWindowedAggregate<K, V, VA>(
  source: GroupedStreamSource<K, V>,
  aggregate: WindowedAggregate<K, VA>
): KTable<Windowed<K>, VA> {
  const { builder, grouped } = source
  const parent = source.repartitionRequired
    ? groupedRepartitionSource({ builder, name: source.name, grouped, shared: source.repartition }, aggregate.storeName)
    : source.name
  const supplier = aggregate.supplier
  builder.topology.addProcessor(aggregate.processorName, () => supplier.get(), parent)
  builder.topology.addStateStore(aggregate.storeBuilder, aggregate.processorName)
  return new KTable<Windowed<K>, VA>(
    builder,
    aggregate.processorName,
    aggregate.keySerde,
    aggregate.valueSerde,
    supplier,
    aggregate.queryableStoreName
  )
}
