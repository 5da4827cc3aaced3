/**
 * Writes a repartition topic into the topology (Kafka Streams' KStreamImpl.createRepartitionedSource):
 * parent -> filter -> sink to `<prefix>-repartition`, and a source reading it back. As in Kafka
 * Streams 3.7+ (KIP-962) the filter keeps records with a null key only when a join that accepts
 * them lies downstream (see repartitionNullKeyFilter); otherwise it drops them. The three node names are always drawn from the counter (sink, filter, source, in that
 * order); they are used when the prefix is itself a generated name, else the nodes are named
 * `<topic>-sink`, `<topic>-filter` and `<topic>-source`. Returns the source name. @internal
 */
import type { Serde, StreamPartitioner } from '@kstreams/core'
import { ADD_INTERNAL_TOPIC } from '@kstreams/core/internal'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { RepartitionUnit } from './optimization-graph.js'
import { repartitionNullKeyFilter } from './null-key-filter.js'

const GENERATED = /^KSTREAM.*-[0-9]{10}$/

/** What KStream.repartition adds (Kafka Streams' InternalTopicProperties and StreamPartitioner). */
export interface RepartitionTopicOptions<K, V> {
  readonly numberOfPartitions?: number | undefined
  readonly partitioner?: StreamPartitioner<K, V> | undefined
  /** Whether merge.repartition.topics may replace the topic (Kafka's OptimizableRepartitionNode); default true. */
  readonly optimizable?: boolean
}

export function createRepartitionedSource<K, V>(
  builder: InternalStreamsBuilder,
  parentName: string,
  prefix: string,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
  options: RepartitionTopicOptions<K, V> = {}
): string {
  const topic = prefix.endsWith('-repartition') ? prefix : prefix + '-repartition'
  const genSink = builder.newProcessorName('KSTREAM-SINK-')
  const genFilter = builder.newProcessorName('KSTREAM-FILTER-')
  const genSource = builder.newProcessorName('KSTREAM-SOURCE-')
  const generated = GENERATED.test(prefix)
  const sinkName = generated ? genSink : topic + '-sink'
  const filterName = generated ? genFilter : topic + '-filter'
  const sourceName = generated ? genSource : topic + '-source'
  const topology = builder.topology
  topology[ADD_INTERNAL_TOPIC](topic, options.numberOfPartitions === undefined ? {} : { numPartitions: options.numberOfPartitions })
  topology.addProcessor(filterName, repartitionNullKeyFilter<K, V>(topology, sourceName, builder.relaxedNullKeyJoins), parentName)
  topology.addSink<K, V>(
    sinkName,
    topic,
    {
      ...(keySerde === undefined ? {} : { keySerializer: keySerde }),
      ...(valueSerde === undefined ? {} : { valueSerializer: valueSerde }),
      ...(options.partitioner === undefined ? {} : { partitioner: options.partitioner })
    },
    filterName
  )
  topology.addSource(sourceName, topic, {
    ...(keySerde === undefined ? {} : { keyDeserializer: keySerde }),
    ...(valueSerde === undefined ? {} : { valueDeserializer: valueSerde })
  })
  builder.graph.repartition(
    { filter: filterName, sink: sinkName, source: sourceName, topic, keySerde, valueSerde } as RepartitionUnit,
    options.optimizable ?? true
  )
  return sourceName
}
