import { expect } from 'chai'
import { Serdes, StreamsError, type TimeWindow } from '@kstreams/core'
import type { Windowed } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Named, StreamsBuilder } from '../../src/index.js'
import type { KGroupedStream, KTable } from '../../src/index.js'
import { EmitStrategy } from '../../src/emit-strategy.js'
import type { Reducer } from '../../src/functions.js'
import { SessionWindowedKStream } from '../../src/session-windowed-kstream.js'
import { SessionWindows } from '../../src/session-windows.js'
import { SlidingWindows } from '../../src/sliding-windows.js'
import { TimeWindowedKStream } from '../../src/time-windowed-kstream.js'
import { TimeWindows } from '../../src/time-windows.js'
import { w, windowedCapture } from './window-helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

function expectCode(fn: () => unknown, code: string): void {
  let caught: unknown
  try {
    fn()
  } catch (err) {
    caught = err
  }
  expect(caught).to.be.instanceOf(StreamsError)
  expect((caught as StreamsError).code).to.equal(code)
}

function windows(map: Map<number, TimeWindow>): Array<[number, number, number]> {
  return [...map].map(([start, window]) => [start, window.start, window.end])
}

function grouped(builder: StreamsBuilder): KGroupedStream<string, string> {
  return builder.stream('input-topic', Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
}

describe('Window specifications (TimeWindowsTest, SlidingWindowsTest, SessionWindowsTest)', () => {
  it('computes the windows of a timestamp: tumbling, hopping, barely overlapping', () => {
    expect(windows(TimeWindows.ofSizeWithNoGrace(12).windowsFor(21))).to.deep.equal([[12, 12, 24]])
    expect(windows(TimeWindows.ofSizeWithNoGrace(12).advanceBy(5).windowsFor(21))).to.deep.equal([
      [10, 10, 22],
      [15, 15, 27],
      [20, 20, 32]
    ])
    expect(windows(TimeWindows.ofSizeWithNoGrace(6).advanceBy(5).windowsFor(7))).to.deep.equal([[5, 5, 11]])
    // No window starts before 0.
    expect(windows(TimeWindows.ofSizeWithNoGrace(10).advanceBy(5).windowsFor(3))).to.deep.equal([[0, 0, 10]])
  })

  it('exposes size, advance and grace', () => {
    const hopping = TimeWindows.ofSizeAndGrace(10, 3).advanceBy(4)
    expect([hopping.sizeMs, hopping.advanceMs, hopping.size(), hopping.gracePeriodMs()]).to.deep.equal([10, 4, 10, 3])
    expect(TimeWindows.ofSizeWithNoGrace(10).gracePeriodMs()).to.equal(0)
    expect(hopping.equals(TimeWindows.ofSizeAndGrace(10, 3).advanceBy(4))).to.equal(true)
    expect(hopping.equals(TimeWindows.ofSizeAndGrace(10, 3))).to.equal(false)
    const sliding = SlidingWindows.ofTimeDifferenceAndGrace(10, 2)
    expect([sliding.timeDifferenceMs(), sliding.gracePeriodMs()]).to.deep.equal([10, 2])
    const session = SessionWindows.ofInactivityGapAndGrace(7, 1)
    expect([session.inactivityGap(), session.gracePeriodMs(), SessionWindows.ofInactivityGapWithNoGrace(7).gracePeriodMs()]).to.deep.equal([
      7, 1, 0
    ])
  })

  it('rejects illegal sizes, advances, gaps and grace periods with ILLEGAL_ARGUMENT', () => {
    expectCode(() => TimeWindows.ofSizeWithNoGrace(0), 'ILLEGAL_ARGUMENT')
    expectCode(() => TimeWindows.ofSizeWithNoGrace(-1), 'ILLEGAL_ARGUMENT')
    expectCode(() => TimeWindows.ofSizeAndGrace(10, -1), 'ILLEGAL_ARGUMENT')
    expectCode(() => TimeWindows.ofSizeWithNoGrace(10).advanceBy(0), 'ILLEGAL_ARGUMENT')
    expectCode(() => TimeWindows.ofSizeWithNoGrace(10).advanceBy(11), 'ILLEGAL_ARGUMENT')
    expectCode(() => TimeWindows.ofSizeWithNoGrace(1.5), 'ILLEGAL_ARGUMENT')
    expectCode(() => SlidingWindows.ofTimeDifferenceWithNoGrace(-1), 'ILLEGAL_ARGUMENT')
    expectCode(() => SlidingWindows.ofTimeDifferenceAndGrace(10, -1), 'ILLEGAL_ARGUMENT')
    expectCode(() => SessionWindows.ofInactivityGapWithNoGrace(0), 'ILLEGAL_ARGUMENT')
    expectCode(() => SessionWindows.ofInactivityGapAndGrace(10, -1), 'ILLEGAL_ARGUMENT')
    expectCode(() => Materialized.as('store').withRetention(-1), 'ILLEGAL_ARGUMENT')
  })

  it('rejects a retention smaller than the windows need when the aggregation is added', () => {
    const builder = new StreamsBuilder()
    const stream = grouped(builder)
    // Time windows: size + grace.
    expectCode(
      () => stream.windowedBy(TimeWindows.ofSizeAndGrace(10, 5)).count(Materialized.as<string, number>('a').withRetention(14)),
      'ILLEGAL_ARGUMENT'
    )
    stream.windowedBy(TimeWindows.ofSizeAndGrace(10, 5)).count(Materialized.as<string, number>('b').withRetention(15))
    // Sliding windows: 2 * time difference + grace.
    expectCode(
      () => stream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5)).count(Materialized.as<string, number>('c').withRetention(24)),
      'ILLEGAL_ARGUMENT'
    )
    stream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5)).count(Materialized.as<string, number>('d').withRetention(25))
    // Sessions: gap + grace.
    expectCode(
      () => stream.windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5)).count(Materialized.as<string, number>('e').withRetention(14)),
      'ILLEGAL_ARGUMENT'
    )
    stream.windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5)).count(Materialized.as<string, number>('f').withRetention(15))
  })

  it('rejects missing functions with ILLEGAL_ARGUMENT (Kafka: NullPointerException)', () => {
    const stream = grouped(new StreamsBuilder())
    const timed = stream.windowedBy(TimeWindows.ofSizeWithNoGrace(10))
    const session = stream.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
    const missing = null as unknown as Reducer<string>
    expectCode(() => timed.reduce(missing), 'ILLEGAL_ARGUMENT')
    expectCode(() => timed.aggregate(null as unknown as () => string, (_k, v, a) => a + v), 'ILLEGAL_ARGUMENT')
    expectCode(
      () =>
        session.aggregate(
          () => '',
          (_k, v, a) => a + v,
          null as unknown as (k: string, a: string, b: string) => string
        ),
      'ILLEGAL_ARGUMENT'
    )
    expectCode(() => session.reduce(missing), 'ILLEGAL_ARGUMENT')
    expectCode(() => timed.emitStrategy(null as unknown as EmitStrategy), 'ILLEGAL_ARGUMENT')
  })

  it('windowedBy returns a time-windowed stream for time and sliding windows, a session-windowed one for sessions', () => {
    const stream = grouped(new StreamsBuilder())
    expect(stream.windowedBy(TimeWindows.ofSizeWithNoGrace(10))).to.be.instanceOf(TimeWindowedKStream)
    expect(stream.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10))).to.be.instanceOf(TimeWindowedKStream)
    expect(stream.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))).to.be.instanceOf(SessionWindowedKStream)
  })

  it('types results as tables of Windowed keys; sessions need a merger', () => {
    const stream = grouped(new StreamsBuilder())
    const counts: KTable<Windowed<string>, number> = stream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count()
    const sessions: KTable<Windowed<string>, string> = stream.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).aggregate(
      () => '',
      (_k, v, agg) => agg + v,
      (_k, a, b) => a + b
    )
    // Compile-time only: never called.
    const rejected = (): unknown[] => [
      // @ts-expect-error a windowed table is keyed by Windowed<K>, not K
      ((): KTable<string, number> => stream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count())(),
      stream.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).aggregate(
        () => '',
        (_k, v, agg) => agg + v,
        // @ts-expect-error a session aggregation needs a session merger
        Materialized.with(S, S)
      ),
      stream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).aggregate(
        () => 0,
        (_k, v, agg) => agg + v.length,
        // @ts-expect-error the aggregate's Materialized must serialize the aggregate type
        Materialized.with(S, S)
      )
    ]
    expect([counts, sessions, rejected].every(t => t !== undefined)).to.equal(true)
  })
})

