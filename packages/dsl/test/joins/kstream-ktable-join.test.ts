import { expect } from 'chai'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { Joined } from '../../src/joined.js'
import { Materialized } from '../../src/materialized.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture, readAll } from '../helpers.js'
import type { KVT } from '../helpers.js'
import { I, S, droppedRecords, joiner } from './join-helpers.js'

const KEYS = [0, 1, 2, 3]

interface TableFixture {
  driver: TopologyTestDriver
  stream: TestInputTopic<number, string>
  table: TestInputTopic<number, string>
  take(): Array<KVT<number, string>>
  /** Kafka's pushToStream: keys 0..n-1, value prefix + key, timestamp = key. */
  pushToStream(n: number, prefix: string): void
  /** Kafka's pushToTable: keys 0..n-1, value prefix + key, an arbitrary timestamp. */
  pushToTable(n: number, prefix: string): void
  pushNullToTable(n: number): void
}

function fixture(leftJoin: boolean): TableFixture {
  const builder = new StreamsBuilder()
  const { supplier, processed } = capture<number, string>()
  const stream = builder.stream('streamTopic', Consumed.with(I, S))
  const table = builder.table('tableTopic', Consumed.with(I, S))
  const joined = leftJoin ? stream.leftJoin(table, joiner) : stream.join(table, joiner)
  joined.process(supplier)
  const driver = new TopologyTestDriver(builder.build())
  const s = driver.createInputTopic('streamTopic', I, S, 0, 0)
  const t = driver.createInputTopic('tableTopic', I, S, 0, 0)
  return {
    driver,
    stream: s,
    table: t,
    take: () => processed.splice(0, processed.length),
    pushToStream: (n, prefix) => {
      for (let i = 0; i < n; i++) s.pipeInput(KEYS[i]!, prefix + KEYS[i]!, i)
    },
    pushToTable: (n, prefix) => {
      for (let i = 0; i < n; i++) t.pipeInput(KEYS[i]!, prefix + KEYS[i]!, 1000 + 37 * i)
    },
    pushNullToTable: n => {
      for (let i = 0; i < n; i++) t.pipeInput(KEYS[i]!, null)
    }
  }
}

describe('KStream-KTable join (KStreamKTableJoinTest)', () => {
  it('does not join with an empty table', () => {
    const f = fixture(false)
    f.pushToStream(2, 'X')
    expect(f.take()).to.deep.equal([])
    f.driver.close()
  })

  it('table updates never emit; stream records join the current value with their own timestamp', () => {
    const f = fixture(false)
    f.pushToStream(2, 'X')
    f.pushToTable(2, 'Y')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+Y0', 0],
      [1, 'X1+Y1', 1]
    ])
    f.pushToTable(4, 'YY')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+YY0', 0],
      [1, 'X1+YY1', 1],
      [2, 'X2+YY2', 2],
      [3, 'X3+YY3', 3]
    ])
    f.driver.close()
  })

  it('a table delete removes the match (shouldClearTableEntryOnNullValueUpdates)', () => {
    const f = fixture(false)
    f.pushToTable(4, 'Y')
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+Y0', 0],
      [1, 'X1+Y1', 1],
      [2, 'X2+Y2', 2],
      [3, 'X3+Y3', 3]
    ])
    f.pushNullToTable(2)
    f.pushToStream(4, 'XX')
    expect(f.take()).to.deep.equal([
      [2, 'XX2+Y2', 2],
      [3, 'XX3+Y3', 3]
    ])
    f.driver.close()
  })

  it('drops and counts stream records with a null key or value', () => {
    const f = fixture(false)
    f.pushToTable(2, 'Y')
    f.stream.pipeInput(null, 'A', 0)
    f.stream.pipeInput(1, null, 0)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(2)
    f.driver.close()
  })

  it('materializes the source table it reads (the join processor is connected to its store)', () => {
    const f = fixture(false)
    const description = f.driver.getAllStateStores()
    expect([...description.keys()]).to.deep.equal(['tableTopic-STATE-STORE-0000000001'])
    f.driver.close()
  })

  it('a ValueJoinerWithKey and a filtered table view', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<number, string>()
    const table = builder.table('tableTopic', Consumed.with(I, S), Materialized.as('t')).filter((_k, v) => !v.startsWith('-'))
    builder
      .stream('streamTopic', Consumed.with(I, S))
      .join(table, (k: number, v: string, t: string) => `${k}:${v}+${t}`)
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const t = driver.createInputTopic('tableTopic', I, S)
    t.pipeInput(1, 'one', 0)
    t.pipeInput(2, '-two', 0)
    const s = driver.createInputTopic('streamTopic', I, S)
    s.pipeInput(1, 'a', 5)
    s.pipeInput(2, 'b', 6)
    expect(processed).to.deep.equal([[1, '1:a+one', 5]])
    driver.close()
  })

  it('repartitions the stream after a key change: <Joined name>-repartition, or the stream node name', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<number, string>()
    const table = builder.table('tableTopic', Consumed.with(I, S))
    builder
      .stream('streamTopic', Consumed.with(S, S))
      .selectKey((_k, v) => Number(v.split(':')[0]))
      .join(table, joiner, Joined.with(I, S, S).withName('my-join'))
      .process(supplier)
    const topology = builder.build()
    expect(topology.describe().toString())
      .to.contain('Processor: my-join (stores: [tableTopic-STATE-STORE-0000000000])')
      .and.to.contain('Sink: my-join-repartition-sink (topic: my-join-repartition)')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('tableTopic', I, S).pipeInput(3, 'three', 0)
    driver.createInputTopic('streamTopic', S, S).pipeInput('x', '3:v', 7)
    expect(processed).to.deep.equal([[3, '3:v+three', 7]])
    expect(readAll(driver.createOutputTopic('dummy-topology-test-driver-app-id-my-join-repartition', I, S))).to.deep.equal([[3, '3:v', 7]])
    driver.close()

    const b2 = new StreamsBuilder()
    b2.stream('s', Consumed.with(S, S))
      .selectKey((_k, v) => v)
      .join(b2.table('t', Consumed.with(S, S)), joiner)
    // source 0, key-select 1, then the table argument: store 2, source 3, table source 4; repartition 5-7, join 8
    expect(b2.build().describe().toString())
      .to.contain('(topic: KSTREAM-KEY-SELECT-0000000001-repartition)')
      .and.to.contain('Processor: KSTREAM-JOIN-0000000008 (stores: [t-STATE-STORE-0000000002])')
  })
})

