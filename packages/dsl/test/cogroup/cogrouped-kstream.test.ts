import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Named, Produced, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/index.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()
const CONFIG = { defaultKeySerde: S, defaultValueSerde: S }
const concat = (_k: string, v: string, agg: string): string => agg + v

function output(
  builder: StreamsBuilder,
  table: KTable<string, string>,
  feed: (driver: TopologyTestDriver) => void
): Array<[string | null, string | null, number]> {
  table.toStream().to('output', Produced.with(S, S))
  const driver = new TopologyTestDriver(builder.build(), CONFIG)
  feed(driver)
  const out = readAll(driver.createOutputTopic('output', S, S))
  driver.close()
  return out
}

describe('KGroupedStream.cogroup + CogroupedKStream (CogroupedKStreamImplTest)', () => {
  it('aggregates a single grouped stream', () => {
    const builder = new StreamsBuilder()
    const table = builder
      .stream('one', Consumed.with(S, S))
      .groupByKey()
      .cogroup(concat)
      .aggregate(() => '')
    const out = output(builder, table, driver => {
      const one = driver.createInputTopic('one', S, S)
      one.pipeInput('k1', 'A', 0)
      one.pipeInput('k2', 'B', 0)
      one.pipeInput('k2', 'B', 0)
      one.pipeInput('k1', 'A', 0)
    })
    expect(out).to.deep.equal([
      ['k1', 'A', 0],
      ['k2', 'B', 0],
      ['k2', 'BB', 0],
      ['k1', 'AA', 0]
    ])
  })

  it('folds two streams of different value types into one aggregate per key; timestamp max(previous, record)', () => {
    const builder = new StreamsBuilder()
    const strings = builder.stream('one', Consumed.with(S, S)).groupByKey()
    const numbers = builder.stream('two', Consumed.with(S, I)).groupByKey()
    const table = strings
      .cogroup(concat)
      .cogroup(numbers, (_k, v: number, agg: string) => agg + String(v))
      .aggregate(() => '', Materialized.as('store'))
    const out = output(builder, table, driver => {
      const one = driver.createInputTopic('one', S, S)
      const two = driver.createInputTopic('two', S, I)
      one.pipeInput('k1', 'A', 5)
      two.pipeInput('k1', 1, 3)
      two.pipeInput('k2', 2, 7)
      one.pipeInput('k2', 'B', 6)
      one.pipeInput('k1', 'C', 10)
      two.pipeInput('k1', 3, 9)
    })
    expect(out).to.deep.equal([
      ['k1', 'A', 5],
      ['k1', 'A1', 5],
      ['k2', '2', 7],
      ['k2', '2B', 7],
      ['k1', 'A1C', 10],
      ['k1', 'A1C3', 10]
    ])
  })

  it('skips records with a null key or value', () => {
    const builder = new StreamsBuilder()
    const table = builder
      .stream('one', Consumed.with(S, S))
      .groupByKey()
      .cogroup(concat)
      .aggregate(() => '')
    const out = output(builder, table, driver => {
      const one = driver.createInputTopic('one', S, S)
      one.pipeInput(null as unknown as string, 'A', 0)
      one.pipeInput('k1', null, 1)
      one.pipeInput('k1', 'B', 2)
    })
    expect(out).to.deep.equal([['k1', 'B', 2]])
  })

  it('repartitions a grouped stream whose key changed, through <store>-repartition (describe)', () => {
    const builder = new StreamsBuilder()
    const groupedOne = builder
      .stream<string, string>('topic', Consumed.with(S, S))
      .map((k, v) => KeyValue.pair(v, k))
      .groupByKey()
    const groupedTwo = builder.stream<string, string>('topic2', Consumed.with(S, S)).groupByKey()
    const table = groupedOne
      .cogroup(concat)
      .cogroup(groupedTwo, concat)
      .aggregate(() => '', Named.as('test'), Materialized.as<string, string>('store'))
    table.toStream().to('output')
    const text = builder.build().describe().toString()
    expect(text).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KSTREAM-MAP-0000000001\n' +
        '    Processor: KSTREAM-MAP-0000000001 (stores: [])\n' +
        '      --> store-repartition-filter\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: store-repartition-filter (stores: [])\n' +
        '      --> store-repartition-sink\n' +
        '      <-- KSTREAM-MAP-0000000001\n' +
        '    Sink: store-repartition-sink (topic: store-repartition)\n' +
        '      <-- store-repartition-filter\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n' +
        '      --> test-cogroup-agg-1\n' +
        '    Source: store-repartition-source (topics: [store-repartition])\n' +
        '      --> test-cogroup-agg-0\n' +
        '    Processor: test-cogroup-agg-0 (stores: [store])\n' +
        '      --> test-cogroup-merge\n' +
        '      <-- store-repartition-source\n' +
        '    Processor: test-cogroup-agg-1 (stores: [store])\n' +
        '      --> test-cogroup-merge\n' +
        '      <-- KSTREAM-SOURCE-0000000002\n' +
        '    Processor: test-cogroup-merge (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000009\n' +
        '      <-- test-cogroup-agg-0, test-cogroup-agg-1\n' +
        '    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000010\n' +
        '      <-- test-cogroup-merge\n' +
        '    Sink: KSTREAM-SINK-0000000010 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000009\n\n'
    )
    const driver = new TopologyTestDriver(builder.build(), CONFIG)
    driver.createInputTopic('topic', S, S).pipeInput('a', 'k1', 4)
    driver.createInputTopic('topic2', S, S).pipeInput('k1', 'b', 2)
    expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal([
      ['k1', 'a', 4],
      ['k1', 'ab', 4]
    ])
    driver.close()
  })

  it('numbers the store, the aggregators and the merge node when nothing is named (describe)', () => {
    const builder = new StreamsBuilder()
    const one = builder.stream<string, string>('one').groupByKey(Grouped.with(S, S))
    const two = builder.stream<string, string>('two').groupByKey(Grouped.with(S, S))
    one
      .cogroup(concat)
      .cogroup(two, concat)
      .aggregate(() => '')
      .toStream()
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
        '      --> COGROUPKSTREAM-AGGREGATE-0000000003\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
        '      --> COGROUPKSTREAM-AGGREGATE-0000000004\n' +
        '    Processor: COGROUPKSTREAM-AGGREGATE-0000000003 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> COGROUPKSTREAM-MERGE-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: COGROUPKSTREAM-AGGREGATE-0000000004 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> COGROUPKSTREAM-MERGE-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: COGROUPKSTREAM-MERGE-0000000005 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000006\n' +
        '      <-- COGROUPKSTREAM-AGGREGATE-0000000003, COGROUPKSTREAM-AGGREGATE-0000000004\n' +
        '    Processor: KTABLE-TOSTREAM-0000000006 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000007\n' +
        '      <-- COGROUPKSTREAM-MERGE-0000000005\n' +
        '    Sink: KSTREAM-SINK-0000000007 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000006\n\n'
    )
  })

  it('the result is a queryable table when the store is named, and can feed a KTable operator needing old values', () => {
    const builder = new StreamsBuilder()
    const table = builder
      .stream('one', Consumed.with(S, S))
      .groupByKey()
      .cogroup(concat)
      .aggregate(() => '', Materialized.as<string, string>('agg'))
    const out = output(
      builder,
      table.filter((_k, v) => v.length < 3),
      driver => {
        const one = driver.createInputTopic('one', S, S)
        one.pipeInput('k', 'a', 1)
        one.pipeInput('k', 'b', 2)
        one.pipeInput('k', 'c', 3)
        expect(driver.getKeyValueStore<string, string>('agg')?.get('k')).to.equal('abc')
      }
    )
    expect(out).to.deep.equal([
      ['k', 'a', 1],
      ['k', 'ab', 2],
      ['k', null, 3]
    ])
  })

  it('cogrouping a grouped stream again replaces its aggregator; missing arguments are ILLEGAL_ARGUMENT', () => {
    const builder = new StreamsBuilder()
    const grouped = builder.stream('one', Consumed.with(S, S)).groupByKey()
    const table = grouped
      .cogroup(concat)
      .cogroup(grouped, (_k, v, agg) => agg + v.toUpperCase())
      .aggregate(() => '')
    const out = output(builder, table, driver => {
      driver.createInputTopic('one', S, S).pipeInput('k', 'a', 1)
    })
    expect(out).to.deep.equal([['k', 'A', 1]])
    const missing = undefined as unknown as () => never
    expect(() => grouped.cogroup(missing))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => grouped.cogroup(concat).aggregate(missing))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('type checks: each cogrouped stream brings an aggregator of its own value type', () => {
    const builder = new StreamsBuilder()
    const strings = builder.stream<string, string>('one').groupByKey()
    const numbers = builder.stream<string, number>('two').groupByKey()
    // @ts-expect-error the aggregator of the numbers stream takes numbers
    strings.cogroup(concat).cogroup(numbers, concat)
    const ok: KTable<string, string> = strings
      .cogroup(concat)
      .cogroup(numbers, (_k, v, agg) => agg + v.toFixed(0))
      .aggregate(() => '')
    expect(ok).to.not.equal(undefined)
  })
})
