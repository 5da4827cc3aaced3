/**
 * Writes a primary-key KTable-KTable join into the topology (Kafka Streams' KTableImpl.doJoin and
 * KTableKTableJoinNode): a JOINTHIS processor under this table, a JOINOTHER processor under the
 * other, each connected to the stores of the other table's view, and a MERGE processor under
 * both, owning the result store when the join is materialized. Both tables' source topics are
 * declared co-partitioned. Names are drawn in Kafka's order:
 * result store, merge, join-this, join-other (with a Named: `<name>`, `<name>-join-this`,
 * `<name>-join-other`). Left and outer joins make the left table send old values, outer joins the
 * right one as well. @internal
 */
import type { Serde } from '@kstreams/core'
import type { Materialized } from '../materialized.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { copartition } from './copartition.js'
import { KTableKTableJoinMerger } from './ktable-ktable-join-merger.js'
import { KTableKTableJoinSupplier } from './ktable-ktable-join.js'
import type { SideJoiner, TableJoinSideKind } from './ktable-ktable-join.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { MaterializedInternal } from './materialized-internal.js'

export type TableJoinKind = 'inner' | 'left' | 'outer'

/** What the join needs of each table (a KTable's internal members). */
export interface JoinedTable<K, V> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly supplier: KTableProcessorSupplier<unknown, unknown, K, V>
}

/** The result table's parts, for the KTable constructor. */
export interface TableJoinResult<K, VR> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<VR> | undefined
  readonly supplier: KTableKTableJoinMerger<K, VR>
  readonly queryableStoreName: string | undefined
}

const THIS_KIND: Record<TableJoinKind, TableJoinSideKind> = { inner: 'inner', left: 'left', outer: 'outer' }
const OTHER_KIND: Record<TableJoinKind, TableJoinSideKind> = { inner: 'inner', left: 'right', outer: 'outer' }

export function joinTables<K, V, VO, VR>(options: {
  builder: InternalStreamsBuilder
  thisTable: JoinedTable<K, V>
  otherTable: JoinedTable<K, VO>
  joiner: (value: V | null, otherValue: VO | null) => VR
  kind: TableJoinKind
  name: string | undefined
  materialized: Materialized<K, VR> | undefined
}): TableJoinResult<K, VR> {
  const { builder, thisTable, otherTable, joiner, kind, name } = options
  const m = options.materialized === undefined ? undefined : new MaterializedInternal(options.materialized, builder, 'KTABLE-MERGE-')
  // Kafka's NamedInternal draws ("burns") an index even for a given name
  const named = (suffix: string, prefix: string): string => {
    const generated = builder.newProcessorName(prefix)
    return name === undefined ? generated : name + suffix
  }
  const mergeName = named('', 'KTABLE-MERGE-')
  copartition(builder.topology, [thisTable.name, otherTable.name])
  if (kind !== 'inner') thisTable.supplier.enableSendingOldValues(true)
  if (kind === 'outer') otherTable.supplier.enableSendingOldValues(true)

  const joinThis = new KTableKTableJoinSupplier<K, V, VO, VR>({
    kind: THIS_KIND[kind],
    thisTable: thisTable.supplier,
    otherTable: otherTable.supplier,
    joiner
  })
  const reversed: SideJoiner<VO, V, VR> = (otherValue, value) => joiner(value, otherValue)
  const joinOther = new KTableKTableJoinSupplier<K, VO, V, VR>({
    kind: OTHER_KIND[kind],
    thisTable: otherTable.supplier,
    otherTable: thisTable.supplier,
    joiner: reversed
  })
  const thisName = named('-join-this', 'KTABLE-JOINTHIS-')
  const otherName = named('-join-other', 'KTABLE-JOINOTHER-')
  const merger = new KTableKTableJoinMerger<K, VR>(
    joinThis as unknown as KTableProcessorSupplier<unknown, unknown, K, VR>,
    joinOther as unknown as KTableProcessorSupplier<unknown, unknown, K, VR>,
    m?.storeName
  )
  // suppress(untilWindowCloses) on a join of windowed tables takes the larger grace of the two (Kafka walks all parents).
  Object.assign(merger, { parentSuppliers: [thisTable.supplier, otherTable.supplier] })

  const keySerde = m?.keySerde ?? thisTable.keySerde
  const valueSerde = m?.valueSerde
  const topology = builder.topology
  topology.addProcessor(thisName, () => joinThis.get(), thisTable.name)
  topology.addProcessor(otherName, () => joinOther.get(), otherTable.name)
  topology.addProcessor(mergeName, () => merger.get(), thisName, otherName)
  const otherStores = joinThis.otherStoreNames()
  const thisStores = joinOther.otherStoreNames()
  // A named source table adds its store in build(): connect once every store is there.
  builder.onBuild(() => {
    if (otherStores.length > 0) topology.connectProcessorAndStateStores(thisName, ...otherStores)
    if (thisStores.length > 0) topology.connectProcessorAndStateStores(otherName, ...thisStores)
  })
  if (m !== undefined) topology.addStateStore(m.storeBuilder(keySerde, valueSerde), mergeName)
  return { name: mergeName, keySerde, valueSerde, supplier: merger, queryableStoreName: m?.storeName }
}
