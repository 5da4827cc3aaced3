/**
 * Stream-table joins (Kafka Streams' KStreamKTableJoin and KStreamKTableJoinProcessor): each
 * stream record looks up the table's current value of its key through the table's view (table
 * updates never emit), or, when the table is versioned (KIP-914), the value valid at the stream
 * record's timestamp; the result keeps the stream record's timestamp. A record with a null
 * value, or whose key is null, is dropped and counted, except that a left join emits a record
 * with a null key and a value as `joiner(value, null)` (KIP-962). The stream is repartitioned
 * first when its key changed (topic `<Joined name or stream node name>-repartition`). The
 * processor is shared with GlobalKTable joins, which look up the key the key selector returns.
 * @internal
 */
import { ValueAndTimestamp } from '@kstreams/core'
import type { ProcessorContext, ProcessorSupplier, Serde } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import type { Joined } from '../joined.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { repartitionForJoin } from './kstream-kstream-join.js'
import { copartition } from './copartition.js'
import type { JoinInput } from './kstream-kstream-join.js'

export interface TableLookupJoinOptions<K, V, KT, VT, VR> {
  readonly view: KTableValueGetterSupplier<KT, VT>
  readonly keyMapper: (key: K, value: V) => KT | null | undefined
  readonly joiner: (key: K, value: V, tableValue: VT | null) => VR
  readonly leftJoin: boolean
}

/** The processor joining each stream record with the table value of its (mapped) key. */
export function tableLookupJoinProcessor<K, V, KT, VT, VR>(
  options: TableLookupJoinOptions<K, V, KT, VT, VR>
): ProcessorSupplier<K, V, K, VR> {
  const { view, keyMapper, joiner, leftJoin } = options
  return () => {
    let context: ProcessorContext<K, VR>
    let getter: KTableValueGetter<KT, VT>
    return {
      init(c) {
        context = c
        getter = view.get()
        getter.init(c)
      },
      process(record) {
        const key = record.key
        const value = record.value
        const mappedKey = keyMapper(key, value)
        const keepNullKey = leftJoin && isNull(key) && !isNull(value)
        if (!keepNullKey && (isNull(mappedKey) || isNull(value))) {
          recordDroppedRecord(context)
          return
        }
        const tableValue = isNull(mappedKey) ? null : ValueAndTimestamp.getValueOrNull(lookup(getter, mappedKey, record.timestamp))
        if (leftJoin || tableValue !== null) context.forward(record.withValue(joiner(key, value, tableValue)))
      },
      close() {
        getter.close?.()
      }
    }
  }
}

export interface StreamTableJoinArgs<K, V, VT, VR> {
  readonly builder: InternalStreamsBuilder
  readonly stream: JoinInput<K, V>
  /** The table's node: its inputs must be co-partitioned with the stream's. */
  readonly tableName: string
  /** The table's view, asked for once the join is named (a source table is materialized then). */
  readonly view: () => KTableValueGetterSupplier<K, VT>
  readonly joiner: (key: K, value: V, tableValue: VT | null) => VR
  readonly joined: Joined<K, V, VT> | undefined
  readonly leftJoin: boolean
}

/** Adds the join processor (KSTREAM-JOIN- / KSTREAM-LEFTJOIN- or the Joined name); returns its name and key serde. */
export function streamTableJoin<K, V, VT, VR>(args: StreamTableJoinArgs<K, V, VT, VR>): { name: string; keySerde: Serde<K> | undefined } {
  const { builder, stream, joined, leftJoin } = args
  const parent = repartitionForJoin(builder, stream, joined?.name ?? stream.name, joined?.keySerde, joined?.valueSerde)
  copartition(builder.topology, [parent, args.tableName])
  const streamKeySerde = stream.repartitionRequired ? (joined?.keySerde ?? stream.keySerde) : stream.keySerde
  const name = builder.nameOrGenerate(joined?.name, leftJoin ? 'KSTREAM-LEFTJOIN-' : 'KSTREAM-JOIN-')
  const view = args.view()
  if (leftJoin) builder.relaxedNullKeyJoins.add(name)
  builder.topology.addProcessor(
    name,
    tableLookupJoinProcessor<K, V, K, VT, VR>({ view, keyMapper: key => key, joiner: args.joiner, leftJoin }),
    parent
  )
  // a named source table adds its store in build(): connect then
  builder.onBuild(() => {
    const storeNames = view.storeNames()
    if (storeNames.length > 0) builder.topology.connectProcessorAndStateStores(name, ...storeNames)
  })
  return { name, keySerde: joined?.keySerde ?? streamKeySerde }
}

/** A versioned table answers as of the stream record's timestamp (KIP-914), any other its latest value. */
function lookup<KT, VT>(getter: KTableValueGetter<KT, VT>, key: KT, timestamp: number): ValueAndTimestamp<VT> | null {
  if (getter.getAsOf !== undefined && getter.isVersioned?.() === true) return getter.getAsOf(key, timestamp)
  return getter.get(key)
}

function isNull(x: unknown): x is null | undefined {
  return x === null || x === undefined
}
