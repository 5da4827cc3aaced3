import { expect } from 'chai'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { Materialized } from '../../src/materialized.js'
import { Named } from '../../src/named.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture } from '../helpers.js'
import type { KVT } from '../helpers.js'
import { I, S, droppedRecords, joiner } from './join-helpers.js'

const KEYS = [0, 1, 2, 3]

interface GlobalFixture {
  driver: TopologyTestDriver
  stream: TestInputTopic<number, string>
  take(): Array<KVT<number, string>>
  /** Kafka's pushToStream: value `<prefix><key>[,FKey<key>]`, the first key null when asked. */
  pushToStream(n: number, prefix: string, withForeignKey: boolean, firstKeyNull: boolean): void
  pushToGlobalTable(n: number, prefix: string): void
  pushNullToGlobalTable(n: number): void
}

/** The value is comma-delimited: its second token, when present, is the key in the global table (the selector also sees null values, as in Kafka). */
const keyMapper = (_key: number, value: string): string => (value === null ? undefined : value.split(',')[1]) ?? (null as unknown as string)

function fixture(leftJoin: boolean): GlobalFixture {
  const builder = new StreamsBuilder()
  const { supplier, processed } = capture<number, string>()
  const stream = builder.stream('streamTopic', Consumed.with(I, S))
  const table = builder.globalTable('globalTableTopic', Consumed.with(S, S))
  const joined = leftJoin ? stream.leftJoin(table, keyMapper, joiner) : stream.join(table, keyMapper, joiner)
  joined.process(supplier)
  const driver = new TopologyTestDriver(builder.build())
  // stream timestamps advance by 1 ms per record; the global table's do not
  const s = driver.createInputTopic('streamTopic', I, S, 0, 1)
  const g = driver.createInputTopic('globalTableTopic', S, S)
  return {
    driver,
    stream: s,
    take: () => processed.splice(0, processed.length),
    pushToStream: (n, prefix, withForeignKey, firstKeyNull) => {
      for (let i = 0; i < n; i++) {
        const value = prefix + KEYS[i]! + (withForeignKey ? ',FKey' + KEYS[i]! : '')
        s.pipeInput(firstKeyNull && i === 0 ? null : KEYS[i]!, value)
      }
    },
    pushToGlobalTable: (n, prefix) => {
      for (let i = 0; i < n; i++) g.pipeInput('FKey' + KEYS[i]!, prefix + KEYS[i]!)
    },
    pushNullToGlobalTable: n => {
      for (let i = 0; i < n; i++) g.pipeInput('FKey' + KEYS[i]!, null)
    }
  }
}

describe('KStream-GlobalKTable join (KStreamGlobalKTableJoinTest)', () => {
  it('does not join with an empty global table; global updates never emit', () => {
    const f = fixture(false)
    f.pushToStream(2, 'X', true, false)
    expect(f.take()).to.deep.equal([])
    f.pushToGlobalTable(2, 'Y')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'X0,FKey0+Y0', 2],
      [1, 'X1,FKey1+Y1', 3]
    ])
    f.pushToGlobalTable(4, 'YY')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'X0,FKey0+YY0', 6],
      [1, 'X1,FKey1+YY1', 7],
      [2, 'X2,FKey2+YY2', 8],
      [3, 'X3,FKey3+YY3', 9]
    ])
    f.driver.close()
  })

  it('a global delete removes the match (shouldClearGlobalTableEntryOnNullValueUpdates)', () => {
    const f = fixture(false)
    f.pushToGlobalTable(4, 'Y')
    f.pushToStream(4, 'X', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'X0,FKey0+Y0', 0],
      [1, 'X1,FKey1+Y1', 1],
      [2, 'X2,FKey2+Y2', 2],
      [3, 'X3,FKey3+Y3', 3]
    ])
    f.pushNullToGlobalTable(2)
    f.pushToStream(4, 'XX', true, false)
    expect(f.take()).to.deep.equal([
      [2, 'XX2,FKey2+Y2', 6],
      [3, 'XX3,FKey3+Y3', 7]
    ])
    f.driver.close()
  })

  it('drops and counts records whose key selector returns null, with or without a stream key', () => {
    const f = fixture(false)
    f.pushToGlobalTable(4, 'Y')
    f.pushToStream(4, 'XXX', false, false)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(4)
    f.pushToStream(4, 'XXX', false, true)
    expect(droppedRecords(f.driver.metrics())).to.equal(8)
    f.driver.close()
  })

  it('joins a record with a null key when the selector maps it to a key (shouldJoinOnNullKey)', () => {
    const f = fixture(false)
    f.pushToGlobalTable(2, 'Y')
    f.pushToStream(4, 'X', true, true)
    expect(f.take()).to.deep.equal([
      [null, 'X0,FKey0+Y0', 0],
      [1, 'X1,FKey1+Y1', 1]
    ])
    expect(droppedRecords(f.driver.metrics())).to.equal(0)
    f.driver.close()
  })

  it('drops and counts a record with a null value', () => {
    const f = fixture(false)
    f.pushToGlobalTable(2, 'Y')
    f.stream.pipeInput(0, null)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(1)
    f.driver.close()
  })
})