describe('KStream-KTable left join (KStreamKTableLeftJoinTest)', () => {
  it('joins with null when the table has no value; table updates never emit', () => {
    const f = fixture(true)
    f.pushToStream(2, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+null', 0],
      [1, 'X1+null', 1]
    ])
    f.pushToTable(2, 'Y')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+Y0', 0],
      [1, 'X1+Y1', 1],
      [2, 'X2+null', 2],
      [3, 'X3+null', 3]
    ])
    f.pushToTable(4, 'YY')
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+YY0', 0],
      [1, 'X1+YY1', 1],
      [2, 'X2+YY2', 2],
      [3, 'X3+YY3', 3]
    ])
    f.driver.close()
  })

  it('a table delete makes the join emit null again (shouldClearTableEntryOnNullValueUpdates)', () => {
    const f = fixture(true)
    f.pushToTable(4, 'Y')
    f.pushToStream(4, 'X')
    expect(f.take()).to.deep.equal([
      [0, 'X0+Y0', 0],
      [1, 'X1+Y1', 1],
      [2, 'X2+Y2', 2],
      [3, 'X3+Y3', 3]
    ])
    f.pushNullToTable(2)
    f.pushToStream(4, 'XX')
    expect(f.take()).to.deep.equal([
      [0, 'XX0+null', 0],
      [1, 'XX1+null', 1],
      [2, 'XX2+Y2', 2],
      [3, 'XX3+Y3', 3]
    ])
    f.driver.close()
  })

  it('keeps a record with a null key (joined with null, not counted) and drops one with a null value (shouldNotDropLeftNullKey)', () => {
    const f = fixture(true)
    f.pushToTable(1, 'Y')
    f.stream.pipeInput(null, 'A', 0)
    expect(f.take()).to.deep.equal([[null, 'A+null', 0]])
    expect(droppedRecords(f.driver.metrics())).to.equal(0)
    f.stream.pipeInput(1, null, 0)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(1)
    f.driver.close()
  })

  it('after a key change, a record whose new key is null passes the repartition topic and joins with null', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .stream('s', Consumed.with(S, S))
      .selectKey((k, v) => (v === 'none' ? (null as unknown as string) : k))
      .leftJoin(builder.table('t', Consumed.with(S, S)), joiner, Joined.with(S, S, S))
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('t', S, S).pipeInput('k', 'T', 0)
    const s = driver.createInputTopic('s', S, S)
    s.pipeInput('k', 'none', 5)
    s.pipeInput('k', 'v', 6)
    expect(processed).to.deep.equal([
      [null, 'none+null', 5],
      ['k', 'v+T', 6]
    ])
    driver.close()
  })

  it('names the processor KSTREAM-LEFTJOIN-', () => {
    const builder = new StreamsBuilder()
    builder.stream('s', Consumed.with(S, S)).leftJoin(builder.table('t', Consumed.with(S, S)), joiner)
    expect(builder.build().describe().toString()).to.contain('Processor: KSTREAM-LEFTJOIN-0000000004 (stores: [t-STATE-STORE-0000000001])')
  })
})
