import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import type { Windowed } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, KeyValue, Materialized, Produced, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/index.js'
import type { CogroupedKStream } from '../../src/cogrouped-kstream.js'
import { SessionWindows } from '../../src/session-windows.js'
import { SlidingWindows } from '../../src/sliding-windows.js'
import { TimeWindows } from '../../src/time-windows.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const concat = (_k: string, v: string, agg: string): string => agg + v

/** Two grouped streams of strings cogrouped with concatenation (the output timestamp of a session update is its end). */
function twoStreams(builder: StreamsBuilder): CogroupedKStream<string, string> {
  const one = builder.stream('one', Consumed.with(S, S)).groupByKey()
  const two = builder.stream('two', Consumed.with(S, S)).groupByKey()
  return one.cogroup(concat).cogroup(two, concat)
}

function run(
  builder: StreamsBuilder,
  table: KTable<Windowed<string>, string>,
  feed: Array<['one' | 'two', string, string, number]>
): Array<[string, string | null, number]> {
  table
    .toStream()
    .map((k: Windowed<string>, v) => KeyValue.pair(k.toString(), v))
    .to('output', Produced.with(S, S))
  const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
  const inputs = { one: driver.createInputTopic('one', S, S), two: driver.createInputTopic('two', S, S) }
  for (const [topic, k, v, ts] of feed) inputs[topic].pipeInput(k, v, ts)
  const out = readAll(driver.createOutputTopic('output', S, S)) as Array<[string, string | null, number]>
  driver.close()
  return out
}

describe('CogroupedKStream.windowedBy (TimeWindowedCogroupedKStreamImplTest, SessionWindowedCogroupedKStreamImplTest)', () => {
  it('time windows: both streams fold into the aggregate of each key and window', () => {
    const builder = new StreamsBuilder()
    const table = twoStreams(builder)
      .windowedBy(TimeWindows.ofSizeWithNoGrace(500))
      .aggregate(() => '', Materialized.with(S, S))
    const out = run(builder, table, [
      ['one', 'k1', 'A', 0],
      ['two', 'k1', 'B', 100],
      ['one', 'k2', 'C', 200],
      ['one', 'k1', 'E', 499],
      ['two', 'k1', 'D', 600]
    ])
    expect(out).to.deep.equal([
      ['[k1@0/500]', 'A', 0],
      ['[k1@0/500]', 'AB', 100],
      ['[k2@0/500]', 'C', 200],
      ['[k1@0/500]', 'ABE', 499],
      ['[k1@500/1000]', 'D', 600]
    ])
  })

  it('sliding windows: the windows of each record, fed by both streams', () => {
    const builder = new StreamsBuilder()
    const table = twoStreams(builder)
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(100))
      .aggregate(() => '', Materialized.with(S, S))
    const out = run(builder, table, [
      ['one', 'k', 'A', 100],
      ['two', 'k', 'B', 150]
    ])
    expect(out).to.deep.equal([
      ['[k@0/100]', 'A', 100],
      ['[k@101/201]', 'B', 150],
      ['[k@50/150]', 'AB', 150]
    ])
  })

  it('session windows: records of either stream extend and merge the sessions of a key', () => {
    const builder = new StreamsBuilder()
    const table = twoStreams(builder)
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(100))
      .aggregate(
        () => '',
        (_k, a, b) => a + b,
        Materialized.with<string, string>(S, S).withCachingDisabled()
      )
    const out = run(builder, table, [
      ['one', 'k', 'A', 0],
      ['two', 'k', 'C', 80],
      ['one', 'k', 'B', 300]
    ])
    expect(out).to.deep.equal([
      ['[k@0/0]', 'A', 0],
      ['[k@0/0]', null, 0],
      ['[k@0/80]', 'AC', 80],
      ['[k@300/300]', 'B', 300]
    ])
  })

  it('describe(): one window store for every aggregation, named as the cogroup nodes', () => {
    const builder = new StreamsBuilder()
    twoStreams(builder)
      .windowedBy(TimeWindows.ofSizeWithNoGrace(500))
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

  it('rejects a retention shorter than the window size plus the grace period', () => {
    const builder = new StreamsBuilder()
    const windowed = twoStreams(builder).windowedBy(TimeWindows.ofSizeAndGrace(500, 100))
    expect(() => windowed.aggregate(() => '', Materialized.as<string, string>('w').withRetention(550)))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