describe('Windowed aggregations: describe() (Kafka TopologyTest)', () => {
  const single = (processor: string, store: string): string =>
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
    `      --> ${processor}\n` +
    `    Processor: ${processor} (stores: [${store}])\n` +
    '      --> none\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n\n'

  const cases: Array<[string, (s: KGroupedStream<string, string>) => unknown, string, string]> = [
    [
      'timeWindowZeroArgCount',
      s => s.windowedBy(TimeWindows.ofSizeWithNoGrace(1)).count(),
      'KSTREAM-AGGREGATE-0000000002',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000001'
    ],
    [
      'timeWindowNamedMaterializedCount',
      s => s.windowedBy(TimeWindows.ofSizeWithNoGrace(1)).count(Materialized.as('count-store')),
      'KSTREAM-AGGREGATE-0000000001',
      'count-store'
    ],
    // An unnamed Materialized burns one name, as in Kafka Streams.
    [
      'timeWindowAnonymousMaterializedCount',
      s => s.windowedBy(TimeWindows.ofSizeWithNoGrace(1)).count(Materialized.with<string, number>(undefined, L)),
      'KSTREAM-AGGREGATE-0000000003',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000002'
    ],
    [
      'sessionWindowZeroArgCount',
      s => s.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).count(),
      'KSTREAM-AGGREGATE-0000000002',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000001'
    ],
    [
      'sessionWindowNamedMaterializedCount',
      s => s.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).count(Materialized.as('count-store')),
      'KSTREAM-AGGREGATE-0000000001',
      'count-store'
    ],
    [
      'sessionWindowAnonymousMaterializedCount',
      s => s.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).count(Materialized.with<string, number>(undefined, L)),
      'KSTREAM-AGGREGATE-0000000003',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000002'
    ],
    // SlidingWindowedKStreamImpl burns no name.
    [
      'slidingWindowAnonymousMaterializedCount',
      s => s.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(1)).count(Materialized.with<string, number>(undefined, L)),
      'KSTREAM-AGGREGATE-0000000002',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000001'
    ],
    [
      'timeWindowReduce',
      s => s.windowedBy(TimeWindows.ofSizeWithNoGrace(1)).reduce((a, b) => a + b),
      'KSTREAM-REDUCE-0000000002',
      'KSTREAM-REDUCE-STATE-STORE-0000000001'
    ],
    [
      'sessionWindowNamedAggregate',
      s =>
        s.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).aggregate(
          () => '',
          (_k, v, a) => a + v,
          (_k, a, b) => a + b,
          Named.as('sessions')
        ),
      'sessions',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000001'
    ]
  ]
  for (const [name, op, processor, store] of cases) {
    it(`${name}ShouldPreserveTopologyStructure`, () => {
      const builder = new StreamsBuilder()
      op(builder.stream<string, string>('input-topic').groupByKey())
      expect(builder.build().describe().toString()).to.equal(single(processor, store))
    })
  }

  it('repartitions a windowed aggregation after a key change, through <store name>-repartition', () => {
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>('input-topic')
      .groupBy((_k, v) => v)
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .toStream()
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
        '      --> KSTREAM-KEY-SELECT-0000000001\n' +
        '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition])\n' +
        '      --> KSTREAM-AGGREGATE-0000000003\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> KTABLE-TOSTREAM-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-AGGREGATE-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000007\n\n'
    )
  })
})