describe('KStream-GlobalKTable left join (KStreamGlobalKTableLeftJoinTest)', () => {
  it('joins with null when the global table has no value; global updates never emit', () => {
    const f = fixture(true)
    f.pushToStream(2, 'X', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'X0,FKey0+null', 0],
      [1, 'X1,FKey1+null', 1]
    ])
    f.pushToGlobalTable(2, 'Y')
    expect(f.take()).to.deep.equal([])
    f.pushToStream(4, 'X', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'X0,FKey0+Y0', 2],
      [1, 'X1,FKey1+Y1', 3],
      [2, 'X2,FKey2+null', 4],
      [3, 'X3,FKey3+null', 5]
    ])
    f.driver.close()
  })

  it('a global delete makes the join emit null again', () => {
    const f = fixture(true)
    f.pushToGlobalTable(4, 'Y')
    f.pushToStream(4, 'X', true, false)
    f.take()
    f.pushNullToGlobalTable(2)
    f.pushToStream(4, 'XX', true, false)
    expect(f.take()).to.deep.equal([
      [0, 'XX0,FKey0+null', 4],
      [1, 'XX1,FKey1+null', 5],
      [2, 'XX2,FKey2+Y2', 6],
      [3, 'XX3,FKey3+Y3', 7]
    ])
    f.driver.close()
  })

  it('drops and counts a record with a key whose selector returns null (shouldNotJoinOnNullKeyMapperValues)', () => {
    const f = fixture(true)
    f.pushToGlobalTable(4, 'Y')
    f.pushToStream(4, 'XXX', false, false)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(4)
    f.driver.close()
  })

  it('keeps a record with a null key: joined by its selected key, or with null (shouldJoinOnNullKeyWithNonNullKeyMapperValues, KIP-962)', () => {
    const f = fixture(true)
    f.pushToGlobalTable(4, 'Y')
    f.pushToStream(4, 'X', true, true)
    expect(f.take()).to.deep.equal([
      [null, 'X0,FKey0+Y0', 0],
      [1, 'X1,FKey1+Y1', 1],
      [2, 'X2,FKey2+Y2', 2],
      [3, 'X3,FKey3+Y3', 3]
    ])
    f.pushToStream(1, 'Z', false, true)
    expect(f.take()).to.deep.equal([[null, 'Z0+null', 4]])
    expect(droppedRecords(f.driver.metrics())).to.equal(0)
    f.driver.close()
  })
})

describe('StreamsBuilder.globalTable', () => {
  it('adds a global store named <topic>-STATE-STORE-<n>, fed by KSTREAM-SOURCE- and KTABLE-SOURCE- (describe)', () => {
    const builder = new StreamsBuilder()
    const table = builder.globalTable('gt', Consumed.with(S, S))
    expect(table.queryableStoreName).to.equal(undefined)
    builder.stream('s', Consumed.with(S, S)).join(table, (_k, v) => v, joiner)
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0 for global store (will not generate tasks)\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [gt])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [gt-STATE-STORE-0000000000])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000003 (topics: [s])\n' +
        '      --> KSTREAM-LEFTJOIN-0000000004\n' +
        '    Processor: KSTREAM-LEFTJOIN-0000000004 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000003\n\n'
    )
  })

  it('a named store is queryable; a Consumed name names the source <name>-source and the processor; Named names the join', () => {
    const builder = new StreamsBuilder()
    const table = builder.globalTable('gt', Consumed.with(S, S).withName('g'), Materialized.as('gstore'))
    expect(table.queryableStoreName).to.equal('gstore')
    const { supplier, processed } = capture<string, string>()
    builder
      .stream('s', Consumed.with(S, S))
      .leftJoin(table, (_k, v) => v, joiner, Named.as('lookup'))
      .process(supplier)
    const topology = builder.build()
    const description = topology.describe().toString()
    expect(description)
      .to.contain('Source: g-source (topics: [gt])')
      .and.to.contain('Processor: g (stores: [gstore])')
      .and.to.contain('Processor: lookup (stores: [])')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('gt', S, S).pipeInput('a', 'A', 3)
    driver.createInputTopic('s', S, S).pipeInput('k', 'a', 9)
    expect(processed).to.deep.equal([['k', 'a+A', 9]])
    expect(driver.getKeyValueStore<string, string>('gstore')!.get('a')).to.equal('A')
    driver.close()
  })

  it('takes the serdes of a Materialized given alone', () => {
    const builder = new StreamsBuilder()
    const table = builder.globalTable('gt', Materialized.as<number, string>('g').withKeySerde(I).withValueSerde(S))
    const { supplier, processed } = capture<number, string>()
    builder
      .stream('s', Consumed.with(I, I))
      .join(
        table,
        (_k, v) => v,
        (v, g) => `${v}:${g}`
      )
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('gt', I, S).pipeInput(5, 'five', 0)
    driver.createInputTopic('s', I, I).pipeInput(1, 5, 2)
    expect(processed).to.deep.equal([[1, '5:five', 2]])
    driver.close()
  })
})
