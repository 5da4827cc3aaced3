import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '../../src/index.js'
import { EmitStrategy } from '../../src/emit-strategy.js'
import { TimeWindows } from '../../src/time-windows.js'
import { droppedRecords, w, windowedCapture } from './window-helpers.js'
import type { WKVT } from './window-helpers.js'

const S = Serdes.String()
const DAY = 24 * 60 * 60 * 1000
const STRATEGIES = [EmitStrategy.onWindowUpdate(), EmitStrategy.onWindowClose()]

/** Kafka's MockAggregator.TOSTRING_ADDER over MockInitializer.STRING_INIT ('0'). */
function stringAdder(
  builder: StreamsBuilder,
  windows: TimeWindows,
  strategy: EmitStrategy,
  withCache: boolean,
  topic = 'topic1'
): Array<WKVT<string>> {
  const { supplier, processed } = windowedCapture<string, string>()
  const m = Materialized.as<string, string>(topic + '-Canonized')
    .withValueSerde(S)
    .withRetention(DAY)
  builder
    .stream(topic, Consumed.with(S, S))
    .groupByKey(Grouped.with(S, S))
    .windowedBy(windows)
    .emitStrategy(strategy)
    .aggregate(
      () => '0',
      (_k, v, agg) => agg + '+' + v,
      withCache ? m.withCachingEnabled() : m.withCachingDisabled()
    )
    .toStream()
    .process(supplier)
  return processed
}

function pipe(input: TestInputTopic<string, string>, records: Array<[string, string, number]>): void {
  for (const [k, v, ts] of records) input.pipeInput(k, v, ts)
}

