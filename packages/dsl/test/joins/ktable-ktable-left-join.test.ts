import { expect } from 'chai'
import { Materialized, StreamsBuilder } from '../../src/index.js'
import { captureChanges, consumed, harness, I, joiner, runScenario, S } from './ktable-join-helpers.js'
import type { ChangeRecord } from './ktable-join-helpers.js'

const EXPECTED_OUTPUT = [
  [
    [0, 'X0+null', 5],
    [1, 'X1+null', 6]
  ],
  [
    [0, 'X0+Y0', 5],
    [1, 'X1+Y1', 10]
  ],
  [
    [0, 'XX0+Y0', 7],
    [1, 'XX1+Y1', 10],
    [2, 'XX2+null', 7],
    [3, 'XX3+null', 7]
  ],
  [
    [0, 'XX0+YY0', 7],
    [1, 'XX1+YY1', 7],
    [2, 'XX2+YY2', 10],
    [3, 'XX3+YY3', 15]
  ],
  [
    [0, 'XXX0+YY0', 6],
    [1, 'XXX1+YY1', 6],
    [2, 'XXX2+YY2', 10],
    [3, 'XXX3+YY3', 15]
  ],
  [
    [0, 'XXX0+null', 6],
    [1, 'XXX1+null', 7]
  ],
  [
    [0, 'XXXX0+null', 13],
    [1, 'XXXX1+null', 13],
    [2, 'XXXX2+YY2', 13],
    [3, 'XXXX3+YY3', 15]
  ],
  [
    [0, null, 0],
    [1, null, 42],
    [2, null, 10],
    [3, null, 20]
  ]
]

const EXPECTED_CHANGES_WITH_OLD: ChangeRecord[][] = [
  [
    [0, 'X0+null', null, 5],
    [1, 'X1+null', null, 6]
  ],
  [
    [0, 'X0+Y0', 'X0+null', 5],
    [1, 'X1+Y1', 'X1+null', 10]
  ],
  [
    [0, 'XX0+Y0', 'X0+Y0', 7],
    [1, 'XX1+Y1', 'X1+Y1', 10],
    [2, 'XX2+null', null, 7],
    [3, 'XX3+null', null, 7]
  ],
  [
    [0, 'XX0+YY0', 'XX0+Y0', 7],
    [1, 'XX1+YY1', 'XX1+Y1', 7],
    [2, 'XX2+YY2', 'XX2+null', 10],
    [3, 'XX3+YY3', 'XX3+null', 15]
  ],
  [
    [0, 'XXX0+YY0', 'XX0+YY0', 6],
    [1, 'XXX1+YY1', 'XX1+YY1', 6],
    [2, 'XXX2+YY2', 'XX2+YY2', 10],
    [3, 'XXX3+YY3', 'XX3+YY3', 15]
  ],
  [
    [0, 'XXX0+null', 'XXX0+YY0', 6],
    [1, 'XXX1+null', 'XXX1+YY1', 7]
  ],
  [
    [0, 'XXXX0+null', 'XXX0+null', 13],
    [1, 'XXXX1+null', 'XXX1+null', 13],
    [2, 'XXXX2+YY2', 'XXX2+YY2', 13],
    [3, 'XXXX3+YY3', 'XXX3+YY3', 15]
  ],
  [
    [0, null, 'XXXX0+null', 0],
    [1, null, 'XXXX1+null', 42],
    [2, null, 'XXXX2+YY2', 10],
    [3, null, 'XXXX3+YY3', 20]
  ]
]

/** Without old values: the same new values, and nothing as the old one. */
const EXPECTED_CHANGES_WITHOUT_OLD: ChangeRecord[][] = EXPECTED_CHANGES_WITH_OLD.map(step => step.map(([k, n, _o, ts]) => [k, n, null, ts]))

describe('KTable-KTable left join (KTableKTableLeftJoinTest)', () => {
  it('emits a result for every left key, with null for a missing right value (testJoin)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    t1.leftJoin(t2, (v, o) => joiner(v, o))
      .toStream()
      .to('output')
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    h.driver.close()
  })

  it('a materialized left join emits the same results and keeps them in its store', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    t1.leftJoin(t2, joiner, Materialized.as<number, string>('left-join').withKeySerde(I).withValueSerde(S)).toStream().to('output')
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    h.left.pipeInput(5, 'Z5', 50)
    expect(h.driver.getKeyValueStore<number, string>('left-join')!.get(5)).to.equal('Z5+null')
    expect(h.driver.getKeyValueStore<number, string>('left-join')!.get(0)).to.equal(null)
    h.driver.close()
  })

  it('makes the left table send old values but forwards none itself (testNotSendingOldValue)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const joined = t1.leftJoin(t2, joiner)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(t1.supplier.sendOldValues).to.equal(true)
    expect(t2.supplier.sendOldValues).to.equal(false)
    expect(joined.supplier.sendOldValues).to.equal(false)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITHOUT_OLD)
    h.driver.close()
  })

  it('sends old values once asked, even without forcing materialization (testSendingOldValue)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const joined = t1.leftJoin(t2, joiner)
    expect(joined.enableSendingOldValues(false)).to.equal(true)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(t1.supplier.sendOldValues).to.equal(true)
    expect(t2.supplier.sendOldValues).to.equal(true)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITH_OLD)
    h.driver.close()
  })

  it('survives chained left joins over cached tables with many cache evictions (KAFKA-4492)', () => {
    const builder = new StreamsBuilder()
    const names = ['topic1', 'topic2', 'topic3', 'topic4']
    const tables = names.map(n => builder.table(n, consumed, Materialized.as<number, string>(n + '-store')))
    const upper = (v: string): string => v.toUpperCase()
    const chained = tables[0]!
      .leftJoin(tables[1]!, joiner)
      .leftJoin(tables[2]!.mapValues(upper), joiner)
      .leftJoin(tables[3]!, joiner, Materialized.as<number, string>('chained').withValueSerde(S))
      .mapValues(upper)
    chained.toStream().to('output')
    const h = harness(builder, { statestoreCacheMaxBytes: 600 })
    const inputs = names.map(n => h.driver.createInputTopic(n, I, S))
    let seed = 7
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let i = 0; i < 300; i++) {
      for (const input of inputs) input.pipeInput(next(40), 'v' + String(next(1000)), i)
    }
    // the result store agrees with a join computed from the input stores
    const store = h.driver.getKeyValueStore<number, string>('chained')!
    const get = (n: string, k: number): string | null => h.driver.getKeyValueStore<number, string>(n + '-store')!.get(k) ?? null
    for (let k = 0; k < 40; k++) {
      const a = get('topic1', k)
      const expected =
        a === null ? null : joiner(joiner(joiner(a, get('topic2', k)), get('topic3', k)?.toUpperCase() ?? null), get('topic4', k))
      expect(store.get(k) ?? null, `key ${k}`).to.equal(expected)
    }
    h.driver.close()
  })
})
