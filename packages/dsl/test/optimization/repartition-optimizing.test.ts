/**
 * Kafka's RepartitionOptimizingTest: four repartition topics after one map() become one with
 * merge.repartition.topics ("all"), describe() equals Kafka's text with and without it, and the
 * TopologyTestDriver produces Kafka's records either way.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Processor } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, JoinWindows, Materialized, Named, Produced, StreamJoined, StreamsBuilder } from '../../src/index.js'

const S = Serdes.String()
const DAY = 86_400_000

function runTest(optimization: string): { text: string; collected: string[]; outputs: Array<Map<string, unknown>> } {
  const builder = new StreamsBuilder()
  const collected: string[] = []
  const mappedStream = builder
    .stream('input', Consumed.with(S, S).withName('sourceStream'))
    .map((k, v) => KeyValue.pair(k.toUpperCase(), v), Named.as('source-map'))
  mappedStream
    .filter(k => k === 'B', Named.as('process-filter'))
    .mapValues(v => v.toUpperCase(), Named.as('process-mapValues'))
    .process((): Processor<string, string, never, never> => ({ process: record => void collected.push(record.value) }), Named.as('process'))
  const countStream = mappedStream
    .groupByKey(Grouped.as('count-groupByKey'))
    .count(
      Named.as('count'),
      Materialized.as<string, number>(Stores.inMemoryKeyValueStore('count-store')).withKeySerde(S).withValueSerde(Serdes.Long())
    )
    .toStream(Named.as('count-toStream'))
  countStream.to('outputTopic_0', Produced.with(S, Serdes.Long()).withName('count-to'))
  mappedStream
    .groupByKey(Grouped.as('aggregate-groupByKey'))
    .aggregate(
      () => 0,
      (_k, v, agg) => agg + v.length,
      Named.as('aggregate'),
      Materialized.as<string, number>(Stores.inMemoryKeyValueStore('aggregate-store')).withKeySerde(S).withValueSerde(Serdes.Integer())
    )
    .toStream(Named.as('aggregate-toStream'))
    .to('outputTopic_1', Produced.with(S, Serdes.Integer()).withName('reduce-to'))
  mappedStream
    .filter(() => true, Named.as('reduce-filter'))
    .peek(() => {}, Named.as('reduce-peek'))
    .groupByKey(Grouped.as('reduce-groupByKey'))
    .reduce((v1, v2) => `${v1}:${v2}`, Named.as('reducer'), Materialized.as(Stores.inMemoryKeyValueStore('reduce-store')))
    .toStream(Named.as('reduce-toStream'))
    .to('outputTopic_2', Produced.with(S, S))
  mappedStream
    .filter(k => k === 'A', Named.as('join-filter'))
    .join(
      countStream,
      (v1: string, v2: number) => `${v1}:${v2}`,
      // Kafka's deprecated JoinWindows.of(5000): the grace is 24 hours minus twice the difference
      JoinWindows.ofTimeDifferenceAndGrace(5000, DAY - 10_000),
      StreamJoined.withStoreSuppliers<string, string, number>(
        Stores.inMemoryWindowStore('join-store', DAY, 10_000, true),
        Stores.inMemoryWindowStore('other-join-store', DAY, 10_000, true)
      )
        .withName('join')
        .withKeySerde(S)
        .withValueSerde(S)
        .withOtherValueSerde(Serdes.Long())
    )
    .to('joinedOutputTopic', Produced.as('join-to'))

  const topology = builder.build({ topologyOptimization: optimization })
  const driver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: S, statestoreCacheMaxBytes: 10 * 1024 })
  try {
    const input = driver.createInputTopic('input', S, S)
    for (const key of ['a', 'b', 'c']) for (const value of ['foo', 'bar', 'baz']) input.pipeInput(key, value)
    const outputs = [
      driver.createOutputTopic('outputTopic_0', S, Serdes.Long()).readKeyValuesToMap(),
      driver.createOutputTopic('outputTopic_1', S, Serdes.Integer()).readKeyValuesToMap(),
      driver.createOutputTopic('outputTopic_2', S, S).readKeyValuesToMap(),
      driver.createOutputTopic('joinedOutputTopic', S, S).readKeyValuesToMap()
    ] as Array<Map<string, unknown>>
    return { text: topology.describe().toString(), collected, outputs }
  } finally {
    driver.close()
  }
}

function repartitionSinks(text: string): number {
  return text.match(/Sink: .*-repartition/g)?.length ?? 0
}

const expectedOutputs = [
  new Map([
    ['A', 3],
    ['B', 3],
    ['C', 3]
  ]),
  new Map([
    ['A', 9],
    ['B', 9],
    ['C', 9]
  ]),
  new Map([
    ['A', 'foo:bar:baz'],
    ['B', 'foo:bar:baz'],
    ['C', 'foo:bar:baz']
  ]),
  new Map([['A', 'baz:3']])
]

describe('merge.repartition.topics: RepartitionOptimizingTest', () => {
  for (const optimization of [
    'all',
    'merge.repartition.topics',
    'reuse.ktable.source.topics,merge.repartition.topics,single.store.self.join'
  ]) {
    it(`shouldSendCorrectRecords_OPTIMIZED ("${optimization}"): one repartition topic`, () => {
      const { text, collected, outputs } = runTest(optimization)
      expect(text).to.equal(EXPECTED_OPTIMIZED_TOPOLOGY)
      expect(repartitionSinks(text)).to.equal(1)
      expect(collected).to.deep.equal(['FOO', 'BAR', 'BAZ'])
      expect(outputs).to.deep.equal(expectedOutputs)
    })
  }

  it('shouldSendCorrectResults_NO_OPTIMIZATION: four repartition topics', () => {
    const { text, collected, outputs } = runTest('none')
    expect(text).to.equal(EXPECTED_UNOPTIMIZED_TOPOLOGY)
    expect(repartitionSinks(text)).to.equal(4)
    expect(collected).to.deep.equal(['FOO', 'BAR', 'BAZ'])
    expect(outputs).to.deep.equal(expectedOutputs)
  })
})

const EXPECTED_OPTIMIZED_TOPOLOGY = `Topologies:
   Sub-topology: 0
    Source: sourceStream (topics: [input])
      --> source-map
    Processor: source-map (stores: [])
      --> process-filter, count-groupByKey-repartition-filter
      <-- sourceStream
    Processor: process-filter (stores: [])
      --> process-mapValues
      <-- source-map
    Processor: count-groupByKey-repartition-filter (stores: [])
      --> count-groupByKey-repartition-sink
      <-- source-map
    Processor: process-mapValues (stores: [])
      --> process
      <-- process-filter
    Sink: count-groupByKey-repartition-sink (topic: count-groupByKey-repartition)
      <-- count-groupByKey-repartition-filter
    Processor: process (stores: [])
      --> none
      <-- process-mapValues

  Sub-topology: 1
    Source: count-groupByKey-repartition-source (topics: [count-groupByKey-repartition])
      --> aggregate, count, join-filter, reduce-filter
    Processor: count (stores: [count-store])
      --> count-toStream
      <-- count-groupByKey-repartition-source
    Processor: count-toStream (stores: [])
      --> join-other-windowed, count-to
      <-- count
    Processor: join-filter (stores: [])
      --> join-this-windowed
      <-- count-groupByKey-repartition-source
    Processor: reduce-filter (stores: [])
      --> reduce-peek
      <-- count-groupByKey-repartition-source
    Processor: join-other-windowed (stores: [other-join-store])
      --> join-other-join
      <-- count-toStream
    Processor: join-this-windowed (stores: [join-store])
      --> join-this-join
      <-- join-filter
    Processor: reduce-peek (stores: [])
      --> reducer
      <-- reduce-filter
    Processor: aggregate (stores: [aggregate-store])
      --> aggregate-toStream
      <-- count-groupByKey-repartition-source
    Processor: join-other-join (stores: [join-store])
      --> join-merge
      <-- join-other-windowed
    Processor: join-this-join (stores: [other-join-store])
      --> join-merge
      <-- join-this-windowed
    Processor: reducer (stores: [reduce-store])
      --> reduce-toStream
      <-- reduce-peek
    Processor: aggregate-toStream (stores: [])
      --> reduce-to
      <-- aggregate
    Processor: join-merge (stores: [])
      --> join-to
      <-- join-this-join, join-other-join
    Processor: reduce-toStream (stores: [])
      --> KSTREAM-SINK-0000000023
      <-- reducer
    Sink: KSTREAM-SINK-0000000023 (topic: outputTopic_2)
      <-- reduce-toStream
    Sink: count-to (topic: outputTopic_0)
      <-- count-toStream
    Sink: join-to (topic: joinedOutputTopic)
      <-- join-merge
    Sink: reduce-to (topic: outputTopic_1)
      <-- aggregate-toStream

`

const EXPECTED_UNOPTIMIZED_TOPOLOGY = `Topologies:
   Sub-topology: 0
    Source: sourceStream (topics: [input])
      --> source-map
    Processor: source-map (stores: [])
      --> reduce-filter, process-filter, aggregate-groupByKey-repartition-filter, count-groupByKey-repartition-filter, join-filter
      <-- sourceStream
    Processor: reduce-filter (stores: [])
      --> reduce-peek
      <-- source-map
    Processor: join-filter (stores: [])
      --> join-left-repartition-filter
      <-- source-map
    Processor: process-filter (stores: [])
      --> process-mapValues
      <-- source-map
    Processor: reduce-peek (stores: [])
      --> reduce-groupByKey-repartition-filter
      <-- reduce-filter
    Processor: aggregate-groupByKey-repartition-filter (stores: [])
      --> aggregate-groupByKey-repartition-sink
      <-- source-map
    Processor: count-groupByKey-repartition-filter (stores: [])
      --> count-groupByKey-repartition-sink
      <-- source-map
    Processor: join-left-repartition-filter (stores: [])
      --> join-left-repartition-sink
      <-- join-filter
    Processor: process-mapValues (stores: [])
      --> process
      <-- process-filter
    Processor: reduce-groupByKey-repartition-filter (stores: [])
      --> reduce-groupByKey-repartition-sink
      <-- reduce-peek
    Sink: aggregate-groupByKey-repartition-sink (topic: aggregate-groupByKey-repartition)
      <-- aggregate-groupByKey-repartition-filter
    Sink: count-groupByKey-repartition-sink (topic: count-groupByKey-repartition)
      <-- count-groupByKey-repartition-filter
    Sink: join-left-repartition-sink (topic: join-left-repartition)
      <-- join-left-repartition-filter
    Processor: process (stores: [])
      --> none
      <-- process-mapValues
    Sink: reduce-groupByKey-repartition-sink (topic: reduce-groupByKey-repartition)
      <-- reduce-groupByKey-repartition-filter

  Sub-topology: 1
    Source: count-groupByKey-repartition-source (topics: [count-groupByKey-repartition])
      --> count
    Processor: count (stores: [count-store])
      --> count-toStream
      <-- count-groupByKey-repartition-source
    Processor: count-toStream (stores: [])
      --> join-other-windowed, count-to
      <-- count
    Source: join-left-repartition-source (topics: [join-left-repartition])
      --> join-this-windowed
    Processor: join-other-windowed (stores: [other-join-store])
      --> join-other-join
      <-- count-toStream
    Processor: join-this-windowed (stores: [join-store])
      --> join-this-join
      <-- join-left-repartition-source
    Processor: join-other-join (stores: [join-store])
      --> join-merge
      <-- join-other-windowed
    Processor: join-this-join (stores: [other-join-store])
      --> join-merge
      <-- join-this-windowed
    Processor: join-merge (stores: [])
      --> join-to
      <-- join-this-join, join-other-join
    Sink: count-to (topic: outputTopic_0)
      <-- count-toStream
    Sink: join-to (topic: joinedOutputTopic)
      <-- join-merge

  Sub-topology: 2
    Source: aggregate-groupByKey-repartition-source (topics: [aggregate-groupByKey-repartition])
      --> aggregate
    Processor: aggregate (stores: [aggregate-store])
      --> aggregate-toStream
      <-- aggregate-groupByKey-repartition-source
    Processor: aggregate-toStream (stores: [])
      --> reduce-to
      <-- aggregate
    Sink: reduce-to (topic: outputTopic_1)
      <-- aggregate-toStream

  Sub-topology: 3
    Source: reduce-groupByKey-repartition-source (topics: [reduce-groupByKey-repartition])
      --> reducer
    Processor: reducer (stores: [reduce-store])
      --> reduce-toStream
      <-- reduce-groupByKey-repartition-source
    Processor: reduce-toStream (stores: [])
      --> KSTREAM-SINK-0000000023
      <-- reducer
    Sink: KSTREAM-SINK-0000000023 (topic: outputTopic_2)
      <-- reduce-toStream

`
