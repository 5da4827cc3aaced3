/**
 * Choosing the store backend per operator (KIP-954): `Materialized.as(DslStoreSuppliers)`,
 * `Materialized.withStoreType`, `StreamJoined.with(DslStoreSuppliers)` and
 * `withDslStoreSuppliers` win over the StreamsBuilder's `dslStoreSuppliers`; an explicit store
 * supplier wins over both. Ported from Kafka Streams' StreamsBuilderTest
 * (shouldUseDslStoreSupplierDefinedInMaterialized, ...OverTopologyOverrides,
 * shouldUseSpecifiedDslStoreSuppliersForAllOuterJoinOperationBetweenKStreamAndKStream) and
 * MaterializedTest (shouldThrowIllegalArgumentExceptionIfStoreSupplierAndStoreTypeBothSet).
 */
import { expect } from 'chai'
import { Serdes, StreamsError } from '@kstreams/core'
import type { DslStoreSuppliers } from '@kstreams/core'
import { InMemoryDslStoreSuppliers, Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, JoinWindows, Materialized, Produced, SessionWindows, StreamJoined, StreamsBuilder, TimeWindows } from '../src/index.js'

const S = Serdes.String()

/** A backend that records each store it is asked for (`kind:name`), built in memory. */
function spy(): { suppliers: DslStoreSuppliers; asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    suppliers: {
      keyValueStore: params => {
        asked.push(`kv:${params.name}`)
        return InMemoryDslStoreSuppliers.keyValueStore(params)
      },
      windowStore: params => {
        asked.push(`window:${params.name}`)
        return InMemoryDslStoreSuppliers.windowStore(params)
      },
      sessionStore: params => {
        asked.push(`session:${params.name}`)
        return InMemoryDslStoreSuppliers.sessionStore(params)
      }
    }
  }
}

function expectIllegal(fn: () => unknown, mentions: string): void {
  try {
    fn()
    expect.fail('expected ILLEGAL_ARGUMENT')
  } catch (error) {
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('ILLEGAL_ARGUMENT')
    expect((error as StreamsError).message).to.contain(mentions)
  }
}

describe('Per-operator store types (KIP-954)', () => {
  it('Materialized.withStoreType wins over the builder default (StreamsBuilderTest.shouldUseDslStoreSupplierDefinedInMaterializedOverTopologyOverrides)', () => {
    const configured = spy()
    const operator = spy()
    const builder = new StreamsBuilder({ dslStoreSuppliers: configured.suppliers })
    builder
      .stream('topic', Consumed.with(S, S))
      .groupByKey()
      .count(Materialized.as<string, number>('store').withStoreType(operator.suppliers))
      .toStream()
    builder.table('table', Consumed.with(S, S), Materialized.as('table-store'))
    const driver = new TopologyTestDriver(builder.build())
    try {
      driver.createInputTopic('topic', S, S).pipeInput('k', 'v')
      expect(driver.getTimestampedKeyValueStore('store')!.get('k')!.value).to.equal(1)
    } finally {
      driver.close()
    }
    expect(operator.asked).to.include('kv:store')
    expect(configured.asked).to.not.include('kv:store')
    expect(configured.asked).to.include('kv:table-store')
  })

  it('Materialized.as(DslStoreSuppliers) builds a store with a generated name from that backend', () => {
    const operator = spy()
    const builder = new StreamsBuilder()
    builder.stream('topic', Consumed.with(S, S)).groupByKey().count(Materialized.as(operator.suppliers))
    const description = builder.build().describe().toString()
    expect(operator.asked).to.have.length(1)
    const storeName = operator.asked[0]!.slice('kv:'.length)
    expect(storeName).to.match(/^KSTREAM-AGGREGATE-STATE-STORE-\d{10}$/)
    expect(description).to.contain(`(stores: [${storeName}])`)
    const materialized = Materialized.as(operator.suppliers)
    expect(materialized.storeName).to.equal(undefined)
    expect(materialized.dslStoreSuppliers).to.equal(operator.suppliers)
  })

  it('applies to time- and session-windowed aggregations', () => {
    const operator = spy()
    const configured = spy()
    const builder = new StreamsBuilder({ dslStoreSuppliers: configured.suppliers })
    const grouped = builder.stream('topic', Consumed.with(S, S)).groupByKey()
    grouped
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count(Materialized.as<string, number>('windowed').withStoreType(operator.suppliers))
    grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count(Materialized.as(operator.suppliers))
    builder.build()
    expect(operator.asked.map(a => a.split(':')[0])).to.deep.equal(['window', 'session'])
    expect(operator.asked[0]).to.equal('window:windowed')
    expect(configured.asked).to.deep.equal([])
  })

  it('an explicit store supplier fixes the store type (MaterializedTest.shouldThrowIllegalArgumentExceptionIfStoreSupplierAndStoreTypeBothSet)', () => {
    const operator = spy()
    expectIllegal(
      () => Materialized.as(Stores.inMemoryKeyValueStore('test')).withStoreType(operator.suppliers),
      'Cannot set store type when store supplier is pre-configured.'
    )
    expectIllegal(
      () => Materialized.as(Stores.inMemoryWindowStore('w', 100, 10, false)).withStoreType(operator.suppliers),
      'store supplier'
    )
    expectIllegal(() => Materialized.as('store').withStoreType({} as DslStoreSuppliers), 'DslStoreSuppliers')
  })

  it('StreamJoined.with(DslStoreSuppliers) builds every join store of an outer join from that backend (StreamsBuilderTest.shouldUseSpecifiedDslStoreSuppliersForAllOuterJoinOperationBetweenKStreamAndKStream)', () => {
    const configured = spy()
    const operator = spy()
    const builder = new StreamsBuilder({ dslStoreSuppliers: configured.suppliers })
    const left = builder.stream('left', Consumed.with(S, S))
    const right = builder.stream('right', Consumed.with(S, S))
    left
      .outerJoin(
        right,
        (a, b) => `${a}+${b}`,
        JoinWindows.ofTimeDifferenceWithNoGrace(100),
        StreamJoined.with<string, string, string>(operator.suppliers).withKeySerde(S).withValueSerde(S).withOtherValueSerde(S)
      )
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    try {
      driver.createInputTopic('left', S, S).pipeInput('k', 'a', 0)
      driver.createInputTopic('right', S, S).pipeInput('k', 'b', 1)
      expect(driver.createOutputTopic('out', S, S).readValuesToList()).to.deep.equal(['a+b'])
    } finally {
      driver.close()
    }
    expect(operator.asked.map(a => a.split(':')[0]).sort()).to.deep.equal(['kv', 'window', 'window'])
    expect(configured.asked).to.deep.equal([])
  })

  it('StreamJoined.with still takes the three serdes', () => {
    const joined = StreamJoined.with(S, S, S)
    expect([joined.keySerde, joined.valueSerde, joined.otherValueSerde]).to.deep.equal([S, S, S])
    expect(joined.dslStoreSuppliers).to.equal(undefined)
    const operator = spy()
    const withBackend = StreamJoined.with(operator.suppliers)
    expect(withBackend.dslStoreSuppliers).to.equal(operator.suppliers)
    expect(withBackend.keySerde).to.equal(undefined)
    expectIllegal(() => StreamJoined.with(S, S, S).withDslStoreSuppliers({} as DslStoreSuppliers), 'DslStoreSuppliers')
  })
})
