/**
 * Writes a stream-stream join into the topology (Kafka Streams' KStreamImpl.doJoin and
 * KStreamImplJoin): repartitions a side whose key changed (`<name>-left` / `-right`, or the
 * side's node name), then adds per side a windowed processor owning that side's window store
 * (retaining duplicates, retention = size + grace, changelog `cleanup.policy=delete`), a join
 * processor reading the other side's store, the shared outer store in left/outer joins, and the
 * merge node. Names follow Kafka: KSTREAM-WINDOWED-, KSTREAM-JOINTHIS-/OUTERTHIS-,
 * KSTREAM-JOINOTHER-/OUTEROTHER-, KSTREAM-MERGE-, stores `<join name>-store` and
 * `KSTREAM-OUTERSHARED-<index>-store`; a StreamJoined name still uses up the generated indexes.
 * @internal
 */
import { TopologyError } from '@kstreams/core'
import type { Serde, StateStore, StoreBuilder, WindowBytesStoreSupplier } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import type { JoinWindows } from '../join-windows.js'
import { StreamJoined } from '../stream-joined.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { SharedTimeTrackers, joinSideProcessor, joinWindowProcessor } from './kstream-kstream-join-processor.js'
import { OuterJoinStoreBuilder } from './outer-join-store-builder.js'
import { createRepartitionedSource } from './repartition.js'
import { copartition } from './copartition.js'
import { passThroughProcessor } from './stateless-processors.js'
import { selfJoinProcessor } from './single-store-self-join.js'

/** What a join needs of one input stream. */
export interface JoinInput<K, V> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<V> | undefined
  readonly repartitionRequired: boolean
}

export interface StreamStreamJoinArgs<K, V, VO, VR> {
  readonly builder: InternalStreamsBuilder
  readonly left: JoinInput<K, V>
  readonly right: JoinInput<K, VO>
  readonly joiner: (key: K, left: V | null, right: VO | null) => VR
  readonly windows: JoinWindows
  readonly streamJoined: StreamJoined<K, V, VO> | undefined
  readonly leftOuter: boolean
  readonly rightOuter: boolean
}

