import { expect } from 'chai'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { Materialized, Named, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/ktable.js'
import { captureChanges, consumed, harness, I, joiner, runScenario, S } from './ktable-join-helpers.js'
import type { ChangeRecord } from './ktable-join-helpers.js'

const EXPECTED_OUTPUT = [
  [],
  [
    [0, 'X0+Y0', 5],
    [1, 'X1+Y1', 10]
  ],
  [
    [0, 'XX0+Y0', 7],
    [1, 'XX1+Y1', 10]
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
    [0, null, 6],
    [1, null, 7]
  ],
  [
    [2, 'XXXX2+YY2', 13],
    [3, 'XXXX3+YY3', 15]
  ],
  [
    [2, null, 10],
    [3, null, 20]
  ]
]

const EXPECTED_CHANGES_WITHOUT_OLD: ChangeRecord[][] = [
  [],
  [
    [0, 'X0+Y0', null, 5],
    [1, 'X1+Y1', null, 10]
  ],
  [
    [0, 'XX0+Y0', null, 7],
    [1, 'XX1+Y1', null, 10]
  ],
  [
    [0, 'XX0+YY0', null, 7],
    [1, 'XX1+YY1', null, 7],
    [2, 'XX2+YY2', null, 10],
    [3, 'XX3+YY3', null, 15]
  ],
  [
    [0, 'XXX0+YY0', null, 6],
    [1, 'XXX1+YY1', null, 6],
    [2, 'XXX2+YY2', null, 10],
    [3, 'XXX3+YY3', null, 15]
  ],
  [
    [0, null, null, 6],
    [1, null, null, 7]
  ],
  [
    [2, 'XXXX2+YY2', null, 13],
    [3, 'XXXX3+YY3', null, 15]
  ],
  [
    [2, null, null, 10],
    [3, null, null, 20]
  ]
]

const EXPECTED_CHANGES_WITH_OLD: ChangeRecord[][] = [
  [],
  [
    [0, 'X0+Y0', null, 5],
    [1, 'X1+Y1', null, 10]
  ],
  [
    [0, 'XX0+Y0', 'X0+Y0', 7],
    [1, 'XX1+Y1', 'X1+Y1', 10]
  ],
  [
    [0, 'XX0+YY0', 'XX0+Y0', 7],
    [1, 'XX1+YY1', 'XX1+Y1', 7],
    [2, 'XX2+YY2', null, 10],
    [3, 'XX3+YY3', null, 15]
  ],
  [
    [0, 'XXX0+YY0', 'XX0+YY0', 6],
    [1, 'XXX1+YY1', 'XX1+YY1', 6],
    [2, 'XXX2+YY2', 'XX2+YY2', 10],
    [3, 'XXX3+YY3', 'XX3+YY3', 15]
  ],
  [
    [0, null, 'XXX0+YY0', 6],
    [1, null, 'XXX1+YY1', 7]
  ],
  [
    [2, 'XXXX2+YY2', 'XXX2+YY2', 13],
    [3, 'XXXX3+YY3', 'XXX3+YY3', 15]
  ],
  [
    [2, null, 'XXXX2+YY2', 10],
    [3, null, 'XXXX3+YY3', 20]
  ]
]

function tables(builder: StreamsBuilder): [KTable<number, string>, KTable<number, string>] {
  return [builder.table('topic1', consumed), builder.table('topic2', consumed)]
}

describe('KTable-KTable inner join (KTableKTableInnerJoinTest)', () => {
  it('joins on the primary key with the larger timestamp and deletes results (testJoin)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    t1.join(t2, joiner).toStream().to('output')
    expect(builder.build()[TOPOLOGY_DEF]().copartitionGroups).to.deep.equal([['topic1', 'topic2']])
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    h.driver.close()
  })

  it('a materialized join emits the same results and is queryable (testQueryableJoin)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner, Materialized.as<number, string>('join-store').withValueSerde(S))
    expect(joined.queryableStoreName).to.equal('join-store')
    joined.toStream().to('output')
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    h.right.pipeInput(2, 'Z2', 30)
    h.left.pipeInput(2, 'W2', 31)
    const store = h.driver.getTimestampedKeyValueStore<number, string>('join-store')!
    expect(store.get(2)).to.deep.include({ value: 'W2+Z2', timestamp: 31 })
    expect(store.get(3)).to.equal(null)
    h.driver.close()
  })

  it('a materialized join without a store name uses a generated store (Materialized.with)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner, Materialized.with(I, S))
    // topic1 store 0, source 1, table source 2; topic2 3, 4, 5; result store 6, merge 7
    expect(joined.queryableStoreName).to.equal('KTABLE-MERGE-STATE-STORE-0000000006')
    expect(joined.name).to.equal('KTABLE-MERGE-0000000007')
    joined.toStream().to('output')
    const h = harness(builder)
    expect(runScenario(h, h.read)).to.deep.equal(EXPECTED_OUTPUT)
    h.driver.close()
  })

  it('forwards Changes without old values (testNotSendingOldValues)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(t1.supplier.sendOldValues).to.equal(false)
    expect(t2.supplier.sendOldValues).to.equal(false)
    expect(joined.supplier.sendOldValues).to.equal(false)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITHOUT_OLD)
    h.driver.close()
  })

  it('forwards Changes without old values when materialized (testQueryableNotSendingOldValues)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner, Materialized.with(I, S))
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITHOUT_OLD)
    h.driver.close()
  })

  it('sends old values once asked, making both tables send them (testSendingOldValues)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner)
    expect(joined.enableSendingOldValues(true)).to.equal(true)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(t1.supplier.sendOldValues).to.equal(true)
    expect(t2.supplier.sendOldValues).to.equal(true)
    expect(joined.supplier.sendOldValues).to.equal(true)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITH_OLD)
    h.driver.close()
  })

  it('sends old values from a materialized join too', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const joined = t1.join(t2, joiner, Materialized.as<number, string>('result').withValueSerde(S).withCachingDisabled())
    joined.enableSendingOldValues(true)
    const { supplier, take } = captureChanges()
    builder.build().addProcessor('proc', supplier, joined.name)
    const h = harness(builder)
    expect(runScenario(h, take)).to.deep.equal(EXPECTED_CHANGES_WITH_OLD)
    h.driver.close()
  })

  it("names its processors after a Named and reads the other table's store", () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    t1.join(t2, joiner, Named.as('my-join')).toStream().to('output')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Processor: my-join-join-this (stores: [topic2-STATE-STORE-0000000003])')
    expect(text).to.contain('Processor: my-join-join-other (stores: [topic1-STATE-STORE-0000000000])')
    expect(text).to.contain('Processor: my-join (stores: [])')
  })
  it('describes a table-table join as Kafka Streams does (names drawn as KTableImpl.doJoin draws them)', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table<string, string>('input-topic-1')
    const t2 = builder.table<string, string>('input-topic-2')
    t1.join(t2, (a, b) => a + b)
      .toStream()
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic-1])',
        '      --> KTABLE-SOURCE-0000000002',
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [input-topic-2])',
        '      --> KTABLE-SOURCE-0000000005',
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-1-STATE-STORE-0000000000])',
        '      --> KTABLE-JOINTHIS-0000000007',
        '      <-- KSTREAM-SOURCE-0000000001',
        '    Processor: KTABLE-SOURCE-0000000005 (stores: [input-topic-2-STATE-STORE-0000000003])',
        '      --> KTABLE-JOINOTHER-0000000008',
        '      <-- KSTREAM-SOURCE-0000000004',
        '    Processor: KTABLE-JOINOTHER-0000000008 (stores: [input-topic-1-STATE-STORE-0000000000])',
        '      --> KTABLE-MERGE-0000000006',
        '      <-- KTABLE-SOURCE-0000000005',
        '    Processor: KTABLE-JOINTHIS-0000000007 (stores: [input-topic-2-STATE-STORE-0000000003])',
        '      --> KTABLE-MERGE-0000000006',
        '      <-- KTABLE-SOURCE-0000000002',
        '    Processor: KTABLE-MERGE-0000000006 (stores: [])',
        '      --> KTABLE-TOSTREAM-0000000009',
        '      <-- KTABLE-JOINTHIS-0000000007, KTABLE-JOINOTHER-0000000008',
        '    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])',
        '      --> KSTREAM-SINK-0000000010',
        '      <-- KTABLE-MERGE-0000000006',
        '    Sink: KSTREAM-SINK-0000000010 (topic: output)',
        '      <-- KTABLE-TOSTREAM-0000000009',
        '',
        ''
      ].join('\n')
    )
  })

  it('a record with a null key never reaches the join (table sources drop it)', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    t1.join(t2, joiner).toStream().to('output')
    const h = harness(builder)
    h.left.pipeInput(null, 'x', 1)
    expect(h.read()).to.deep.equal([])
    h.driver.close()
  })

  it('rejects a table of another builder and a missing joiner', () => {
    const builder = new StreamsBuilder()
    const [t1] = tables(builder)
    const foreign = new StreamsBuilder().table('topic9', consumed)
    expect(() => t1.join(foreign, joiner))
      .to.throw()
      .with.property('code', 'TOPOLOGY_INVALID')
    expect(() => t1.join(t1, null as unknown as typeof joiner))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('types the joiner per join kind', () => {
    const builder = new StreamsBuilder()
    const [t1, t2] = tables(builder)
    const inner: KTable<number, number> = t1.join(t2, (a, b) => a.length + b.length)
    const left: KTable<number, number> = t1.leftJoin(t2, (a, b) => a.length + (b?.length ?? 0))
    const outer: KTable<number, number> = t1.outerJoin(t2, (a, b) => (a?.length ?? 0) + (b?.length ?? 0))
    // @ts-expect-error the right value of a left join may be null
    t1.leftJoin(t2, (a: string, b: string) => a + b)
    // @ts-expect-error both values of an outer join may be null
    t1.outerJoin(t2, (a: string, b: string | null) => a + String(b))
    expect([inner, left, outer].every(t => t !== undefined)).to.equal(true)
  })
  it('a delete of a key only the other table has: a tombstone, unless a caching store knows there was nothing', () => {
    const uncachedLeft = (): Materialized<number, string> => Materialized.as<number, string>('left-store').withCachingDisabled()
    const cases: Array<
      [string, Materialized<number, string> | undefined, Materialized<number, string> | undefined, Array<[number, null, number]>]
    > = [
      // the source table caches (Kafka's default): its flush skips a delete of an absent key
      ['cached source', undefined, undefined, []],
      ['uncached source', uncachedLeft(), undefined, [[7, null, 4]]],
      [
        'uncached source and result',
        uncachedLeft(),
        Materialized.as<number, string>('result').withValueSerde(S).withCachingDisabled(),
        [[7, null, 4]]
      ],
      // the result store caches: nothing was there, so nothing is forwarded
      ['uncached source, cached result', uncachedLeft(), Materialized.as<number, string>('result').withValueSerde(S), []]
    ]
    for (const [name, leftMaterialized, resultMaterialized, expected] of cases) {
      const builder = new StreamsBuilder()
      const t1 = leftMaterialized === undefined ? builder.table('topic1', consumed) : builder.table('topic1', consumed, leftMaterialized)
      const t2 = builder.table('topic2', consumed)
      t1.join(t2, joiner, resultMaterialized).toStream().to('output')
      const h = harness(builder)
      h.right.pipeInput(7, 'Y7', 3)
      h.left.pipeInput(7, null, 4)
      expect(h.read(), name).to.deep.equal(expected)
      h.driver.close()
    }
  })
})
