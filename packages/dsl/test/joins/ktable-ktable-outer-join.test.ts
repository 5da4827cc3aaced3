import { expect } from 'chai'
import { Materialized, StreamsBuilder } from '../../src/index.js'
import { captureChanges, consumed, harness, joiner, runScenario, S } from './ktable-join-helpers.js'
import type { ChangeRecord } from './ktable-join-helpers.js'

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
    [2, 'null+YY2', 'XXXX2+YY2', 10],
    [3, 'null+YY3', 'XXXX3+YY3', 20]
  ]
]

const EXPECTED_CHANGES_WITHOUT_OLD: ChangeRecord[][] = EXPECTED_CHANGES_WITH_OLD.map(step => step.map(([k, n, _o, ts]) => [k, n, null, ts]))
const EXPECTED_OUTPUT = EXPECTED_CHANGES_WITH_OLD.map(step => step.map(([k, n, _o, ts]) => [k, n, ts]))

describe('KTable-KTable outer join (KTableKTableOuterJoinTest)', () => {
  it('emits a result for every key either table has (testJoin)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    t1.outerJoin(t2, joiner).toStream().to('output')
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    // the right side alone: deleting it removes the last result of key 2
    h.right.pipeInput(2, null, 30)
    h.right.pipeInput(9, 'R9', 31)
    h.right.pipeInput(9, null, 32)
    h.right.pipeInput(8, null, 33)
    expect(h.read()).to.deep.equal([
      [2, null, 30],
      [9, 'null+R9', 31],
      [9, null, 32]
    ])
    h.driver.close()
  })

  it('makes both tables send old values but forwards none itself (testNotSendingOldValue)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const joined = t1.outerJoin(t2, joiner)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(t1.supplier.sendOldValues).to.equal(true)
    expect(t2.supplier.sendOldValues).to.equal(true)
    expect(joined.supplier.sendOldValues).to.equal(false)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITHOUT_OLD)
    h.driver.close()
  })

  it('sends old values once asked (testSendingOldValue)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const joined = t1.outerJoin(t2, joiner)
    joined.enableSendingOldValues(false)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITH_OLD)
    h.driver.close()
  })

  it('a materialized outer join is queryable and its view feeds a downstream join', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const t3 = builder.table('topic3', consumed)
    const outer = t1.outerJoin(t2, joiner, Materialized.as<number, string>('outer').withValueSerde(S))
    // the unmaterialized inner join reads `outer` through its store, t3 through t3's
    outer
      .join(t3, (a, b) => `${a}|${b}`)
      .toStream()
      .to('output')
    const h = harness(builder)
    const t3In = h.driver.createInputTopic('topic3', consumed.keySerde!, S, 0, 0)
    h.right.pipeInput(1, 'R1', 3)
    t3In.pipeInput(1, 'T1', 4)
    h.left.pipeInput(1, 'L1', 2)
    expect(h.read()).to.deep.equal([
      [1, 'null+R1|T1', 4],
      [1, 'L1+R1|T1', 4]
    ])
    expect(h.driver.getTimestampedKeyValueStore<number, string>('outer')!.get(1)).to.deep.include({ value: 'L1+R1', timestamp: 3 })
    h.driver.close()
  })
  it('an unmaterialized join result is read through a view computed from both tables', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    const t3 = builder.table('topic3', consumed)
    // t3's updates read the outer join's value for their key: computed from t1's and t2's stores
    t3.join(t1.outerJoin(t2, joiner), (c, ab) => `${c}|${ab}`)
      .toStream()
      .to('output')
    const h = harness(builder)
    const t3In = h.driver.createInputTopic('topic3', consumed.keySerde!, S, 0, 0)
    h.left.pipeInput(1, 'L1', 5)
    h.right.pipeInput(2, 'R2', 6)
    expect(h.read()).to.deep.equal([])
    t3In.pipeInput(1, 'T1', 3)
    t3In.pipeInput(2, 'T2', 9)
    t3In.pipeInput(3, 'T3', 9)
    // the view's timestamp is the larger of both sides' present timestamps
    expect(h.read()).to.deep.equal([
      [1, 'T1|L1+null', 5],
      [2, 'T2|null+R2', 9]
    ])
    h.right.pipeInput(1, 'R1', 7)
    expect(h.read()).to.deep.equal([[1, 'T1|L1+R1', 7]])
    h.driver.close()
  })
})
