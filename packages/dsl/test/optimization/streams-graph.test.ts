/**
 * merge.repartition.topics on Kafka's StreamsGraphTest topologies: describe() equals Kafka's
 * text for the topologies the optimization changes, and equals the unoptimized text where Kafka
 * leaves them alone (a value change after the key change, repartition()).
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Topology } from '@kstreams/core'
import {
  BufferConfig,
  Branched,
  Consumed,
  Grouped,
  Joined,
  Materialized,
  Produced,
  StreamsBuilder,
  Suppressed,
  TimeWindows
} from '../../src/index.js'

const S = Serdes.String()
const I = Serdes.Integer()

function repartitionSinks(text: string): number {
  return text.match(/Sink: .*-repartition/g)?.length ?? 0
}

describe('merge.repartition.topics: StreamsGraphTest', () => {
  it('shouldBeAbleToProcessNestedMultipleKeyChangingNodes', () => {
    const builder = new StreamsBuilder()
    const changedKeyStream = builder.stream<string, string>('inputTopic').selectKey((_k, v) => v.substring(0, 5))
    changedKeyStream
      .groupByKey(Grouped.as('count-repartition'))
      .count(Materialized.as('count-store'))
      .toStream()
      .to('count-topic', Produced.with(S, Serdes.Long()))
    changedKeyStream
      .groupByKey(Grouped.as('windowed-repartition'))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(5000))
      .count(Materialized.as('windowed-count-store'))
      .toStream()
      .map((k, v) => KeyValue.pair(k.key, v))
      .to('windowed-count', Produced.with(S, Serdes.Long()))
    const text = builder.build({ topologyOptimization: 'all' }).describe().toString()
    expect(repartitionSinks(text)).to.equal(1)
    expect(text).to.include('Sink: count-repartition-sink (topic: count-repartition)')
    expect(text).to.include(
      'Source: count-repartition-source (topics: [count-repartition])\n      --> KSTREAM-AGGREGATE-0000000002, KSTREAM-AGGREGATE-0000000008'
    )
  })

  it('shouldNotThrowNPEWithMergeNodes (KAFKA-9739): the whole optimized text', () => {
    const builder = new StreamsBuilder()
    const initializer = (): string => ''
    const aggregator = (_k: string, v: string, agg: string): string => agg + v.length
    const retryStream = builder
      .stream('retryTopic', Consumed.with(S, S))
      .process<string, string>(() => {
        let forward: (r: never) => void
        return {
          init(context) {
            forward = r => context.forward(r)
          },
          process(record) {
            forward(record as never)
          }
        }
      })
      .groupByKey(Grouped.with(S, S))
      .aggregate(initializer, aggregator, Materialized.with<string, string>(S, S))
      .suppress(Suppressed.untilTimeLimit(500_000, BufferConfig.maxBytes(64_000_000)))
      .toStream()
      .flatMap((): Array<KeyValue<string, string>> => [])
    const idTable = builder
      .stream('id-table-topic', Consumed.with(S, S))
      .flatMap((): Array<KeyValue<string, string>> => [])
      .peek(() => {})
      .groupByKey(Grouped.with(S, S))
      .aggregate(initializer, aggregator, Materialized.with<string, string>(S, S))
    const joinStream = builder
      .stream('internal-topic-command', Consumed.with(S, S))
      .peek(() => {})
      .mapValues((_k: string, v: string) => v)
      .merge(retryStream)
      .leftJoin(idTable, (v1: string, v2: string | null) => v1 + v2, Joined.with(S, S, S))
    joinStream
      .split()
      .branch(
        (_k, v) => v === 'some-value',
        Branched.withConsumer(ks =>
          ks
            .map((k, v) => KeyValue.pair(k, v))
            .peek(() => {})
            .to('external-command', Produced.with(S, S))
        )
      )
      .defaultBranch(
        Branched.withConsumer(ks => {
          ks.filter((_k, v) => v !== null)
            .peek(() => {})
            .mapValues((_k: string, v: string) => v)
            .to('dlq-topic', Produced.with(S, S))
          ks.map((k, v) => KeyValue.pair(k, v)).to('retryTopic', Produced.with(S, S))
        })
      )
    expect(builder.build({ topologyOptimization: 'all' }).describe().toString()).to.equal(expectedComplexMergeOptimizeTopology)
  })

  function changingValuesAfterChangingKey(optimization: string): Topology {
    const builder = new StreamsBuilder()
    const mappedKeyStream = builder.stream<string, string>('input').selectKey((k, v) => k + v)
    mappedKeyStream
      .mapValues(v => v.toUpperCase())
      .groupByKey()
      .count()
      .toStream()
      .to('output')
    mappedKeyStream
      .flatMapValues(v => v.split(/\s/))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(5000))
      .count()
      .toStream()
      .to('windowed-output')
    return builder.build({ topologyOptimization: optimization })
  }

  it('shouldNotOptimizeWithValueOrKeyChangingOperatorsAfterInitialKeyChange', () => {
    const attempted = changingValuesAfterChangingKey('all').describe().toString()
    const none = changingValuesAfterChangingKey('none').describe().toString()
    expect(attempted).to.equal(none)
    expect(repartitionSinks(attempted)).to.equal(2)
    expect(repartitionSinks(none)).to.equal(2)
  })

  it('shouldOptimizeSeveralMergeNodesWithCommonKeyChangingParent', () => {
    const builder = new StreamsBuilder()
    const parentStream = builder.stream('input_topic', Consumed.with(I, I)).selectKey((k, v) => k + v)
    const childStream1 = parentStream.mapValues(v => v + 1)
    const childStream2 = parentStream.mapValues(v => v + 2)
    const childStream3 = parentStream.mapValues(v => v + 3)
    childStream1.merge(childStream2).merge(childStream3).to('output_topic')
    expect(builder.build({ topologyOptimization: 'all' }).describe().toString()).to.equal(expectedMergeOptimizedTopology)
  })

  function withRepartitionOperation(optimization: string): Topology {
    const builder = new StreamsBuilder()
    const inputStream = builder.stream<string, string>('input').selectKey((k, v) => k + v)
    inputStream.repartition().groupByKey().count().toStream().to('output')
    inputStream.repartition().groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(5000)).count().toStream().to('windowed-output')
    return builder.build({ topologyOptimization: optimization })
  }

  it('shouldNotOptimizeWhenRepartitionOperationIsDone', () => {
    const attempted = withRepartitionOperation('all').describe().toString()
    expect(attempted).to.equal(withRepartitionOperation('none').describe().toString())
    expect(repartitionSinks(attempted)).to.equal(2)
  })
})

const expectedMergeOptimizedTopology = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [input_topic])
      --> KSTREAM-KEY-SELECT-0000000001
    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])
      --> KSTREAM-MAPVALUES-0000000002, KSTREAM-MAPVALUES-0000000003, KSTREAM-MAPVALUES-0000000004
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])
      --> KSTREAM-MERGE-0000000005
      <-- KSTREAM-KEY-SELECT-0000000001
    Processor: KSTREAM-MAPVALUES-0000000003 (stores: [])
      --> KSTREAM-MERGE-0000000005
      <-- KSTREAM-KEY-SELECT-0000000001
    Processor: KSTREAM-MAPVALUES-0000000004 (stores: [])
      --> KSTREAM-MERGE-0000000006
      <-- KSTREAM-KEY-SELECT-0000000001
    Processor: KSTREAM-MERGE-0000000005 (stores: [])
      --> KSTREAM-MERGE-0000000006
      <-- KSTREAM-MAPVALUES-0000000002, KSTREAM-MAPVALUES-0000000003
    Processor: KSTREAM-MERGE-0000000006 (stores: [])
      --> KSTREAM-SINK-0000000007
      <-- KSTREAM-MERGE-0000000005, KSTREAM-MAPVALUES-0000000004
    Sink: KSTREAM-SINK-0000000007 (topic: output_topic)
      <-- KSTREAM-MERGE-0000000006

`

const expectedComplexMergeOptimizeTopology = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [retryTopic])
      --> KSTREAM-PROCESSOR-0000000001
    Processor: KSTREAM-PROCESSOR-0000000001 (stores: [])
      --> KSTREAM-FILTER-0000000005
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-FILTER-0000000005 (stores: [])
      --> KSTREAM-SINK-0000000004
      <-- KSTREAM-PROCESSOR-0000000001
    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)
      <-- KSTREAM-FILTER-0000000005

  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])
      --> KTABLE-SUPPRESS-0000000007
      <-- KSTREAM-SOURCE-0000000006
    Source: KSTREAM-SOURCE-0000000019 (topics: [internal-topic-command])
      --> KSTREAM-PEEK-0000000020
    Processor: KTABLE-SUPPRESS-0000000007 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000008])
      --> KTABLE-TOSTREAM-0000000009
      <-- KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-PEEK-0000000020 (stores: [])
      --> KSTREAM-MAPVALUES-0000000021
      <-- KSTREAM-SOURCE-0000000019
    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])
      --> KSTREAM-FLATMAP-0000000010
      <-- KTABLE-SUPPRESS-0000000007
    Processor: KSTREAM-FLATMAP-0000000010 (stores: [])
      --> KSTREAM-MERGE-0000000022
      <-- KTABLE-TOSTREAM-0000000009
    Processor: KSTREAM-MAPVALUES-0000000021 (stores: [])
      --> KSTREAM-MERGE-0000000022
      <-- KSTREAM-PEEK-0000000020
    Processor: KSTREAM-MERGE-0000000022 (stores: [])
      --> KSTREAM-FILTER-0000000024
      <-- KSTREAM-MAPVALUES-0000000021, KSTREAM-FLATMAP-0000000010
    Processor: KSTREAM-FILTER-0000000024 (stores: [])
      --> KSTREAM-SINK-0000000023
      <-- KSTREAM-MERGE-0000000022
    Sink: KSTREAM-SINK-0000000023 (topic: KSTREAM-MERGE-0000000022-repartition)
      <-- KSTREAM-FILTER-0000000024

  Sub-topology: 2
    Source: KSTREAM-SOURCE-0000000011 (topics: [id-table-topic])
      --> KSTREAM-FLATMAP-0000000012
    Processor: KSTREAM-FLATMAP-0000000012 (stores: [])
      --> KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-filter
      <-- KSTREAM-SOURCE-0000000011
    Processor: KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-filter (stores: [])
      --> KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-sink
      <-- KSTREAM-FLATMAP-0000000012
    Sink: KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-sink (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition)
      <-- KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-filter

  Sub-topology: 3
    Source: KSTREAM-SOURCE-0000000025 (topics: [KSTREAM-MERGE-0000000022-repartition])
      --> KSTREAM-LEFTJOIN-0000000026
    Processor: KSTREAM-LEFTJOIN-0000000026 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000014])
      --> KSTREAM-BRANCH-0000000027
      <-- KSTREAM-SOURCE-0000000025
    Processor: KSTREAM-BRANCH-0000000027 (stores: [])
      --> KSTREAM-BRANCH-00000000270, KSTREAM-BRANCH-00000000271
      <-- KSTREAM-LEFTJOIN-0000000026
    Processor: KSTREAM-BRANCH-00000000270 (stores: [])
      --> KSTREAM-FILTER-0000000033, KSTREAM-MAP-0000000037
      <-- KSTREAM-BRANCH-0000000027
    Processor: KSTREAM-BRANCH-00000000271 (stores: [])
      --> KSTREAM-MAP-0000000029
      <-- KSTREAM-BRANCH-0000000027
    Processor: KSTREAM-FILTER-0000000033 (stores: [])
      --> KSTREAM-PEEK-0000000034
      <-- KSTREAM-BRANCH-00000000270
    Source: KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-source (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition])
      --> KSTREAM-PEEK-0000000013
    Processor: KSTREAM-MAP-0000000029 (stores: [])
      --> KSTREAM-PEEK-0000000030
      <-- KSTREAM-BRANCH-00000000271
    Processor: KSTREAM-PEEK-0000000034 (stores: [])
      --> KSTREAM-MAPVALUES-0000000035
      <-- KSTREAM-FILTER-0000000033
    Processor: KSTREAM-MAP-0000000037 (stores: [])
      --> KSTREAM-SINK-0000000038
      <-- KSTREAM-BRANCH-00000000270
    Processor: KSTREAM-MAPVALUES-0000000035 (stores: [])
      --> KSTREAM-SINK-0000000036
      <-- KSTREAM-PEEK-0000000034
    Processor: KSTREAM-PEEK-0000000013 (stores: [])
      --> KSTREAM-AGGREGATE-0000000015
      <-- KSTREAM-AGGREGATE-STATE-STORE-0000000014-repartition-source
    Processor: KSTREAM-PEEK-0000000030 (stores: [])
      --> KSTREAM-SINK-0000000031
      <-- KSTREAM-MAP-0000000029
    Processor: KSTREAM-AGGREGATE-0000000015 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000014])
      --> none
      <-- KSTREAM-PEEK-0000000013
    Sink: KSTREAM-SINK-0000000031 (topic: external-command)
      <-- KSTREAM-PEEK-0000000030
    Sink: KSTREAM-SINK-0000000036 (topic: dlq-topic)
      <-- KSTREAM-MAPVALUES-0000000035
    Sink: KSTREAM-SINK-0000000038 (topic: retryTopic)
      <-- KSTREAM-MAP-0000000037

`
