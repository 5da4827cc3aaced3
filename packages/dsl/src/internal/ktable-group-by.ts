/**
 * KTable.groupBy (Kafka Streams' KTableImpl.groupBy): adds the KTABLE-SELECT- node (or the
 * Grouped name) mapping each update to its new key and value, asks the parent table for old
 * values (materializing a source table: the subtraction needs them) and returns the
 * KGroupedTable that will add the repartition topic and the aggregation. @internal
 */
import type { KeyValue } from '@kstreams/core'
import type { KeyValueMapper } from '../functions.js'
import { Grouped } from '../grouped.js'
import { KGroupedTable } from '../kgrouped-table.js'
import type { KTable } from '../ktable.js'
import { ChangedSerde } from './changed-serde.js'
import { repartitionMapProcessor } from './ktable-repartition-map.js'
import { requireFunction } from './windowed-args.js'

export function groupTable<K, V, KR, VR>(
  table: KTable<K, V>,
  selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
  grouped: Grouped<KR, VR> | undefined
): KGroupedTable<KR, VR> {
  requireFunction(selector, 'selector')
  const g = grouped ?? Grouped.with<KR, VR>(undefined, undefined)
  const builder = table.builder
  // Kafka's NamedInternal draws ("burns") an index even for a given name
  const generatedName = builder.newProcessorName('KTABLE-SELECT-')
  const selectName = g.name ?? generatedName
  const changedSerde = new ChangedSerde<VR>(g.valueSerde)
  builder.topology.addProcessor(selectName, repartitionMapProcessor(selector, g.keySerde, changedSerde), table.name)
  table.enableSendingOldValues(true)
  return new KGroupedTable<KR, VR>(builder, selectName, g.name, g.keySerde, g.valueSerde, changedSerde)
}