/** Returns the merge node's name and the result's key serde (the StreamJoined one only, as in Kafka). */
export function streamStreamJoin<K, V, VO, VR>(args: StreamStreamJoinArgs<K, V, VO, VR>): { name: string; keySerde: Serde<K> | undefined } {
  const { builder, windows, leftOuter, rightOuter } = args
  const sj = args.streamJoined ?? StreamJoined.with<K, V, VO>(undefined, undefined, undefined)
  const leftName = repartitionForJoin(
    builder,
    args.left,
    sj.name === undefined ? args.left.name : sj.name + '-left',
    sj.keySerde,
    sj.valueSerde
  )
  const rightName = repartitionForJoin(
    builder,
    args.right,
    sj.name === undefined ? args.right.name : sj.name + '-right',
    sj.keySerde,
    sj.otherValueSerde
  )
  copartition(builder.topology, [leftName, rightName])

  const thisSuffix = rightOuter ? '-outer-this-join' : '-this-join'
  const otherSuffix = leftOuter ? '-outer-other-join' : '-other-join'
  const thisWindowedName = suffixedOrGenerated(builder, sj.name, '-this-windowed', 'KSTREAM-WINDOWED-')
  const otherWindowedName = suffixedOrGenerated(builder, sj.name, '-other-windowed', 'KSTREAM-WINDOWED-')
  const thisPrefix = rightOuter ? 'KSTREAM-OUTERTHIS-' : 'KSTREAM-JOINTHIS-'
  const joinThisGenerated = builder.newProcessorName(thisPrefix)
  const joinOtherGenerated = builder.newProcessorName(leftOuter ? 'KSTREAM-OUTEROTHER-' : 'KSTREAM-JOINOTHER-')
  const joinThisName = sj.name === undefined ? joinThisGenerated : sj.name + thisSuffix
  const joinOtherName = sj.name === undefined ? joinOtherGenerated : sj.name + otherSuffix
  const mergeName = suffixedOrGenerated(builder, sj.name, '-merge', 'KSTREAM-MERGE-')

  if (
    sj.thisStoreSupplier !== undefined &&
    sj.otherStoreSupplier !== undefined &&
    sj.thisStoreSupplier.name === sj.otherStoreSupplier.name
  ) {
    throw new TopologyError('TOPOLOGY_INVALID', 'Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names')
  }
  const thisStore = joinStoreBuilder(
    builder,
    sj,
    windows,
    sj.thisStoreSupplier,
    sj.storeName === undefined ? joinThisGenerated : sj.storeName + thisSuffix,
    sj.valueSerde
  )
  const otherStore = joinStoreBuilder(
    builder,
    sj,
    windows,
    sj.otherStoreSupplier,
    sj.storeName === undefined ? joinOtherGenerated : sj.storeName + otherSuffix,
    sj.otherValueSerde
  )
  const outerStore =
    leftOuter && windows.spuriousResultFixEnabled
      ? outerStoreBuilder(builder, sj, outerStoreName(sj, rightOuter, joinThisGenerated.substring(thisPrefix.length)))
      : undefined

  const topology = builder.topology
  if (leftOuter || rightOuter) builder.relaxedNullKeyJoins.add(thisWindowedName).add(otherWindowedName)
  topology.addProcessor(thisWindowedName, joinWindowProcessor<K, V>(thisStore.name), leftName)
  topology.addStateStore(thisStore, thisWindowedName)
  topology.addProcessor(otherWindowedName, joinWindowProcessor<K, VO>(otherStore.name), rightName)
  topology.addStateStore(otherStore, otherWindowedName)

  const trackers = new SharedTimeTrackers()
  const side = {
    outerStoreName: outerStore?.name,
    beforeMs: windows.beforeMs,
    afterMs: windows.afterMs,
    graceMs: windows.gracePeriodMs(),
    joiner: args.joiner,
    trackers,
    keySerde: sj.keySerde,
    leftValueSerde: sj.valueSerde,
    rightValueSerde: sj.otherValueSerde
  }
  topology.addProcessor(
    joinThisName,
    joinSideProcessor<K, V, VO, VR, V, VO>({ ...side, isLeftSide: true, otherStoreName: otherStore.name, outer: leftOuter }),
    thisWindowedName
  )
  topology.connectProcessorAndStateStores(joinThisName, otherStore.name)
  if (outerStore !== undefined) topology.addStateStore(outerStore, joinThisName)
  topology.addProcessor(
    joinOtherName,
    joinSideProcessor<K, V, VO, VR, VO, V>({ ...side, isLeftSide: false, otherStoreName: thisStore.name, outer: rightOuter }),
    otherWindowedName
  )
  topology.connectProcessorAndStateStores(joinOtherName, thisStore.name)
  if (outerStore !== undefined) topology.connectProcessorAndStateStores(joinOtherName, outerStore.name)
  topology.addProcessor(mergeName, passThroughProcessor<K, VR>(), joinThisName, joinOtherName)
  builder.graph.streamJoin({
    left: leftName,
    right: rightName,
    thisWindowed: thisWindowedName,
    otherWindowed: otherWindowedName,
    joinThis: joinThisName,
    joinOther: joinOtherName,
    merge: mergeName,
    thisStore,
    otherStore,
    outerStore,
    selfJoin: selfJoinProcessor<K, V, VR>({
      storeName: thisStore.name,
      beforeMs: windows.beforeMs,
      afterMs: windows.afterMs,
      retentionMs: windows.size() + windows.gracePeriodMs(),
      joiner: args.joiner as (key: K, left: V, right: V) => VR
    })
  })
  return { name: mergeName, keySerde: sj.keySerde }
}

/** The source of the repartition a join last created for a stream (Kafka's KStreamImpl.repartitionNode). */
const joinRepartitions = new WeakMap<object, string>()

/**
 * The side's node, or the source of its repartition topic when its key changed (Kafka's
 * repartitionForJoin): serdes are the given ones, else the stream's. As in Kafka, a stream joined
 * again without a name reuses the repartition topic of its previous join (the node indexes are
 * still used up). Records with a null key pass the topic (KIP-962): the join processors decide
 * (inner joins drop and count them, left/outer joins emit them joined with null).
 * @internal
 */
