/**
 * EmitStrategy.onWindowClose with the default in-memory stores and their default retention
 * (size + grace; gap + grace for sessions): such a store drops a window as soon as it closes, so
 * the processors emit closed windows before the record's put advances the store's stream time.
 * (Kafka Streams emits after the put and emits nothing here with in-memory stores; with its
 * default RocksDB stores it emits what these tests expect.)
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import {
  Consumed,
  EmitStrategy,
  Grouped,
  Materialized,
  Produced,
  SessionWindows,
  SlidingWindows,
  StreamsBuilder,
  TimeWindows
} from '../../src/index.js'
import type { KGroupedStream, KTable, Windowed } from '../../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()

function run(
  windowed: (grouped: KGroupedStream<string, string>) => KTable<Windowed<string>, number>,
  inputs: Array<[string, number]>
): Array<[string, number | null, number]> {
  const builder = new StreamsBuilder()
  windowed(builder.stream('in', Consumed.with(S, S)).groupByKey(Grouped.with(S, S)))
    .toStream()
    .map((k, v) => KeyValue.pair(k.toString(), v))
    .to('out', Produced.with(S, L))
  const driver = new TopologyTestDriver(builder.build())
  try {
    const input = driver.createInputTopic('in', S, S)
    for (const [k, ts] of inputs) input.pipeInput(k, 'v', ts)
    return driver
      .createOutputTopic('out', S, L)
      .readRecordsToList()
      .map(r => [r.key!, r.value, r.timestamp])
  } finally {
    driver.close()
  }
}

describe('onWindowClose with default in-memory stores', () => {
  it('time windows: each window once, when stream time passes end + grace', () => {
    const out = run(
      g => g.windowedBy(TimeWindows.ofSizeAndGrace(10, 5)).emitStrategy(EmitStrategy.onWindowClose()).count(),
      [
        ['a', 0],
        ['a', 3],
        ['b', 4],
        ['a', 12],
        ['a', 14],
        ['a', 15],
        ['a', 40]
      ]
    )
    expect(out).to.deep.equal([
      ['[a@0/10]', 2, 3],
      ['[b@0/10]', 1, 4],
      ['[a@10/20]', 3, 15]
    ])
  })

  it('sliding windows: the closed windows, in window start order', () => {
    const out = run(
      g => g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(5)).emitStrategy(EmitStrategy.onWindowClose()).count(),
      [
        ['a', 10],
        ['a', 12],
        ['a', 30]
      ]
    )
    expect(out).to.deep.equal([
      ['[a@5/10]', 1, 10],
      ['[a@7/12]', 2, 12],
      ['[a@11/16]', 1, 12]
    ])
  })

  it('session windows: each session once, when stream time passes end + gap + grace', () => {
    const out = run(
      g => g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5)).emitStrategy(EmitStrategy.onWindowClose()).count(),
      [
        ['a', 0],
        ['a', 3],
        ['b', 4],
        ['a', 20],
        ['a', 40]
      ]
    )
    expect(out).to.deep.equal([
      ['[a@0/3]', 2, 3],
      ['[b@4/4]', 1, 4],
      ['[a@20/20]', 1, 20]
    ])
  })

  describe('with the wall-clock emit throttle (windowedAggregationEmitIntervalMs 1000)', () => {
    const inputs: Array<[string, number]> = [
      ['a', 1000],
      ['b', 2000],
      ['a', 5000],
      ['b', 12000],
      ['c', 31000]
    ]
    function throttled(materialized: Materialized<string, number>): { driver: TopologyTestDriver; read: () => string[] } {
      const builder = new StreamsBuilder()
      builder
        .stream('in', Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(TimeWindows.ofSizeAndGrace(10_000, 1_000))
        .emitStrategy(EmitStrategy.onWindowClose())
        .count(materialized)
        .toStream()
        .map((k, v) => KeyValue.pair(k.toString(), v))
        .to('out', Produced.with(S, L))
      const driver = new TopologyTestDriver(builder.build(), { windowedAggregationEmitIntervalMs: 1000 }, 0)
      const input = driver.createInputTopic('in', S, S)
      for (const [k, ts] of inputs) input.pipeInput(k, 'v', ts)
      const out = driver.createOutputTopic('out', S, L)
      return { driver, read: () => out.readRecordsToList().map(r => `${r.key!}=${String(r.value)}`) }
    }

    it('a throttled pass still runs when the put would expire closed windows not emitted yet (default retention)', () => {
      const { driver, read } = throttled(Materialized.as<string, number>('counts'))
      expect(read()).to.deep.equal(['[a@0/10000]=2', '[b@0/10000]=1', '[b@10000/20000]=1'])
      driver.close()
    })

    it('with a long retention the throttle holds the windows until wall-clock time has passed, as in Kafka Streams', () => {
      const { driver, read } = throttled(Materialized.as<string, number>('counts').withRetention(86_400_000))
      expect(read()).to.deep.equal([])
      driver.advanceWallClockTime(1000)
      driver.createInputTopic('in', S, S).pipeInput('c', 'v', 32000)
      expect(read()).to.deep.equal(['[a@0/10000]=2', '[b@0/10000]=1', '[b@10000/20000]=1'])
      driver.close()
    })
  })
})
