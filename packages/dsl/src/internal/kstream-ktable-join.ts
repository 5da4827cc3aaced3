/**
 * Stream-table joins (Kafka Streams' KStreamKTableJoin and KStreamKTableJoinProcessor): each
 * stream record looks up the table's current value of its key through the table's view (table
 * updates never emit), or, when the table is versioned (KIP-914), the value valid at the stream
 * record's timestamp; the result keeps the stream record's timestamp. A record with a null
 * value, or whose key is null, is dropped and counted, except that a left join emits a record
 * with a null key and a value as `joiner(value, null)` (KIP-962). The stream is repartitioned
 * first when its key changed (topic `<Joined name or stream node name>-repartition`). The
 * processor is shared with GlobalKTable joins, which look up the key the key selector returns.
 *
 * With a grace period (Joined.withGracePeriod, KIP-923; Kafka's KStreamImpl.doStreamTableJoin and
 * StreamTableJoinNode) the table must be versioned, with a history retention of at least the grace
 * period (ILLEGAL_ARGUMENT at join() when the table is a source table known not to be versioned,
 * else at build()): stream records go through a TimeOrderedKeyValueBuffer (`<join name>-Buffer`)
 * and join, in timestamp order, once stream time has passed them by the grace period; a record
 * already that late joins at once. A left join's null-key record cannot be ordered in the buffer
 * and joins at once (Kafka Streams fails on it).
 * @internal
 */
import { Record, StreamsError, ValueAndTimestamp } from '@kstreams/core'
import type { ProcessorContext, ProcessorSupplier, Serde } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import type { Joined } from '../joined.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { repartitionForJoin } from './kstream-kstream-join.js'
import { copartition } from './copartition.js'
import type { JoinInput } from './kstream-kstream-join.js'
import { type BufferedRecord, type TimeOrderedKeyValueBuffer, TimeOrderedKeyValueBufferBuilder } from './time-ordered-key-value-buffer.js'
import { withRecordContext } from './with-record-context.js'

export interface TableLookupJoinOptions<K, V, KT, VT, VR> {
  readonly view: KTableValueGetterSupplier<KT, VT>
  readonly keyMapper: (key: K, value: V) => KT | null | undefined
  readonly joiner: (key: K, value: V, tableValue: VT | null) => VR
  readonly leftJoin: boolean
  /** The grace-period buffer's store (stream-table joins with a grace period only). */
  readonly bufferStoreName?: string | undefined
}

const NOT_VERSIONED = 'KTable must be versioned to use a grace period in a stream table join.'