export function repartitionForJoin<K, V>(
  builder: InternalStreamsBuilder,
  input: JoinInput<K, V>,
  topicPrefix: string,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined
): string {
  if (!input.repartitionRequired) return input.name
  const previous = joinRepartitions.get(input)
  if (previous !== undefined && topicPrefix === input.name) {
    for (const prefix of ['KSTREAM-SINK-', 'KSTREAM-FILTER-', 'KSTREAM-SOURCE-']) builder.newProcessorName(prefix)
    return previous
  }
  const sourceName = createRepartitionedSource(builder, input.name, topicPrefix, keySerde ?? input.keySerde, valueSerde ?? input.valueSerde)
  joinRepartitions.set(input, sourceName)
  return sourceName
}

/** Kafka's NamedInternal.suffixWithOrElseGet with a name provider: always uses up an index. */
export function suffixedOrGenerated(builder: InternalStreamsBuilder, name: string | undefined, suffix: string, prefix: string): string {
  const generated = builder.newProcessorName(prefix)
  return name === undefined ? generated : name + suffix
}

function joinStoreBuilder<K, V, VO, VS>(
  builder: InternalStreamsBuilder,
  sj: StreamJoined<K, V, VO>,
  windows: JoinWindows,
  supplier: WindowBytesStoreSupplier | undefined,
  baseName: string,
  valueSerde: Serde<VS> | undefined
): StoreBuilder<StateStore> {
  const retentionPeriodMs = windows.size() + windows.gracePeriodMs()
  if (supplier !== undefined) {
    if (!supplier.retainDuplicates)
      throw new TopologyError('TOPOLOGY_INVALID', 'The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false')
    if (supplier.retentionPeriod !== retentionPeriodMs || supplier.windowSize !== windows.size()) {
      throw new TopologyError(
        'TOPOLOGY_INVALID',
        `Window settings mismatch. WindowBytesStoreSupplier settings (retention ${supplier.retentionPeriod}, window size ${supplier.windowSize}) must match ${windows.toString()} for the window size and retention period`
      )
    }
    return Stores.windowStoreBuilder(supplier, sj.keySerde, valueSerde)
  }
  const suppliers = sj.dslStoreSuppliers ?? builder.storeSuppliers
  const store = Stores.windowStoreBuilder(
    suppliers.windowStore({
      name: baseName + '-store',
      retentionPeriodMs,
      windowSizeMs: windows.size(),
      retainDuplicates: true,
      isTimestamped: false
    }),
    sj.keySerde,
    valueSerde
  )
  // the store keeps duplicates: its changelog must not be compacted
  if (sj.loggingEnabled) store.withLoggingEnabled({ ...sj.logConfig, 'cleanup.policy': 'delete' })
  else store.withLoggingDisabled()
  return store
}

function outerStoreName<K, V, VO>(sj: StreamJoined<K, V, VO>, rightOuter: boolean, joinThisIndex: string): string {
  const suffix = rightOuter ? '-outer-shared-join' : '-left-shared-join'
  if (sj.thisStoreSupplier !== undefined && sj.thisStoreSupplier.name !== '') return sj.thisStoreSupplier.name + suffix + '-store'
  if (sj.storeName !== undefined) return sj.storeName + suffix + '-store'
  return 'KSTREAM-OUTERSHARED-' + joinThisIndex + '-store'
}

/**
 * The backend follows Kafka: the StreamJoined's store backend, else an in-memory store when this
 * side's explicit supplier is in-memory, else the builder's default backend.
 */
function outerStoreBuilder<K, V, VO>(builder: InternalStreamsBuilder, sj: StreamJoined<K, V, VO>, name: string): OuterJoinStoreBuilder {
  const params = { name, isTimestamped: false }
  const supplier =
    sj.dslStoreSuppliers !== undefined
      ? sj.dslStoreSuppliers.keyValueStore(params)
      : sj.thisStoreSupplier?.metricsScope === 'in-memory-window'
        ? Stores.inMemoryKeyValueStore(name)
        : builder.storeSuppliers.keyValueStore(params)
  return new OuterJoinStoreBuilder(supplier, sj.loggingEnabled, sj.logConfig)
}
