/**
 * Stream-GlobalKTable joins (Kafka Streams' KStreamGlobalKTableJoin): the key selector maps each
 * stream record to a key of the global table, whose store every task reads directly (no
 * co-partitioning, no repartitioning; a later grouping still repartitions if the stream's key had
 * changed). As in Kafka, the processor is named KSTREAM-LEFTJOIN- for inner joins too. @internal
 */
import type { Named } from '../named.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { tableLookupJoinProcessor } from './kstream-ktable-join.js'

export interface GlobalTableJoinArgs<K, V, KG, VG, VR> {
  readonly builder: InternalStreamsBuilder
  readonly parentName: string
  readonly view: KTableValueGetterSupplier<KG, VG>
  readonly keySelector: (key: K, value: V) => KG
  readonly joiner: (key: K, value: V, tableValue: VG | null) => VR
  readonly named: Named | undefined
  readonly leftJoin: boolean
}

/** Adds the join processor; returns its name. */
export function globalTableJoin<K, V, KG, VG, VR>(args: GlobalTableJoinArgs<K, V, KG, VG, VR>): string {
  const { builder, view, keySelector, joiner, leftJoin } = args
  const name = builder.nameOrGenerate(args.named?.name, 'KSTREAM-LEFTJOIN-')
  if (leftJoin) builder.relaxedNullKeyJoins.add(name)
  builder.topology.addProcessor(
    name,
    tableLookupJoinProcessor<K, V, KG, VG, VR>({ view, keyMapper: keySelector, joiner, leftJoin }),
    args.parentName
  )
  return name
}