/** The processor joining each stream record with the table value of its (mapped) key. */
export function tableLookupJoinProcessor<K, V, KT, VT, VR>(
  options: TableLookupJoinOptions<K, V, KT, VT, VR>
): ProcessorSupplier<K, V, K, VR> {
  const { view, keyMapper, joiner, leftJoin, bufferStoreName } = options
  return () => {
    let context: ProcessorContext<K, VR>
    let getter: KTableValueGetter<KT, VT>
    let buffer: TimeOrderedKeyValueBuffer<K, V> | undefined
    const join = (record: Record<K, V>): void => {
      const mappedKey = keyMapper(record.key, record.value)
      const tableValue = isNull(mappedKey) ? null : ValueAndTimestamp.getValueOrNull(lookup(getter, mappedKey, record.timestamp))
      if (leftJoin || tableValue !== null) context.forward(record.withValue(joiner(record.key, record.value, tableValue)))
    }
    // A buffered record joins with its own timestamp, headers and record context (Kafka's emit).
    const emit = ({ key, value, context: c }: BufferedRecord<K, V>): void => {
      withRecordContext(context, c, () => {
        join(new Record(key, value, c.timestamp, c.headers))
      })
    }
    return {
      init(c) {
        context = c
        getter = view.get()
        getter.init(c)
        if (bufferStoreName === undefined) return
        if (getter.isVersioned?.() !== true) throw new StreamsError('ILLEGAL_ARGUMENT', NOT_VERSIONED)
        buffer = c.getStateStore<TimeOrderedKeyValueBuffer<K, V>>(bufferStoreName)
        buffer.setSerdesIfNull(c.appConfigs)
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
        if (buffer === undefined || isNull(key)) {
          join(record)
          return
        }
        const metadata = context.recordMetadata()
        const recordContext = {
          timestamp: record.timestamp,
          offset: metadata?.offset ?? -1,
          topic: metadata?.topic,
          partition: metadata?.partition ?? -1,
          headers: record.headers
        }
        if (buffer.put(key, value, recordContext)) buffer.evictWhile(emit)
        else join(record)
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
  /** Whether the table is known to be versioned (a source table); undefined: known at build(). */
  readonly tableVersioned: boolean | undefined
}

/** Adds the join processor (KSTREAM-JOIN- / KSTREAM-LEFTJOIN- or the Joined name); returns its name and key serde. */
export function streamTableJoin<K, V, VT, VR>(args: StreamTableJoinArgs<K, V, VT, VR>): { name: string; keySerde: Serde<K> | undefined } {
  const { builder, stream, joined, leftJoin } = args
  const parent = repartitionForJoin(builder, stream, joined?.name ?? stream.name, joined?.keySerde, joined?.valueSerde)
  copartition(builder.topology, [parent, args.tableName])
  const streamKeySerde = stream.repartitionRequired ? (joined?.keySerde ?? stream.keySerde) : stream.keySerde
  const name = builder.nameOrGenerate(joined?.name, leftJoin ? 'KSTREAM-LEFTJOIN-' : 'KSTREAM-JOIN-')
  const view = args.view()
  const gracePeriodMs = joined?.gracePeriodMs
  if (gracePeriodMs !== undefined && args.tableVersioned === false) throw new StreamsError('ILLEGAL_ARGUMENT', NOT_VERSIONED)
  const bufferStoreName = gracePeriodMs === undefined ? undefined : `${name}-Buffer`
  if (leftJoin) builder.relaxedNullKeyJoins.add(name)
  builder.topology.addProcessor(
    name,
    tableLookupJoinProcessor<K, V, K, VT, VR>({ view, keyMapper: key => key, joiner: args.joiner, leftJoin, bufferStoreName }),
    parent
  )
  if (gracePeriodMs !== undefined && bufferStoreName !== undefined) {
    const supplier = builder.storeSuppliers.keyValueStore({ name: bufferStoreName, isTimestamped: false })
    const keySerde = joined?.keySerde ?? streamKeySerde
    const buffer = new TimeOrderedKeyValueBufferBuilder(supplier, gracePeriodMs, name, keySerde, joined?.valueSerde ?? stream.valueSerde)
    builder.topology.addStateStore(buffer, name)
  }
  // a named source table adds its store in build(): connect then
  builder.onBuild(() => {
    const storeNames = view.storeNames()
    if (storeNames.length > 0) builder.topology.connectProcessorAndStateStores(name, ...storeNames)
    if (gracePeriodMs !== undefined) checkVersionedStores(builder, storeNames, gracePeriodMs)
  })
  return { name, keySerde: joined?.keySerde ?? streamKeySerde }
}

/** Kafka's StreamTableJoinNode checks: every store of the table versioned, with a history retention of at least the grace period. */
function checkVersionedStores(builder: InternalStreamsBuilder, storeNames: readonly string[], gracePeriodMs: number): void {
  for (const storeName of storeNames) {
    const historyRetentionMs = builder.versionedStores.get(storeName)
    if (historyRetentionMs === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', NOT_VERSIONED)
    if (gracePeriodMs > historyRetentionMs) throw new StreamsError('ILLEGAL_ARGUMENT', 'History retention must be at least grace period.')
  }
}

/** A versioned table answers as of the stream record's timestamp (KIP-914), any other its latest value. */
function lookup<KT, VT>(getter: KTableValueGetter<KT, VT>, key: KT, timestamp: number): ValueAndTimestamp<VT> | null {
  if (getter.getAsOf !== undefined && getter.isVersioned?.() === true) return getter.getAsOf(key, timestamp)
  return getter.get(key)
}

function isNull(x: unknown): x is null | undefined {
  return x === null || x === undefined
}