describe('Windowed aggregations on the driver: repartitioning and on-close sessions', () => {
  it('counts per window after groupBy, through the repartition topic', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = windowedCapture<string, number>()
    builder
      .stream('input-topic', Consumed.with(S, S))
      .groupBy((_k, v) => v, Grouped.with(S, S))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .toStream()
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('input-topic', S, S)
    input.pipeInput('a', 'x', 1)
    input.pipeInput('b', 'x', 2)
    input.pipeInput('c', 'y', 12)
    driver.close()
    expect(processed).to.deep.equal([
      [w('x', 0, 10), 1, 1],
      [w('x', 0, 10), 2, 2],
      [w('y', 10, 20), 1, 12]
    ])
  })

  it('materializes into the window or session bytes store supplier given to Materialized.as()', () => {
    const builder = new StreamsBuilder()
    const stream = grouped(builder)
    stream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5)).count(
      Materialized.as<string, number>(Stores.inMemoryWindowStore('sliding-supplied', 50000, 10, false))
        .withKeySerde(S)
        .withValueSerde(L)
    )
    stream
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .count(Materialized.as<string, number>(Stores.inMemorySessionStore('session-supplied', 50000)).withKeySerde(S).withValueSerde(L))
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('input-topic', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('a', 'v', 14)
    const sliding = [...driver.getTimestampedWindowStore<string, number>('sliding-supplied')!.fetch('a', 0, 100)].map(kv => [
      kv.key,
      kv.value.value
    ])
    expect(sliding).to.deep.equal([
      [0, 1],
      [4, 2],
      [11, 1]
    ])
    const sessions = [...driver.getSessionStore<string, number>('session-supplied')!.fetch('a')].map(kv => [kv.key.toString(), kv.value])
    expect(sessions).to.deep.equal([[w('a', 10, 14), 2]])
    driver.close()
    // A session store supplier cannot back a time-windowed aggregation, nor the reverse.
    expectCode(
      () =>
        grouped(new StreamsBuilder())
          .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
          .count(Materialized.as<string, number>(Stores.inMemorySessionStore('wrong', 100))),
      'ILLEGAL_ARGUMENT'
    )
    expectCode(
      () =>
        grouped(new StreamsBuilder())
          .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
          .count(Materialized.as<string, number>(Stores.inMemoryWindowStore('wrong', 100, 10, false))),
      'ILLEGAL_ARGUMENT'
    )
  })

  it('emits closed sessions once, by session end, stamped with their end (onWindowClose)', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = windowedCapture<string, number>()
    grouped(builder)
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count(Materialized.with<string, number>(S, L).withRetention(1000))
      .toStream()
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('input-topic', S, S)
    input.pipeInput('a', 'v', 0)
    input.pipeInput('b', 'v', 5)
    input.pipeInput('a', 'v', 8)
    expect(processed.splice(0)).to.deep.equal([])
    // Close time 30 - 10 = 20: sessions ending before 20, by end.
    input.pipeInput('c', 'v', 30)
    expect(processed.splice(0)).to.deep.equal([
      [w('b', 5, 5), 1, 5],
      [w('a', 0, 8), 2, 8]
    ])
    // Close time 30: nothing ends in [20, 29].
    input.pipeInput('d', 'v', 40)
    expect(processed.splice(0)).to.deep.equal([])
    input.pipeInput('e', 'v', 41)
    expect(processed.splice(0)).to.deep.equal([[w('c', 30, 30), 1, 30]])
    driver.close()
  })
})
