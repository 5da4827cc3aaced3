/**
 * Writes a foreign-key table-table join (KIP-213) into the topology, as Kafka Streams'
 * KTableImpl.doJoinOnForeignKey does: the left table's subscriptions go through the
 * subscription-registration topic to the right side, which keeps them in the subscription store
 * and answers through the subscription-response topic; the left side joins the answers that
 * still match its current value into the result table. Names are drawn in Kafka's order (with a
 * TableJoined name: `<name>-subscription-registration-topic`, ..., `<name>-result`). Both
 * internal topics are declared so that the runtime creates them. @internal
 */
import { Serdes, StreamsError } from '@kstreams/core'
import type { Serde, StreamPartitioner, StreamPartitions } from '@kstreams/core'
import { ADD_INTERNAL_TOPIC } from '@kstreams/core/internal'
import { Stores } from '@kstreams/stores'
import type { Materialized } from '../../materialized.js'
import type { TableJoined } from '../../table-joined.js'
import type { InternalStreamsBuilder } from '../internal-streams-builder.js'
import type { KTableProcessorSupplier } from '../ktable-processor-supplier.js'
import { KTableSourceSupplier } from '../ktable-processors.js'
import { copartition } from '../copartition.js'
import { MaterializedInternal } from '../materialized-internal.js'
import { ForeignKeyJoinSerdes } from './foreign-key-join-serdes.js'
import { responseJoinProcessor, subscriptionSendProcessor } from './left-side-processors.js'
import { foreignTableJoinProcessor, subscriptionJoinProcessor, subscriptionReceiveProcessor } from './subscription-processors.js'
import { responsePrimaryPartition } from './wire-formats.js'

interface JoinedTable<K, V> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<V> | undefined
  readonly supplier: KTableProcessorSupplier<unknown, unknown, K, V>
}

export interface ForeignKeyJoinResult<K, VR> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<VR> | undefined
  readonly supplier: KTableSourceSupplier<K, VR>
  readonly queryableStoreName: string | undefined
}

export function joinOnForeignKey<K, V, KO, VO, VR>(options: {
  builder: InternalStreamsBuilder
  thisTable: JoinedTable<K, V>
  otherTable: JoinedTable<KO, VO>
  extractor: (key: K, value: V) => KO | null
  joiner: (value: V | null, foreignValue: VO | null) => VR
  leftJoin: boolean
  tableJoined: TableJoined<K, KO> | undefined
  materialized: Materialized<K, VR> | undefined
}): ForeignKeyJoinResult<K, VR> {
  const { builder, thisTable, otherTable, leftJoin, tableJoined } = options
  const topology = builder.topology
  // Right old values spare needless work in Kafka; left old values tell which foreign key to leave.
  otherTable.supplier.enableSendingOldValues(true)
  thisTable.supplier.enableSendingOldValues(true)

  const base = tableJoined?.name
  // Kafka's NamedInternal.suffixWithOrElseGet draws ("burns") an index even for a given name
  const name = (suffix: string, prefix: string): string => {
    const generated = builder.newProcessorName(prefix)
    return base === undefined ? generated : base + suffix
  }
  const subscriptionTopic = name('-subscription-registration', 'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-') + '-topic'
  const serdes = new ForeignKeyJoinSerdes<K, V, KO, VO>(
    { key: thisTable.keySerde, value: thisTable.valueSerde, foreignKey: otherTable.keySerde, foreignValue: otherTable.valueSerde },
    subscriptionTopic
  )
  topology[ADD_INTERNAL_TOPIC](subscriptionTopic)
  const sendName = name('-subscription-registration-processor', 'KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-')
  const subscriptionSinkName = name('-subscription-registration-sink', 'KTABLE-SINK-')
  const subscriptionSourceName = name('-subscription-registration-source', 'KTABLE-SOURCE-')
  const storeName = name('-subscription-store', 'KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-')
  const receiveName = name('-subscription-receive', 'KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-')
  const joinForeignName = name('-subscription-join-foreign', 'KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-')
  const foreignJoinName = name('-foreign-join-subscription', 'KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-')
  const responseTopic = name('-subscription-response', 'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-') + '-topic'
  topology[ADD_INTERNAL_TOPIC](responseTopic)
  const responseSinkName = name('-subscription-response-sink', 'KTABLE-SINK-')
  const responseSourceName = name('-subscription-response-source', 'KTABLE-SOURCE-')
  const resolverName = name('-subscription-response-resolver', 'KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-')
  const resultName = name('-result', 'KTABLE-FK-JOIN-OUTPUT-')
  const m = new MaterializedInternal(options.materialized, builder, 'KTABLE-FK-JOIN-OUTPUT-')

  const leftOptions = { serdes, leftJoin, subscriptionTopic, responseTopic }
  const rightOptions = { serdes, subscriptionStoreName: storeName, subscriptionTopic, responseTopic }
  const bytes = Serdes.ByteArray()

  // left table -> subscriptions -> subscription topic
  topology.addProcessor(sendName, subscriptionSendProcessor(leftOptions, options.extractor), thisTable.name)
  topology.addSink<Uint8Array | null, Uint8Array>(
    subscriptionSinkName,
    subscriptionTopic,
    {
      keySerializer: bytes,
      valueSerializer: bytes,
      partitioner: subscriptionPartitioner(serdes, tableJoined?.otherPartitioner)
    },
    sendName
  )
  // subscription topic -> subscription store -> answers from the right table's view
  topology.addSource(subscriptionSourceName, subscriptionTopic, { keyDeserializer: bytes, valueDeserializer: bytes })
  // the subscription topic goes with the right table's topics
  copartition(topology, [otherTable.name, subscriptionSourceName])
  topology.addProcessor(receiveName, subscriptionReceiveProcessor(rightOptions), subscriptionSourceName)
  const store = Stores.timestampedKeyValueStoreBuilder(
    builder.storeSuppliers.keyValueStore({ name: storeName, isTimestamped: true }),
    bytes,
    bytes
  )
  store.withCachingDisabled()
  store.withLoggingEnabled({})
  topology.addStateStore(store, receiveName)
  const foreignView = otherTable.supplier.view()
  topology.addProcessor(joinForeignName, subscriptionJoinProcessor(rightOptions, foreignView), receiveName)
  // right table updates -> answers to every subscriber
  topology.addProcessor(foreignJoinName, foreignTableJoinProcessor(rightOptions), otherTable.name)
  topology.connectProcessorAndStateStores(foreignJoinName, storeName)
  // answers -> response topic -> join with the current left value -> result table
  topology.addSink<Uint8Array, Uint8Array>(
    responseSinkName,
    responseTopic,
    {
      keySerializer: bytes,
      valueSerializer: bytes,
      partitioner: responsePartitioner(serdes, tableJoined?.partitioner)
    },
    joinForeignName,
    foreignJoinName
  )
  topology.addSource(responseSourceName, responseTopic, { keyDeserializer: bytes, valueDeserializer: bytes })
  // the response topic goes with the left table's topics
  copartition(topology, [thisTable.name, responseSourceName])
  const leftView = thisTable.supplier.view()
  topology.addProcessor(resolverName, responseJoinProcessor(leftOptions, leftView, options.joiner), responseSourceName)

  const keySerde = m.keySerde ?? thisTable.keySerde
  let storeAdded = false
  const addResultStore = (): void => {
    if (storeAdded) return
    storeAdded = true
    topology.addStateStore(m.storeBuilder(keySerde, m.valueSerde), resultName)
  }
  const result = new KTableSourceSupplier<K, VR>(m.storeName, m.queryableStoreName !== undefined, addResultStore)
  topology.addProcessor(resultName, () => result.get(), resolverName)
  builder.onBuild(() => {
    const foreignStores = foreignView.storeNames()
    const leftStores = leftView.storeNames()
    if (foreignStores.length > 0) topology.connectProcessorAndStateStores(joinForeignName, ...foreignStores)
    if (leftStores.length > 0) topology.connectProcessorAndStateStores(resolverName, ...leftStores)
    if (result.storeName !== undefined) addResultStore()
  })
  return { name: resultName, keySerde, valueSerde: m.valueSerde, supplier: result, queryableStoreName: m.queryableStoreName }
}

