import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Produced, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()

/** Kafka's WordCountDemo topology. */
function wordCount(): StreamsBuilder {
  const builder = new StreamsBuilder()
  builder
    .stream<string, string>('streams-plaintext-input', Consumed.with(S, S))
    .flatMapValues(value => value.toLowerCase().split(/\W+/))
    .groupBy((_key, value) => value)
    .count()
    .toStream()
    .to('streams-wordcount-output', Produced.with(S, L))
  return builder
}

describe('WordCount with the DSL (WordCountDemoTest)', () => {
  let driver: TopologyTestDriver

  beforeEach(() => {
    driver = new TopologyTestDriver(wordCount().build(), { defaultKeySerde: S, defaultValueSerde: S })
  })
  afterEach(() => {
    driver.close()
  })

  it('counts one word', () => {
    driver.createInputTopic('streams-plaintext-input', S, S).pipeInput(null, 'Hello')
    const output = driver.createOutputTopic('streams-wordcount-output', S, L)
    expect(output.readKeyValue()).to.deep.equal(KeyValue.pair('hello', 1))
    expect(output.isEmpty()).to.equal(true)
  })

  it('counts a list of words, in order', () => {
    const input = driver.createInputTopic('streams-plaintext-input', S, S)
    input.pipeValueList(['Apache Kafka Streams Example', 'Using Kafka Streams Test Utils', 'Reading and Writing Kafka Topic'])
    expect(driver.createOutputTopic('streams-wordcount-output', S, L).readKeyValuesToList()).to.deep.equal([
      KeyValue.pair('apache', 1),
      KeyValue.pair('kafka', 1),
      KeyValue.pair('streams', 1),
      KeyValue.pair('example', 1),
      KeyValue.pair('using', 1),
      KeyValue.pair('kafka', 2),
      KeyValue.pair('streams', 2),
      KeyValue.pair('test', 1),
      KeyValue.pair('utils', 1),
      KeyValue.pair('reading', 1),
      KeyValue.pair('and', 1),
      KeyValue.pair('writing', 1),
      KeyValue.pair('kafka', 3),
      KeyValue.pair('topic', 1)
    ])
  })

  it('counts words to a final map', () => {
    driver
      .createInputTopic('streams-plaintext-input', S, S)
      .pipeValueList(['Hello Kafka Streams', 'All streams lead to Kafka', 'Join Kafka Summit'])
    const counts = driver.createOutputTopic('streams-wordcount-output', S, L).readKeyValuesToMap()
    expect(Object.fromEntries(counts)).to.deep.equal({ hello: 1, all: 1, streams: 2, lead: 1, to: 1, join: 1, kafka: 3, summit: 1 })
  })

  it('describes the same topology as Kafka Streams', () => {
    expect(wordCount().build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [streams-plaintext-input])\n' +
        '      --> KSTREAM-FLATMAPVALUES-0000000001\n' +
        '    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])\n' +
        '      --> KSTREAM-KEY-SELECT-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000006\n' +
        '      <-- KSTREAM-FLATMAPVALUES-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000006 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KSTREAM-KEY-SELECT-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000006\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000007 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n' +
        '      --> KSTREAM-AGGREGATE-0000000004\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000004 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
        '      --> KTABLE-TOSTREAM-0000000008\n' +
        '      <-- KSTREAM-SOURCE-0000000007\n' +
        '    Processor: KTABLE-TOSTREAM-0000000008 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000009\n' +
        '      <-- KSTREAM-AGGREGATE-0000000004\n' +
        '    Sink: KSTREAM-SINK-0000000009 (topic: streams-wordcount-output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000008\n\n'
    )
  })
})
