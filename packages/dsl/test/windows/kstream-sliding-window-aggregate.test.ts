import { expect } from 'chai'
import { Serdes, WindowedSerdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '../../src/index.js'
import { EmitStrategy } from '../../src/emit-strategy.js'
import { SlidingWindows } from '../../src/sliding-windows.js'
import { droppedRecords, w, windowedCapture } from './window-helpers.js'
import type { WKVT } from './window-helpers.js'

const S = Serdes.String()
const DAY = 24 * 60 * 60 * 1000
type Input = Array<[string, string, number]>

interface Run {
  processed: Array<WKVT<string>>
  dropped: number
}

/** A sliding-window aggregation (Kafka's STRING_INIT '0' and TOSTRING_ADDER) or reduce ('+'), fed with `input`. */
function run(windows: SlidingWindows, strategy: EmitStrategy, withCache: boolean, input: Input, reduce = false): Run {
  const builder = new StreamsBuilder()
  const { supplier, processed } = windowedCapture<string, string>()
  // A day of retention keeps closed windows readable for the emit pass, as Kafka's RocksDB stores do.
  const base = Materialized.as<string, string>('store-name').withValueSerde(S).withRetention(DAY)
  const m = withCache ? base.withCachingEnabled() : base.withCachingDisabled()
  const windowed = builder.stream('topic', Consumed.with(S, S)).groupByKey(Grouped.with(S, S)).windowedBy(windows).emitStrategy(strategy)
  const table = reduce
    ? windowed.reduce((a, b) => a + '+' + b, m)
    : windowed.aggregate(
        () => '0',
        (_k, v, agg) => agg + '+' + v,
        m
      )
  table.toStream().process(supplier)
  const driver = new TopologyTestDriver(builder.build())
  const topic = driver.createInputTopic('topic', S, S)
  for (const [k, v, ts] of input) topic.pipeInput(k, v, ts)
  const dropped = droppedRecords(driver.metrics())
  driver.close()
  return { processed, dropped }
}

/** Kafka's gatherOutput: the values (`value@timestamp`) seen per window start. */
function gather(processed: Array<WKVT<string>>): Record<number, string[]> {
  const out: Record<number, string[]> = {}
  for (const [key, value, ts] of processed) {
    const start = Number(/@(\d+)\//.exec(key)![1])
    const values = (out[start] ??= [])
    if (!values.includes(`${String(value)}@${ts}`)) values.push(`${String(value)}@${ts}`)
  }
  for (const values of Object.values(out)) values.sort()
  return out
}

function sorted(expected: Record<number, string[]>): Record<number, string[]> {
  for (const values of Object.values(expected)) values.sort()
  return expected
}

/** Kafka's comparator: by key, then window start (stable). */
function byKeyThenStart(processed: Array<WKVT<string>>): Array<WKVT<string>> {
  const parse = (k: string): [string, number] => {
    const m = /^\[(.*)@(\d+)\//.exec(k)!
    return [m[1]!, Number(m[2])]
  }
  return [...processed].sort((a, b) => {
    const [ka, sa] = parse(a[0])
    const [kb, sb] = parse(b[0])
    return ka < kb ? -1 : ka > kb ? 1 : sa - sb
  })
}

describe('KStreamSlidingWindowAggregate (KStreamSlidingWindowAggregateTest)', () => {
  for (const strategy of [EmitStrategy.onWindowUpdate(), EmitStrategy.onWindowClose()]) {
    for (const withCache of [true, false]) {
      const emitFinal = strategy.type === 'ON_WINDOW_CLOSE'
      const label = `${strategy.type}, caching ${withCache ? 'on' : 'off'}`

      it(`aggregates a small input (testAggregateSmallInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceAndGrace(10, 5), strategy, withCache, [
          ['A', '1', 10],
          ['A', '2', 10],
          ['A', '3', 14],
          ['A', '4', 15],
          ['A', '5', 20],
          ['A', '6', 22],
          ['A', '7', 30]
        ])
        expect(gather(processed)).to.deep.equal(
          sorted(
            emitFinal
              ? {
                  0: ['0+1+2@10'],
                  4: ['0+1+2+3@14'],
                  5: ['0+1+2+3+4@15'],
                  10: ['0+1+2+3+4+5@20'],
                  11: ['0+3+4+5@20'],
                  12: ['0+3+4+5+6@22']
                }
              : {
                  0: ['0+1@10', '0+1+2@10'],
                  4: ['0+1+2+3@14'],
                  5: ['0+1+2+3+4@15'],
                  10: ['0+1+2+3+4+5@20'],
                  11: ['0+3@14', '0+3+4@15', '0+3+4+5@20'],
                  12: ['0+3+4+5+6@22'],
                  15: ['0+4@15', '0+4+5@20', '0+4+5+6@22'],
                  16: ['0+5@20', '0+5+6@22'],
                  20: ['0+5+6+7@30'],
                  21: ['0+6@22', '0+6+7@30'],
                  23: ['0+7@30']
                }
          )
        )
      })

      it(`reduces a small input (testReduceSmallInput, ${label})`, () => {
        const { processed } = run(
          SlidingWindows.ofTimeDifferenceAndGrace(10, 5),
          strategy,
          withCache,
          [
            ['A', '1', 10],
            ['A', '2', 14],
            ['A', '3', 15],
            ['A', '4', 22],
            ['A', '5', 26],
            ['A', '6', 30]
          ],
          true
        )
        expect(gather(processed)).to.deep.equal(
          sorted(
            emitFinal
              ? { 0: ['1@10'], 4: ['1+2@14'], 5: ['1+2+3@15'], 11: ['2+3@15'], 12: ['2+3+4@22'] }
              : {
                  0: ['1@10'],
                  4: ['1+2@14'],
                  5: ['1+2+3@15'],
                  11: ['2@14', '2+3@15'],
                  12: ['2+3+4@22'],
                  15: ['3@15', '3+4@22'],
                  16: ['4@22', '4+5@26'],
                  20: ['4+5+6@30'],
                  23: ['5@26', '5+6@30'],
                  27: ['6@30']
                }
          )
        )
      })

      it(`aggregates out-of-order records of several keys (testAggregateLargeInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceAndGrace(10, emitFinal ? 10 : 50), strategy, withCache, [
          ['A', '1', 10],
          ['A', '2', 20],
          ['A', '3', 22],
          ['A', '4', 15],
          ['B', '1', 12],
          ['B', '2', 13],
          ['B', '3', 18],
          ['B', '4', 19],
          ['B', '5', 25],
          ['B', '6', 14],
          ['C', '1', 11],
          ['C', '2', 15],
          ['C', '3', 16],
          ['C', '4', 21],
          ['C', '5', 23],
          ['D', '4', 11],
          ['D', '2', 12],
          ['D', '3', 29],
          ['D', '5', 16]
        ])
        expect(byKeyThenStart(processed)).to.deep.equal(
          emitFinal
            ? [
                [w('A', 0, 10), '0+1', 10],
                [w('A', 5, 15), '0+1+4', 15],
                [w('B', 2, 12), '0+1', 12],
                [w('B', 3, 13), '0+1+2', 13],
                [w('B', 8, 18), '0+1+2+3+6', 18],
                [w('C', 5, 15), '0+2', 15],
                [w('C', 6, 16), '0+2+3', 16]
              ]
            : [
                [w('A', 0, 10), '0+1', 10],
                [w('A', 5, 15), '0+1+4', 15],
                [w('A', 10, 20), '0+1+2', 20],
                [w('A', 10, 20), '0+1+2+4', 20],
                [w('A', 11, 21), '0+2', 20],
                [w('A', 11, 21), '0+2+4', 20],
                [w('A', 12, 22), '0+2+3', 22],
                [w('A', 12, 22), '0+2+3+4', 22],
                [w('A', 16, 26), '0+2+3', 22],
                [w('A', 21, 31), '0+3', 22],
                [w('B', 2, 12), '0+1', 12],
                [w('B', 3, 13), '0+1+2', 13],
                [w('B', 4, 14), '0+1+2+6', 14],
                [w('B', 8, 18), '0+1+2+3', 18],
                [w('B', 8, 18), '0+1+2+3+6', 18],
                [w('B', 9, 19), '0+1+2+3+4', 19],
                [w('B', 9, 19), '0+1+2+3+4+6', 19],
                [w('B', 13, 23), '0+2', 13],
                [w('B', 13, 23), '0+2+3', 18],
                [w('B', 13, 23), '0+2+3+4', 19],
                [w('B', 13, 23), '0+2+3+4+6', 19],
                [w('B', 14, 24), '0+3', 18],
                [w('B', 14, 24), '0+3+4', 19],
                [w('B', 14, 24), '0+3+4+6', 19],
                [w('B', 15, 25), '0+3+4+5', 25],
                [w('B', 19, 29), '0+4', 19],
                [w('B', 19, 29), '0+4+5', 25],
                [w('B', 20, 30), '0+5', 25],
                [w('C', 1, 11), '0+1', 11],
                [w('C', 5, 15), '0+1+2', 15],
                [w('C', 6, 16), '0+1+2+3', 16],
                [w('C', 11, 21), '0+1+2+3+4', 21],
                [w('C', 12, 22), '0+2', 15],
                [w('C', 12, 22), '0+2+3', 16],
                [w('C', 12, 22), '0+2+3+4', 21],
                [w('C', 13, 23), '0+2+3+4+5', 23],
                [w('C', 16, 26), '0+3', 16],
                [w('C', 16, 26), '0+3+4', 21],
                [w('C', 16, 26), '0+3+4+5', 23],
                [w('C', 17, 27), '0+4', 21],
                [w('C', 17, 27), '0+4+5', 23],
                [w('C', 22, 32), '0+5', 23],
                [w('D', 1, 11), '0+4', 11],
                [w('D', 2, 12), '0+4+2', 12],
                [w('D', 6, 16), '0+4+2+5', 16],
                [w('D', 12, 22), '0+2', 12],
                [w('D', 12, 22), '0+2+5', 16],
                [w('D', 13, 23), '0+5', 16],
                [w('D', 19, 29), '0+3', 29]
              ]
        )
      })

      it(`puts records before the time difference into [0, d] (testEarlyRecordsSmallInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceAndGrace(50, 0), strategy, withCache, [
          ['A', '1', 0],
          ['A', '2', 5],
          ['A', '3', 6],
          ['A', '4', 3],
          ['A', '5', 13],
          ['A', '6', 10],
          ['A', '7', 70]
        ])
        expect(gather(processed)).to.deep.equal(
          sorted(
            emitFinal
              ? { 0: ['0+1+2+3+4+5+6@13'], 1: ['0+2+3+4+5+6@13'], 4: ['0+2+3+5+6@13'], 6: ['0+3+5+6@13'], 7: ['0+5+6@13'], 11: ['0+5@13'] }
              : {
                  0: ['0+1@0', '0+1+2@5', '0+1+2+3@6', '0+1+2+3+4@6', '0+1+2+3+4+5@13', '0+1+2+3+4+5+6@13'],
                  1: ['0+2@5', '0+2+3@6', '0+2+3+4@6', '0+2+3+4+5@13', '0+2+3+4+5+6@13'],
                  4: ['0+2+3@6', '0+2+3+5@13', '0+2+3+5+6@13'],
                  6: ['0+3@6', '0+3+5@13', '0+3+5+6@13'],
                  7: ['0+5@13', '0+5+6@13'],
                  11: ['0+5@13'],
                  20: ['0+7@70']
                }
          )
        )
      })

      it(`handles repeated early timestamps (testEarlyRecordsRepeatedInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceAndGrace(5, 0), strategy, withCache, [
          ['A', '1', 0],
          ['A', '2', 2],
          ['A', '3', 4],
          ['A', '4', 0],
          ['A', '5', 2],
          ['A', '6', 2],
          ['A', '7', 0],
          ['A', '8', 7]
        ])
        expect(gather(processed)).to.deep.equal(
          sorted(
            emitFinal
              ? { 0: ['0+1+2+3+4+5+6+7@4'], 1: ['0+2+3+5+6@4'] }
              : {
                  0: ['0+1@0', '0+1+2@2', '0+1+2+3+4+5@4', '0+1+2+3+4+5+6@4', '0+1+2+3@4', '0+1+2+3+4@4', '0+1+2+3+4+5+6+7@4'],
                  1: ['0+2+3+5+6@4', '0+2@2', '0+2+3@4', '0+2+3+5@4'],
                  2: ['0+2+3+5+6+8@7'],
                  3: ['0+3@4', '0+3+8@7'],
                  5: ['0+8@7']
                }
          )
        )
      })

      it(`aggregates early records out of order (testEarlyRecordsLargeInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceAndGrace(10, emitFinal ? 1 : 50), strategy, withCache, [
          ['E', '1', 0],
          ['E', '3', 5],
          ['E', '4', 6],
          ['E', '2', 3],
          ['E', '6', 13],
          ['E', '5', 10],
          ['E', '7', 4],
          ['E', '8', 2],
          ['E', '9', 15]
        ])
        expect(byKeyThenStart(processed)).to.deep.equal(
          emitFinal
            ? [
                [w('E', 0, 10), '0+1+3+4+2', 6],
                [w('E', 1, 11), '0+3+4+2', 6],
                [w('E', 3, 13), '0+3+4+2+6+5+7', 13]
              ]
            : [
                [w('E', 0, 10), '0+1', 0],
                [w('E', 0, 10), '0+1+3', 5],
                [w('E', 0, 10), '0+1+3+4', 6],
                [w('E', 0, 10), '0+1+3+4+2', 6],
                [w('E', 0, 10), '0+1+3+4+2+5', 10],
                [w('E', 0, 10), '0+1+3+4+2+5+7', 10],
                [w('E', 0, 10), '0+1+3+4+2+5+7+8', 10],
                [w('E', 1, 11), '0+3', 5],
                [w('E', 1, 11), '0+3+4', 6],
                [w('E', 1, 11), '0+3+4+2', 6],
                [w('E', 1, 11), '0+3+4+2+5', 10],
                [w('E', 1, 11), '0+3+4+2+5+7', 10],
                [w('E', 1, 11), '0+3+4+2+5+7+8', 10],
                [w('E', 3, 13), '0+3+4+2+6', 13],
                [w('E', 3, 13), '0+3+4+2+6+5', 13],
                [w('E', 3, 13), '0+3+4+2+6+5+7', 13],
                [w('E', 4, 14), '0+3+4', 6],
                [w('E', 4, 14), '0+3+4+6', 13],
                [w('E', 4, 14), '0+3+4+6+5', 13],
                [w('E', 4, 14), '0+3+4+6+5+7', 13],
                [w('E', 5, 15), '0+3+4+6+5', 13],
                [w('E', 5, 15), '0+3+4+6+5+9', 15],
                [w('E', 6, 16), '0+4', 6],
                [w('E', 6, 16), '0+4+6', 13],
                [w('E', 6, 16), '0+4+6+5', 13],
                [w('E', 6, 16), '0+4+6+5+9', 15],
                [w('E', 7, 17), '0+6', 13],
                [w('E', 7, 17), '0+6+5', 13],
                [w('E', 7, 17), '0+6+5+9', 15],
                [w('E', 11, 21), '0+6', 13],
                [w('E', 11, 21), '0+6+9', 15],
                [w('E', 14, 24), '0+9', 15]
              ]
        )
      })

      it(`aggregates without grace (testNoGracePeriodSmallInput, ${label})`, () => {
        const { processed } = run(SlidingWindows.ofTimeDifferenceWithNoGrace(50), strategy, withCache, [
          ['A', '1', 100],
          ['A', '2', 105],
          ['A', '3', 106],
          ['A', '4', 103],
          ['A', '5', 113],
          ['A', '6', 110]
        ])
        expect(gather(processed)).to.deep.equal(
          sorted(
            emitFinal
              ? { 50: ['0+1@100'], 55: ['0+1+2@105'], 56: ['0+1+2+3+4@106'] }
              : {
                  50: ['0+1@100'],
                  55: ['0+1+2@105'],
                  56: ['0+1+2+3@106', '0+1+2+3+4@106'],
                  63: ['0+1+2+3+4+5@113', '0+1+2+3+4+5+6@113'],
                  101: ['0+2@105', '0+2+3@106', '0+2+3+4@106', '0+2+3+4+5@113', '0+2+3+4+5+6@113'],
                  104: ['0+2+3@106', '0+2+3+5@113', '0+2+3+5+6@113'],
                  106: ['0+3@106', '0+3+5@113', '0+3+5+6@113'],
                  107: ['0+5@113', '0+5+6@113'],
                  111: ['0+5@113']
                }
          )
        )
      })
    }
  }

  for (const strategy of [EmitStrategy.onWindowUpdate(), EmitStrategy.onWindowClose()]) {
    const emitFinal = strategy.type === 'ON_WINDOW_CLOSE'

    it(`drops and counts records whose windows the grace period closed; results reach a topic with windowed keys (${strategy.type})`, () => {
      const builder = new StreamsBuilder()
      builder
        .stream('topic', Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 90))
        .emitStrategy(strategy)
        .aggregate(
          () => '0',
          (_k, v, agg) => agg + '+' + v,
          Materialized.as<string, string>('store-name').withValueSerde(S)
        )
        .toStream()
        .to('output')
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic', S, S)
      for (const [v, ts] of [
        ['100', 200],
        ['0', 100],
        ['1', 101],
        ['2', 102],
        ['3', 103],
        ['4', 104],
        ['5', 105],
        ['6', 15],
        ['101', 300],
        ['102', 400]
      ] as const) {
        input.pipeInput('k', v, ts)
      }
      // k@100..k@105: their left windows end before the close time 110; k@15: even its right window would.
      expect(droppedRecords(driver.metrics())).to.equal(7)
      const output = driver
        .createOutputTopic('output', WindowedSerdes.timeWindowedSerdeFrom(S, 10), S)
        .readRecordsToList()
        .map(r => [String(r.key), r.value, r.timestamp])
      expect(output).to.deep.equal(
        emitFinal
          ? [
              [w('k', 190, 200), '0+100', 200],
              [w('k', 290, 300), '0+101', 300]
            ]
          : [
              [w('k', 190, 200), '0+100', 200],
              [w('k', 290, 300), '0+101', 300],
              [w('k', 390, 400), '0+102', 400]
            ]
      )
      driver.close()
    })

    it(`drops and counts records with a null key or value (${strategy.type})`, () => {
      const { processed, dropped } = run(SlidingWindows.ofTimeDifferenceAndGrace(10, 100), strategy, false, [
        [null as unknown as string, '1', 5],
        ['A', null as unknown as string, 6]
      ])
      expect(dropped).to.equal(2)
      expect(processed).to.deep.equal([])
    })

    for (const seed of [1, 7, 42, 2024]) {
      it(`ends with the same windows whatever the arrival order (testAggregateRandomInput, seed ${seed}, ${strategy.type})`, () => {
        const letters: Array<[string, number]> = [
          ['A', 10],
          ['B', 15],
          ['C', 16],
          ['D', 18],
          ['E', 30],
          ['F', 40],
          ['G', 55],
          ['H', 56],
          ['I', 58],
          ['J', 58],
          ['K', 62],
          ['L', 63],
          ['M', 63],
          ['N', 63],
          ['O', 76],
          ['P', 77],
          ['Q', 80],
          ['R', 2],
          ['S', 3],
          ['T', 5],
          ['U', 8]
        ]
        shuffle(letters, seed)
        const builder = new StreamsBuilder()
        const { supplier, processed } = windowedCapture<string, string>()
        // Emitting on close, every window closed by V@181 (end <= 81) is emitted. Kafka's test expects
        // only those starting at 52 or later: its pass runs after V's put, which expires the older
        // ones (retention 2 * 10 + 100); ours runs before the put, so none is lost (a deliberate
        // deviation, which also makes on-close work with in-memory stores).
        const m = Materialized.as<string, string>('store-name').withValueSerde(S)
        // The aggregate sorts its letters, so that final windows do not depend on the arrival order.
        builder
          .stream('topic1', Consumed.with(S, S))
          .groupByKey(Grouped.with(S, S))
          .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100))
          .emitStrategy(strategy)
          .aggregate(
            () => '',
            (_k, v, agg) => [...(agg + v)].sort().join(''),
            emitFinal ? m : m.withRetention(50000)
          )
          .toStream()
          .process(supplier)
        const driver = new TopologyTestDriver(builder.build())
        const input = driver.createInputTopic('topic1', S, S)
        for (const [v, ts] of letters) input.pipeInput('A', v, ts)
        input.pipeInput('A', 'V', 181)
        driver.close()
        const last: Record<number, string> = {}
        for (const [key, value, ts] of processed) last[Number(/@(\d+)\//.exec(key)![1])] = `${String(value)}@${ts}`
        const closed = {
          0: 'ARSTU@10',
          3: 'ASTU@10',
          4: 'ATU@10',
          5: 'ABTU@15',
          6: 'ABCU@16',
          8: 'ABCDU@18',
          9: 'ABCD@18',
          11: 'BCD@18',
          16: 'CD@18',
          17: 'D@18',
          20: 'E@30',
          30: 'EF@40',
          31: 'F@40',
          45: 'G@55',
          46: 'GH@56',
          48: 'GHIJ@58',
          52: 'GHIJK@62',
          53: 'GHIJKLMN@63',
          56: 'HIJKLMN@63',
          57: 'IJKLMN@63',
          59: 'KLMN@63',
          63: 'LMN@63',
          66: 'O@76',
          67: 'OP@77',
          70: 'OPQ@80'
        }
        // Still open at stream time 181 (close time 81): only updates show them.
        expect(last).to.deep.equal(emitFinal ? closed : { ...closed, 77: 'PQ@80', 78: 'Q@80', 171: 'V@181' })
      })
    }
  }
})

/** A seeded Fisher-Yates shuffle (a linear congruential generator), for reproducible orders. */
function shuffle<T>(items: T[], seed: number): void {
  let state = seed
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    const tmp = items[i]!
    items[i] = items[j]!
    items[j] = tmp
  }
}