/** Subscriptions go to the partition of their foreign key: the user's partitioner, else the default one. */
function subscriptionPartitioner<KO>(
  serdes: ForeignKeyJoinSerdes<unknown, unknown, KO, unknown>,
  partitioner: StreamPartitioner<KO, void> | undefined
): StreamPartitioner<Uint8Array | null, Uint8Array> | undefined {
  if (partitioner === undefined) return undefined
  return (topic, key, _value, numPartitions) => {
    const codec = serdes.resolved?.foreignKey
    if (key === null || codec === undefined) return undefined
    return singlePartition(
      partitioner(topic, codec.deserializer.deserialize(serdes.topic(topic), Buffer.from(key)) as KO, undefined, numPartitions)
    )
  }
}

/**
 * A foreign-key join's subscriptions and responses each go to one partition: the user's
 * partitioner may ask for the default partitioning but not multicast or drop (Kafka Streams'
 * IllegalArgumentException).
 */
function singlePartition(result: StreamPartitions): StreamPartitions {
  if (result === undefined || typeof result === 'number') return result
  const partitions = new Set<number>(result)
  if (partitions.size !== 1) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `The partitions returned by a StreamPartitioner used for a foreign-key join should be a single partition, got [${[...partitions].join(', ')}]`
    )
  }
  return [...partitions][0]
}

/** Responses go back to the partition their subscription came from, or where the user's partitioner puts the left key. */
function responsePartitioner<K>(
  serdes: ForeignKeyJoinSerdes<K, unknown, unknown, unknown>,
  partitioner: StreamPartitioner<K, void> | undefined
): StreamPartitioner<Uint8Array, Uint8Array> {
  return (topic, key, value, numPartitions) => {
    if (partitioner !== undefined) {
      const codec = serdes.resolved?.key
      return codec === undefined
        ? undefined
        : singlePartition(
            partitioner(topic, codec.deserializer.deserialize(serdes.topic(topic), Buffer.from(key)) as K, undefined, numPartitions)
          )
    }
    const primaryPartition = responsePrimaryPartition(Buffer.from(value))
    return primaryPartition < 0 ? undefined : primaryPartition
  }
}
