import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import type { StreamsConfig } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Materialized, Named, StreamsBuilder } from '../src/index.js'
import type { KTable } from '../src/index.js'
import { capture, droppedRecordsTotal, readAll } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()

describe('KTable on the TopologyTestDriver', () => {
  it('a source table forwards every update and tombstone (KTableSourceTest.testKTable)', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, number>()
    builder.table('topic1', Consumed.with(S, I)).toStream().process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('topic1', S, I)
    input.pipeInput('A', 1, 10)
    input.pipeInput('B', 2, 11)
    input.pipeInput('C', 3, 12)
    input.pipeInput('D', 4, 13)
    input.pipeInput('A', null, 14)
    input.pipeInput('B', null, 15)
    input.pipeInput(null, 5, 16)
    expect(processed).to.deep.equal([
      ['A', 1, 10],
      ['B', 2, 11],
      ['C', 3, 12],
      ['D', 4, 13],
      ['A', null, 14],
      ['B', null, 15]
    ])
    driver.close()
  })

  it('toTable keeps the latest value per key and repartitions after a key change (the repartition filter drops null keys, KIP-962)', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    const table = builder
      .stream('in', Consumed.with(S, S))
      .selectKey((_k, v) => (v.startsWith('-') ? (null as unknown as string) : v.split(':')[0]!))
      .toTable(Materialized.as<string, string>('latest').withKeySerde(S).withValueSerde(S))
    table.toStream().process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('in', S, S)
    input.pipeInput('1', 'a:1', 1)
    input.pipeInput('2', 'b:1', 2)
    input.pipeInput('3', 'a:2', 3)
    input.pipeInput('4', '-dropped', 4)
    expect(processed).to.deep.equal([
      ['a', 'a:1', 1],
      ['b', 'b:1', 2],
      ['a', 'a:2', 3]
    ])
    expect(driver.getKeyValueStore<string, string>('latest')!.get('a')).to.equal('a:2')
    // source 0, key-select 1, to-table 2: the repartition topic is named after the toTable node
    expect(
      readAll(driver.createOutputTopic('dummy-topology-test-driver-app-id-KSTREAM-TOTABLE-0000000002-repartition', S, S))
    ).to.deep.equal([
      ['a', 'a:1', 1],
      ['b', 'b:1', 2],
      ['a', 'a:2', 3]
    ])
    expect(droppedRecordsTotal(driver.metrics())).to.equal(0)
    driver.close()
  })

  it('a named source table is materialized and queryable; an unnamed one has no store', () => {
    const builder = new StreamsBuilder()
    const named = builder.table('t1', Consumed.with(S, I), Materialized.as('t1-store'))
    const unnamed = builder.table('t2', Consumed.with(S, I))
    expect(named.queryableStoreName).to.equal('t1-store')
    expect(unnamed.queryableStoreName).to.equal(undefined)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('t1', S, I).pipeInput('A', 1, 10)
    expect(driver.getKeyValueStore<string, number>('t1-store')!.get('A')).to.equal(1)
    expect([...driver.getAllStateStores().keys()]).to.deep.equal(['t1-store'])
    driver.close()
  })

  describe('filter / filterNot (KTableFilterTest)', () => {
    function doTestKTable(
      builder: StreamsBuilder,
      table2: KTable<string, number>,
      table3: KTable<string, number>,
      config: StreamsConfig = {}
    ): void {
      const c2 = capture<string, number>()
      const c3 = capture<string, number>()
      table2.toStream().process(c2.supplier)
      table3.toStream().process(c3.supplier)
      const driver = new TopologyTestDriver(builder.build(), config)
      const input = driver.createInputTopic('topic', S, I)
      input.pipeInput('A', 1, 10)
      input.pipeInput('B', 2, 5)
      input.pipeInput('C', 3, 8)
      input.pipeInput('D', 4, 14)
      input.pipeInput('A', null, 18)
      input.pipeInput('B', null, 15)
      expect(c2.processed).to.deep.equal([
        ['A', null, 10],
        ['B', 2, 5],
        ['C', null, 8],
        ['D', 4, 14],
        ['A', null, 18],
        ['B', null, 15]
      ])
      expect(c3.processed).to.deep.equal([
        ['A', 1, 10],
        ['B', null, 5],
        ['C', 3, 8],
        ['D', null, 14],
        ['A', null, 18],
        ['B', null, 15]
      ])
      driver.close()
    }

    it('an unmaterialized filter forwards a tombstone for every rejected update', () => {
      const builder = new StreamsBuilder()
      const table1 = builder.table('topic', Consumed.with(S, I))
      doTestKTable(
        builder,
        table1.filter((_k, v) => v % 2 === 0),
        table1.filterNot((_k, v) => v % 2 === 0)
      )
    })

    // Kafka's test sets statestore.cache.max.bytes = 0; here the store's caching is disabled
    // explicitly, as our caching layer (like Kafka's CachingKeyValueStore) does not forward the
    // tombstone of a key it never held.
    it('a materialized filter (caching disabled) forwards the same updates and is queryable', () => {
      const builder = new StreamsBuilder()
      const table1 = builder.table('topic', Consumed.with(S, I))
      const table2 = table1.filter((_k, v) => v % 2 === 0, Materialized.as<string, number>('anyStoreNameFilter').withCachingDisabled())
      const table3 = table1.filterNot((_k, v) => v % 2 === 0)
      expect(table2.queryableStoreName).to.equal('anyStoreNameFilter')
      expect(table3.queryableStoreName).to.equal(undefined)
      doTestKTable(builder, table2, table3, { statestoreCacheMaxBytes: 0 })
    })

    it('over a materialized source, updates rejected before and after are not forwarded (old values known)', () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, string>()
      builder
        .table('topic', Consumed.with(S, S), Materialized.as('anyStoreName'))
        .filter((_k, v) => v.toLowerCase() === 'accept', Materialized.as('store2'))
        .toStream()
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic', S, S)
      input.pipeInput('A', 'reject', 5)
      input.pipeInput('B', 'reject', 10)
      input.pipeInput('C', 'reject', 20)
      input.pipeInput('B', 'accept', 21)
      input.pipeInput('B', 'reject', 22)
      input.pipeInput('A', null, 23)
      expect(processed).to.deep.equal([
        ['B', 'accept', 21],
        ['B', null, 22]
      ])
      driver.close()
    })
  })

  it('mapValues maps new values, keeps deletes, and can be materialized (KTableMapValuesTest)', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, number>()
    const table1 = builder.table('topic1', Consumed.with(S, S))
    table1
      .mapValues(v => v.length, Named.as('len'), Materialized.as<string, number>('lengths').withValueSerde(I))
      .toStream()
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('topic1', S, S)
    input.pipeInput('A', 'a', 5)
    input.pipeInput('B', 'bb', 25)
    input.pipeInput('C', 'ccc', 20)
    input.pipeInput('A', null, 30)
    expect(processed).to.deep.equal([
      ['A', 1, 5],
      ['B', 2, 25],
      ['C', 3, 20],
      ['A', null, 30]
    ])
    expect(driver.getKeyValueStore<string, number>('lengths')!.get('B')).to.equal(2)
    expect(driver.getKeyValueStore<string, number>('lengths')!.get('A')).to.equal(null)
    driver.close()
  })

  for (const caching of [false, true]) {
    it(`an aggregation sends old values to a filter: a count leaving the predicate becomes one tombstone (caching ${caching ? 'on' : 'off'})`, () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, number>()
      const m = Materialized.as<string, number>('c').withKeySerde(S)
      builder
        .stream('in', Consumed.with(S, S))
        .groupByKey()
        .count(caching ? m : m.withCachingDisabled())
        .filter((_k, count) => count < 3)
        .toStream()
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('in', S, S)
      for (let i = 1; i <= 5; i++) input.pipeInput('k', 'v', i)
      expect(processed).to.deep.equal([
        ['k', 1, 1],
        ['k', 2, 2],
        ['k', null, 3]
      ])
      driver.close()
    })
  }
})
