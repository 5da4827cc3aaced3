/**
 * The repartition topic in front of a KGroupedStream's aggregations (Kafka Streams'
 * GroupedStreamAggregateBuilder.build): `<Grouped name, else store name>-repartition`. Every
 * aggregation of one KGroupedStream (windowed ones included) uses up the sink, filter and source
 * indexes again, but when the Grouped names the topic the later aggregations read the topic the
 * first one created instead of adding another (a generated name gives each aggregation its own).
 * @internal
 */
import type { Serde } from '@kstreams/core'
import type { Grouped } from '../grouped.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { createRepartitionedSource } from './repartition.js'

/** Held by one KGroupedStream and the windowed streams made from it. */
export interface SharedGroupedRepartition {
  sourceName: string | undefined
}

export interface GroupedRepartitionArgs<K, V> {
  readonly builder: InternalStreamsBuilder
  /** The grouped stream's node. */
  readonly name: string
  readonly grouped: Grouped<K, V>
  readonly shared: SharedGroupedRepartition | undefined
}

/** Returns the node the aggregation reads: the source of the (new or shared) repartition topic. */
export function groupedRepartitionSource<K, V>(args: GroupedRepartitionArgs<K, V>, storeName: string): string {
  const { builder, grouped, shared } = args
  const keySerde: Serde<K> | undefined = grouped.keySerde
  const valueSerde: Serde<V> | undefined = grouped.valueSerde
  if (shared?.sourceName !== undefined && grouped.name !== undefined) {
    for (const prefix of ['KSTREAM-SINK-', 'KSTREAM-FILTER-', 'KSTREAM-SOURCE-']) builder.newProcessorName(prefix)
    return shared.sourceName
  }
  const sourceName = createRepartitionedSource(builder, args.name, grouped.name ?? storeName, keySerde, valueSerde)
  if (shared !== undefined) shared.sourceName = sourceName
  return sourceName
}
