import { expect } from 'chai'
import { Serdes, StreamsError, TimeWindow } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import {
  Consumed,
  Grouped,
  Materialized,
  StreamsBuilder,
  TimeWindows,
  UnlimitedWindow,
  UnlimitedWindows,
  Windows
} from '../../src/index.js'
import { EmitStrategy } from '../../src/emit-strategy.js'
import { w, windowedCapture } from './window-helpers.js'
import type { WKVT } from './window-helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
const END = Number.MAX_SAFE_INTEGER
const ANY_START_TIME = 10

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    expect(err).to.be.instanceOf(StreamsError)
    return (err as StreamsError).code
  }
  return undefined
}

describe('UnlimitedWindows (UnlimitedWindowsTest)', () => {
  it('shouldSetWindowStartTime', () => {
    expect(UnlimitedWindows.of().startOn(ANY_START_TIME).startMs).to.equal(ANY_START_TIME)
    expect(UnlimitedWindows.of().startMs).to.equal(0)
  })

  it('startTimeMustNotBeNegative (and must be an integer number of milliseconds)', () => {
    expect(codeOf(() => UnlimitedWindows.of().startOn(-1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => UnlimitedWindows.of().startOn(1.5))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('shouldIncludeRecordsThatHappenedOnWindowStart', () => {
    const windows = UnlimitedWindows.of().startOn(ANY_START_TIME)
    const matched = windows.windowsFor(windows.startMs)
    expect(matched.size).to.equal(1)
    expect(matched.get(ANY_START_TIME)!.equals(new UnlimitedWindow(ANY_START_TIME))).to.equal(true)
  })

  it('shouldIncludeRecordsThatHappenedAfterWindowStart', () => {
    const windows = UnlimitedWindows.of().startOn(ANY_START_TIME)
    const matched = windows.windowsFor(windows.startMs + 1)
    expect(matched.size).to.equal(1)
    expect(matched.get(ANY_START_TIME)!.equals(new UnlimitedWindow(ANY_START_TIME))).to.equal(true)
  })

  it('shouldExcludeRecordsThatHappenedBeforeWindowStart', () => {
    const windows = UnlimitedWindows.of().startOn(ANY_START_TIME)
    expect(windows.windowsFor(windows.startMs - 1).size).to.equal(0)
  })

  it('equalsAndHashcodeShouldBeValidForPositiveCases / NegativeCases', () => {
    expect(UnlimitedWindows.of().equals(UnlimitedWindows.of())).to.equal(true)
    expect(UnlimitedWindows.of().startOn(1).equals(UnlimitedWindows.of().startOn(1))).to.equal(true)
    expect(UnlimitedWindows.of().startOn(9).equals(UnlimitedWindows.of().startOn(1))).to.equal(false)
    expect(UnlimitedWindows.of().equals(TimeWindows.ofSizeWithNoGrace(10))).to.equal(false)
    expect(UnlimitedWindows.of().startOn(3).toString()).to.equal('UnlimitedWindows{startMs=3}')
  })

  it('size is the end of time, the grace period 0; it is a Windows', () => {
    const windows = UnlimitedWindows.of()
    expect(windows.size()).to.equal(END)
    expect(windows.gracePeriodMs()).to.equal(0)
    expect(windows).to.be.instanceOf(Windows)
    expect(TimeWindows.ofSizeWithNoGrace(5)).to.be.instanceOf(Windows)
  })

  it('an UnlimitedWindow ends at the end of time and overlaps every other UnlimitedWindow, and no window of another type', () => {
    const window = new UnlimitedWindow(5)
    expect([window.start, window.end]).to.deep.equal([5, END])
    expect(window.overlap(new UnlimitedWindow(1000))).to.equal(true)
    expect(codeOf(() => window.overlap(new TimeWindow(0, 10)))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new UnlimitedWindow(-1))).to.equal('ILLEGAL_ARGUMENT')
  })
})

/** A count per key over `windows`, fed with `input`: the records the table emits, and the driver's window store contents. */
function count(
  windows: Windows,
  input: Array<[string, string, number]>,
  withCache: boolean
): { processed: Array<WKVT<number>>; stored: Array<[string, number]> } {
  const builder = new StreamsBuilder()
  const { supplier, processed } = windowedCapture<string, number>()
  const m = Materialized.as<string, number>('counts').withValueSerde(L)
  builder
    .stream('sessions', Consumed.with(S, S))
    .groupByKey(Grouped.with(S, S))
    .windowedBy(windows)
    .count(withCache ? m.withCachingEnabled() : m.withCachingDisabled())
    .toStream()
    .process(supplier)
  const driver = new TopologyTestDriver(builder.build())
  try {
    const topic = driver.createInputTopic('sessions', S, S)
    for (const [k, v, ts] of input) topic.pipeInput(k, v, ts)
    const store = driver.getTimestampedWindowStore<string, number>('counts')!
    const stored: Array<[string, number]> = []
    const it = store.all()
    try {
      for (const kv of it) stored.push([kv.key.toString(), kv.value.value])
    } finally {
      it.close()
    }
    return { processed, stored }
  } finally {
    driver.close()
  }
}

describe('windowedBy(UnlimitedWindows) (KStreamAggregationIntegrationTest.shouldCountUnlimitedWindows, TimeWindowedKStreamIntegrationTest)', () => {
  const DAY = 24 * 60 * 60 * 1000
  const t1 = 1_700_000_000_000
  const t2 = t1 + DAY
  const t3 = t2 + DAY
  const t4 = t3 + DAY
  const startTime = t2
  const input: Array<[string, string, number]> = [
    ['bob', 'start', t1],
    ['penny', 'start', t1],
    ['jo', 'pause', t1],
    ['emily', 'pause', t1],
    ['emily', 'resume', t2],
    ['bob', 'pause', t3],
    ['penny', 'stop', t3],
    ['bob', 'resume', t4],
    ['jo', 'resume', t4]
  ]

  for (const withCache of [false, true]) {
    it(`counts every record from startOn on in one window per key that never closes (caching ${withCache ? 'on' : 'off'})`, () => {
      const { processed, stored } = count(UnlimitedWindows.of().startOn(startTime), input, withCache)
      const last = new Map<string, [number | null, number]>()
      for (const [key, value, ts] of processed) last.set(key, [value, ts])
      expect(last).to.deep.equal(
        new Map<string, [number, number]>([
          [w('emily', startTime, END), [1, t2]],
          [w('bob', startTime, END), [2, t4]],
          [w('penny', startTime, END), [1, t3]],
          [w('jo', startTime, END), [1, t4]]
        ])
      )
      expect(stored.sort()).to.deep.equal(
        [
          [w('bob', startTime, END), 2],
          [w('emily', startTime, END), 1],
          [w('jo', startTime, END), 1],
          [w('penny', startTime, END), 1]
        ].sort()
      )
      if (!withCache) {
        // Every update is emitted when caching is off.
        expect(processed).to.deep.equal([
          [w('emily', startTime, END), 1, t2],
          [w('bob', startTime, END), 1, t3],
          [w('penny', startTime, END), 1, t3],
          [w('bob', startTime, END), 2, t4],
          [w('jo', startTime, END), 1, t4]
        ])
      }
    })
  }

  it('a late record is never dropped: the window has no end and no grace', () => {
    const { processed } = count(
      UnlimitedWindows.of(),
      [
        ['a', 'x', 5 * DAY],
        ['a', 'y', 0]
      ],
      false
    )
    expect(processed).to.deep.equal([
      [w('a', 0, END), 1, 5 * DAY],
      [w('a', 0, END), 2, 5 * DAY]
    ])
  })

  it('shouldThrowUnlimitedWindows: emitStrategy(onWindowClose) is ILLEGAL_ARGUMENT; onWindowUpdate is allowed', () => {
    const grouped = new StreamsBuilder().stream('in', Consumed.with(S, S)).groupByKey()
    const windowed = grouped.windowedBy(UnlimitedWindows.of().startOn(0))
    let error: unknown
    try {
      windowed.emitStrategy(EmitStrategy.onWindowClose())
    } catch (err) {
      error = err
    }
    expect(error).to.be.instanceOf(StreamsError).with.property('code', 'ILLEGAL_ARGUMENT')
    expect((error as Error).message).to.equal('ON_WINDOW_CLOSE emit strategy cannot be used for UnlimitedWindows')
    expect(windowed.emitStrategy(EmitStrategy.onWindowUpdate())).to.equal(windowed)
  })

  it('a cogrouped stream can be windowed by UnlimitedWindows too', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = windowedCapture<string, string>()
    const a = builder.stream('a', Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    const b = builder.stream('b', Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    a.cogroup<string>((_k, v, agg) => agg + v)
      .cogroup(b, (_k, v, agg) => agg + v.toUpperCase())
      .windowedBy(UnlimitedWindows.of().startOn(10))
      .aggregate(() => '', Materialized.as<string, string>('cogrouped').withValueSerde(S).withCachingDisabled())
      .toStream()
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('a', S, S).pipeInput('k', 'x', 20)
    driver.createInputTopic('b', S, S).pipeInput('k', 'y', 5)
    driver.createInputTopic('b', S, S).pipeInput('k', 'z', 30)
    driver.close()
    expect(processed).to.deep.equal([
      [w('k', 10, END), 'x', 20],
      [w('k', 10, END), 'xZ', 30]
    ])
  })
})

/** Windows of 10 ms that start at 5, 15, 25, ... (a custom Windows: tumbling windows with an offset). */
class OffsetWindows extends Windows<TimeWindow> {
  windowsFor(timestamp: number): Map<number, TimeWindow> {
    if (timestamp < 5) return new Map()
    const start = Math.floor((timestamp - 5) / 10) * 10 + 5
    return new Map([[start, new TimeWindow(start, start + 10)]])
  }

  size(): number {
    return 10
  }

  gracePeriodMs(): number {
    return 2
  }
}

describe('windowedBy(a custom Windows)', () => {
  it('aggregates into the windows its windowsFor returns, dropping records whose window closed (end + grace)', () => {
    const { processed, stored } = count(
      new OffsetWindows(),
      [
        ['k', 'a', 3], // before the first window: in none
        ['k', 'b', 5],
        ['k', 'c', 14],
        ['k', 'd', 15],
        ['k', 'e', 27],
        ['k', 'f', 13] // its window [5, 15) closed at 15 + 2 <= stream time 27
      ],
      false
    )
    expect(processed).to.deep.equal([
      [w('k', 5, 15), 1, 5],
      [w('k', 5, 15), 2, 14],
      [w('k', 15, 25), 1, 15],
      [w('k', 25, 35), 1, 27]
    ])
    // Retention is size + grace (12 ms): [5, 15) may have expired from the store by stream time 27.
    expect(stored.filter(([key]) => key !== w('k', 5, 15))).to.deep.equal([
      [w('k', 15, 25), 1],
      [w('k', 25, 35), 1]
    ])
  })

  it('emitStrategy(onWindowClose) with windows other than TimeWindows is ILLEGAL_ARGUMENT (KStreamWindowAggregateTest.showThrowIfEmitFinalUsedWithUnlimitedWindow)', () => {
    const builder = new StreamsBuilder()
    const windowed = builder.stream('in', Consumed.with(S, S)).groupByKey(Grouped.with(S, S)).windowedBy(new OffsetWindows())
    windowed.emitStrategy(EmitStrategy.onWindowClose())
    let error: unknown
    try {
      windowed.count()
    } catch (err) {
      error = err
    }
    expect(error).to.be.instanceOf(StreamsError).with.property('code', 'ILLEGAL_ARGUMENT')
    expect((error as Error).message).to.equal(
      'ON_WINDOW_CLOSE strategy is only supported for TimeWindows and SlidingWindows for TimeWindowedKStream'
    )
  })
})