describe('KStreamWindowAggregate (KStreamWindowAggregateTest)', () => {
  for (const strategy of STRATEGIES) {
    for (const withCache of [true, false]) {
      const emitFinal = strategy.type === 'ON_WINDOW_CLOSE'
      it(`aggregates into hopping windows (testAggBasic, ${strategy.type}, caching ${withCache ? 'on' : 'off'})`, () => {
        const builder = new StreamsBuilder()
        const processed = stringAdder(builder, TimeWindows.ofSizeAndGrace(10, 100).advanceBy(5), strategy, withCache)
        const driver = new TopologyTestDriver(builder.build())
        pipe(driver.createInputTopic('topic1', S, S), [
          ['A', '1', 0],
          ['B', '2', 1],
          ['C', '3', 2],
          ['D', '4', 3],
          ['A', '1', 4],
          ['A', '1', 5],
          ['B', '2', 6],
          ['D', '4', 7],
          ['B', '2', 8],
          ['C', '3', 9],
          ['A', '1', 10],
          ['B', '2', 11],
          ['D', '4', 12],
          ['B', '2', 13],
          ['C', '3', 14],
          ['B', '1', 3],
          ['B', '2', 2],
          ['B', '3', 9]
        ])
        driver.close()
        // With a grace of 100 no window closes.
        expect(processed).to.deep.equal(
          emitFinal
            ? []
            : [
                [w('A', 0, 10), '0+1', 0],
                [w('B', 0, 10), '0+2', 1],
                [w('C', 0, 10), '0+3', 2],
                [w('D', 0, 10), '0+4', 3],
                [w('A', 0, 10), '0+1+1', 4],
                [w('A', 0, 10), '0+1+1+1', 5],
                [w('A', 5, 15), '0+1', 5],
                [w('B', 0, 10), '0+2+2', 6],
                [w('B', 5, 15), '0+2', 6],
                [w('D', 0, 10), '0+4+4', 7],
                [w('D', 5, 15), '0+4', 7],
                [w('B', 0, 10), '0+2+2+2', 8],
                [w('B', 5, 15), '0+2+2', 8],
                [w('C', 0, 10), '0+3+3', 9],
                [w('C', 5, 15), '0+3', 9],
                [w('A', 5, 15), '0+1+1', 10],
                [w('A', 10, 20), '0+1', 10],
                [w('B', 5, 15), '0+2+2+2', 11],
                [w('B', 10, 20), '0+2', 11],
                [w('D', 5, 15), '0+4+4', 12],
                [w('D', 10, 20), '0+4', 12],
                [w('B', 5, 15), '0+2+2+2+2', 13],
                [w('B', 10, 20), '0+2+2', 13],
                [w('C', 5, 15), '0+3+3', 14],
                [w('C', 10, 20), '0+3', 14],
                [w('B', 0, 10), '0+2+2+2+1', 8],
                [w('B', 0, 10), '0+2+2+2+1+2', 8],
                [w('B', 0, 10), '0+2+2+2+1+2+3', 9],
                [w('B', 5, 15), '0+2+2+2+2+3', 13]
              ]
        )
      })
    }

    it(`drops and counts records of expired windows, hopping (shouldLogAndMeterWhenSkippingExpiredWindow, ${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      // A day of retention keeps closed windows readable for the emit pass, as Kafka's RocksDB stores do.
      builder
        .stream('topic', Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(TimeWindows.ofSizeAndGrace(10, 90).advanceBy(5))
        .emitStrategy(strategy)
        .aggregate(
          () => '',
          (_k, v, agg) => agg + '+' + v,
          Materialized.as<string, string>('topic1-Canonicalized').withValueSerde(S).withLoggingDisabled().withRetention(DAY)
        )
        .toStream()
        .map((key, value) => KeyValue.pair(key.toString(), value))
        .to('output', Produced.with(S, S))
      const driver = new TopologyTestDriver(builder.build())
      pipe(driver.createInputTopic('topic', S, S), [
        ['k', '100', 100],
        ['k', '0', 0],
        ['k', '1', 1],
        ['k', '2', 2],
        ['k', '3', 3],
        ['k', '4', 4],
        ['k', '5', 5],
        ['k', '6', 6],
        ['k', '105', 105],
        ['k', '106', 106]
      ])
      // k@0..k@6 fall in [0,10), which closed at stream time 100 - 90 = 10; k@5 and k@6 also fall in [5,15).
      expect(droppedRecords(driver.metrics())).to.equal(7)
      const output = driver
        .createOutputTopic('output', S, S)
        .readRecordsToList()
        .map(r => [r.key, r.value, r.timestamp])
      expect(output).to.deep.equal(
        strategy.type === 'ON_WINDOW_CLOSE'
          ? // The close time reaches 15 at k@105.
            [['[k@5/15]', '+5+6', 6]]
          : [
              ['[k@95/105]', '+100', 100],
              ['[k@100/110]', '+100', 100],
              ['[k@5/15]', '+5', 5],
              ['[k@5/15]', '+5+6', 6],
              ['[k@100/110]', '+100+105', 105],
              ['[k@105/115]', '+105', 105],
              ['[k@100/110]', '+100+105+106', 106],
              ['[k@105/115]', '+105+106', 106]
            ]
      )
      driver.close()
    })

    it(`drops and counts records of windows closed by the grace period (${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      builder
        .stream('topic', Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(TimeWindows.ofSizeAndGrace(10, 90).advanceBy(10))
        .emitStrategy(strategy)
        .aggregate(
          () => '',
          (_k, v, agg) => agg + '+' + v,
          Materialized.as<string, string>('topic1-Canonicalized').withValueSerde(S).withLoggingDisabled()
        )
        .toStream()
        .map((key, value) => KeyValue.pair(key.toString(), value))
        .to('output', Produced.with(S, S))
      const driver = new TopologyTestDriver(builder.build())
      pipe(driver.createInputTopic('topic', S, S), [
        ['k', '100', 200],
        ['k', '0', 100],
        ['k', '1', 101],
        ['k', '2', 102],
        ['k', '3', 103],
        ['k', '4', 104],
        ['k', '5', 105],
        ['k', '6', 6]
      ])
      expect(droppedRecords(driver.metrics())).to.equal(7)
      const output = driver
        .createOutputTopic('output', S, S)
        .readRecordsToList()
        .map(r => [r.key, r.value, r.timestamp])
      expect(output).to.deep.equal(strategy.type === 'ON_WINDOW_CLOSE' ? [] : [['[k@200/210]', '+100', 200]])
      driver.close()
    })

    it(`emits each closed window once, with the emit interval 0 of the driver (shouldEmitWithInterval0, ${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      const processed = stringAdder(builder, TimeWindows.ofSizeAndGrace(10, 5).advanceBy(5), strategy, false)
      const driver = new TopologyTestDriver(builder.build(), {}, 0)
      pipe(driver.createInputTopic('topic1', S, S), [
        ['A', '1', 0],
        ['A', '1', 5],
        ['B', '2', 10],
        ['C', '3', 15],
        ['D', '4', 20]
      ])
      driver.close()
      expect(processed).to.deep.equal(
        strategy.type === 'ON_WINDOW_CLOSE'
          ? [
              [w('A', 0, 10), '0+1+1', 5],
              [w('A', 5, 15), '0+1', 5],
              [w('B', 5, 15), '0+2', 10]
            ]
          : [
              [w('A', 0, 10), '0+1', 0],
              [w('A', 0, 10), '0+1+1', 5],
              [w('A', 5, 15), '0+1', 5],
              [w('B', 5, 15), '0+2', 10],
              [w('B', 10, 20), '0+2', 10],
              [w('C', 10, 20), '0+3', 15],
              [w('C', 15, 25), '0+3', 15],
              [w('D', 15, 25), '0+4', 20],
              [w('D', 20, 30), '0+4', 20]
            ]
      )
    })

    it(`does not emit when the close time does not reach a new window (shouldNotEmitFinalIfNotProgressEnough, ${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      const processed = stringAdder(builder, TimeWindows.ofSizeAndGrace(10, 5).advanceBy(5), strategy, false)
      const driver = new TopologyTestDriver(builder.build(), {}, 0)
      const input = driver.createInputTopic('topic1', S, S)
      const emitFinal = strategy.type === 'ON_WINDOW_CLOSE'
      pipe(input, [
        ['A', '1', 0],
        ['B', '2', 5],
        ['C', '3', 15]
      ])
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? [
              [w('A', 0, 10), '0+1', 0],
              [w('B', 0, 10), '0+2', 5]
            ]
          : [
              [w('A', 0, 10), '0+1', 0],
              [w('B', 0, 10), '0+2', 5],
              [w('B', 5, 15), '0+2', 5],
              [w('C', 10, 20), '0+3', 15],
              [w('C', 15, 25), '0+3', 15]
            ]
      )
      // Stream time does not move.
      input.pipeInput('D', '4', 15)
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? []
          : [
              [w('D', 10, 20), '0+4', 15],
              [w('D', 15, 25), '0+4', 15]
            ]
      )
      // The close time moves (to 14) but closes no new window.
      input.pipeInput('E', '5', 19)
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? []
          : [
              [w('E', 10, 20), '0+5', 19],
              [w('E', 15, 25), '0+5', 19]
            ]
      )
      driver.close()
    })

    it(`throttles emit passes by windowedAggregationEmitIntervalMs of wall-clock time (shouldEmitWithLargeInterval, ${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      const processed = stringAdder(builder, TimeWindows.ofSizeAndGrace(10, 5).advanceBy(5), strategy, false)
      const driver = new TopologyTestDriver(builder.build(), { windowedAggregationEmitIntervalMs: 1000 }, 0)
      const input = driver.createInputTopic('topic1', S, S)
      const emitFinal = strategy.type === 'ON_WINDOW_CLOSE'
      pipe(input, [
        ['A', '1', 0],
        ['A', '1', 5],
        ['B', '2', 10],
        ['C', '3', 15]
      ])
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? []
          : [
              [w('A', 0, 10), '0+1', 0],
              [w('A', 0, 10), '0+1+1', 5],
              [w('A', 5, 15), '0+1', 5],
              [w('B', 5, 15), '0+2', 10],
              [w('B', 10, 20), '0+2', 10],
              [w('C', 10, 20), '0+3', 15],
              [w('C', 15, 25), '0+3', 15]
            ]
      )
      driver.advanceWallClockTime(10000)
      input.pipeInput('D', '4', 20)
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? [
              [w('A', 0, 10), '0+1+1', 5],
              [w('A', 5, 15), '0+1', 5],
              [w('B', 5, 15), '0+2', 10]
            ]
          : [
              [w('D', 15, 25), '0+4', 20],
              [w('D', 20, 30), '0+4', 20]
            ]
      )
      driver.advanceWallClockTime(100)
      input.pipeInput('E', '5', 40)
      expect(processed.splice(0)).to.deep.equal(
        emitFinal
          ? []
          : [
              [w('E', 35, 45), '0+5', 40],
              [w('E', 40, 50), '0+5', 40]
            ]
      )
      driver.close()
    })
  }

  it('drops and counts records with a null key; a null value is aggregated', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = windowedCapture<string, number>()
    builder
      .stream('topic', Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count(Materialized.with<string, number>(S, Serdes.Long()))
      .toStream()
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('topic', S, S)
    input.pipeInput(null, 'x', 1)
    input.pipeInput('a', null, 2)
    input.pipeInput('a', 'y', 3)
    expect(droppedRecords(driver.metrics())).to.equal(1)
    expect(processed).to.deep.equal([
      [w('a', 0, 10), 1, 2],
      [w('a', 0, 10), 2, 3]
    ])
    driver.close()
  })
})
