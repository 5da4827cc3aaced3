/**
 * IQv2 on versioned stores (KIP-960 VersionedKeyQuery, KIP-968 MultiVersionedKeyQuery) through the
 * TopologyTestDriver, on the RocksDB and the in-memory versioned store behind table(): a port of
 * Kafka's IQv2VersionedStoreIntegrationTest (its inputs, queries and expected records, the
 * iterator's snapshot while the store changes included), plus what Kafka Streams does with the
 * other queries on a versioned store and with a store behind the position bound.
 */
import { expect } from 'chai'
import {
  KeyQuery,
  MultiVersionedKeyQuery,
  Position,
  PositionBound,
  type Query,
  type QueryResult,
  RangeQuery,
  type ResultOrder,
  Serdes,
  StateQueryRequest,
  type StreamsError,
  TimestampedKeyQuery,
  type VersionedBytesStoreSupplier,
  VersionedKeyQuery,
  type VersionedRecord,
  type VersionedRecordIterator
} from '@kstreams/core'
import { Consumed, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { Stores } from '@kstreams/stores'
import { type TestInputTopic, TopologyTestDriver } from '@kstreams/testing'
import { RocksDBStores } from '../src/rocksdb-stores.js'

const I = Serdes.Integer()
const INPUT = 'input-topic'
const STORE = 'versioned-store'
const HISTORY_RETENTION = 24 * 3_600_000
const SEGMENT_INTERVAL = 3_600_000
const RECORD_KEY = 2
const NON_EXISTING_KEY = 3
/** Kafka's test uses the seconds of 2023-01-01T10:00:00Z as a millisecond timestamp. */
const BASE = Date.parse('2023-01-01T10:00:00Z') / 1000
const VALUES = [2, 20, 200, 2000]
const TIMESTAMPS = [BASE, BASE + 10, BASE + 20, BASE + 30]
const LAST = VALUES.length - 1

const backends: Array<[string, () => VersionedBytesStoreSupplier]> = [
  ['RocksDB', () => RocksDBStores.persistentVersionedKeyValueStore(STORE, HISTORY_RETENTION, SEGMENT_INTERVAL)],
  ['in-memory', () => Stores.inMemoryVersionedKeyValueStore(STORE, HISTORY_RETENTION, SEGMENT_INTERVAL)]
]

/** [value, timestamp, validTo] of a record, for comparisons. */
const triple = (r: VersionedRecord<number>): [number, number, number | undefined] => [r.value, r.timestamp, r.validTo]

/** What records i..j of the inputs are, each valid to the next one's timestamp (the last one open). */
function expected(indexes: number[]): Array<[number, number, number | undefined]> {
  return indexes.map(i => [VALUES[i]!, TIMESTAMPS[i]!, i < LAST ? TIMESTAMPS[i + 1] : undefined])
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k)

for (const [backend, supplier] of backends) {
  describe(`IQv2 on a versioned store (${backend}): port of Kafka's IQv2VersionedStoreIntegrationTest`, () => {
    let driver: TopologyTestDriver
    let input: TestInputTopic<number, number>
    const inputPosition = Position.emptyPosition()

    beforeEach(async () => {
      const builder = new StreamsBuilder()
      builder.table(INPUT, Consumed.with(I, I), Materialized.as<number, number>(supplier()))
      driver = await TopologyTestDriver.create(builder.build())
      input = driver.createInputTopic(INPUT, I, I)
      for (let i = 0; i < VALUES.length; i++) input.pipeInput(RECORD_KEY, VALUES[i]!, TIMESTAMPS[i]!)
      inputPosition.withComponent(INPUT, 0, 3)
    })
    afterEach(() => {
      driver.close()
    })

    const request = <R>(query: Query<R>): StateQueryRequest<R> =>
      StateQueryRequest.inStore(STORE).withQuery(query).withPositionBound(PositionBound.at(inputPosition))

    const keyQuery = (key: number, asOf?: number): QueryResult<VersionedRecord<number> | null> | undefined => {
      let query = VersionedKeyQuery.withKey<number, number>(key)
      if (asOf !== undefined) query = query.asOf(asOf)
      return driver.query(request<VersionedRecord<number> | null>(query)).onlyPartitionResult()
    }

    const multiQuery = (key: number, from: number | undefined, to: number | undefined, order: ResultOrder) => {
      let query = MultiVersionedKeyQuery.withKey<number, number>(key)
      if (from !== undefined) query = query.fromTime(from)
      if (to !== undefined) query = query.toTime(to)
      if (order === 'ASCENDING') query = query.withAscendingTimestamps()
      const results = driver.query(request<VersionedRecordIterator<number>>(query)).partitionResults
      expect([...results.keys()]).to.deep.equal([0])
      return results.get(0)!
    }

    const drain = (iterator: VersionedRecordIterator<number>): Array<[number, number, number | undefined]> => {
      try {
        return [...iterator].map(triple)
      } finally {
        iterator.close()
      }
    }

    it('VersionedKeyQuery: the latest version, the version as of a time, null before the first version and for an unknown key', () => {
      for (const asOf of [undefined, Date.now(), TIMESTAMPS[3]]) {
        const result = keyQuery(RECORD_KEY, asOf)!
        expect(result.isSuccess()).to.equal(true)
        expect(triple(result.getResult()!)).to.deep.equal([VALUES[3], TIMESTAMPS[3], undefined])
        expect(result.getExecutionInfo()).to.deep.equal([])
      }
      expect(triple(keyQuery(RECORD_KEY, TIMESTAMPS[0])!.getResult()!)).to.deep.equal([VALUES[0], TIMESTAMPS[0], TIMESTAMPS[1]])
      // Kafka's getOnlyPartitionResult() is null when no partition has a record.
      expect(keyQuery(RECORD_KEY, TIMESTAMPS[0]! - 50)).to.equal(undefined)
      expect(keyQuery(NON_EXISTING_KEY, Date.now())).to.equal(undefined)
      // The query also takes a Date.
      const byDate = VersionedKeyQuery.withKey<number, number>(RECORD_KEY).asOf(new Date(TIMESTAMPS[1]!))
      expect(triple(driver.query(request<VersionedRecord<number> | null>(byDate)).onlyPartitionResult()!.getResult()!)).to.deep.equal([
        VALUES[1],
        TIMESTAMPS[1],
        TIMESTAMPS[2]
      ])
    })

    it('MultiVersionedKeyQuery: every version (newest first, or ascending), a time range, nothing out of range or for an unknown key', () => {
      for (const order of ['ANY', 'ASCENDING'] as const) {
        const result = multiQuery(RECORD_KEY, undefined, undefined, order)
        expect(result.getExecutionInfo()).to.deep.equal([])
        expect(result.isSuccess()).to.equal(true)
        expect(() => result.getFailureReason())
          .to.throw()
          .with.property('code', 'ILLEGAL_ARGUMENT')
        expect(() => result.getFailureMessage())
          .to.throw()
          .with.property('code', 'ILLEGAL_ARGUMENT')
        const all = range(0, LAST)
        expect(drain(result.getResult())).to.deep.equal(expected(order === 'ASCENDING' ? all : all.reverse()))
      }
      // From TIMESTAMPS[1] + 5: the version written at TIMESTAMPS[1] is still valid then, so it counts.
      expect(drain(multiQuery(RECORD_KEY, TIMESTAMPS[1]! + 5, Date.now(), 'ANY').getResult())).to.deep.equal(
        expected(range(1, LAST).reverse())
      )
      for (const order of ['ANY', 'ASCENDING'] as const) {
        expect(drain(multiQuery(RECORD_KEY, TIMESTAMPS[0]! - 100, TIMESTAMPS[0]! - 50, order).getResult())).to.deep.equal([])
        expect(drain(multiQuery(NON_EXISTING_KEY, undefined, undefined, order).getResult())).to.deep.equal([])
      }
    })

    it('an open iterator keeps the versions it was answered with while the store changes (snapshot semantics)', () => {
      const iterator = multiQuery(RECORD_KEY, undefined, undefined, 'ANY').getResult()
      const seen: Array<[number, number, number | undefined]> = []
      for (let step = iterator.next(); step.done !== true; step = iterator.next()) {
        seen.push(triple(step.value))
        if (seen.length === 2) break
      }
      // A new value for the oldest version's timestamp, processed while the iterator is open.
      input.pipeInput(RECORD_KEY, 999999, TIMESTAMPS[0]!)
      inputPosition.withComponent(INPUT, 0, 4)
      expect(inputPosition.equals(Position.emptyPosition().withComponent(INPUT, 0, 4))).to.equal(true)
      for (let step = iterator.next(); step.done !== true; step = iterator.next()) seen.push(triple(step.value))
      iterator.close()
      expect(seen).to.deep.equal(expected([3, 2, 1, 0]))
      // A new query sees the new value.
      expect(triple(keyQuery(RECORD_KEY, TIMESTAMPS[0])!.getResult()!)).to.deep.equal([999999, TIMESTAMPS[0], TIMESTAMPS[1]])
    })

    it('KeyQuery and RangeQuery throw (Kafka: UnsupportedOperationException), fromTime after toTime throws, other queries are UNKNOWN_QUERY_TYPE', () => {
      for (const query of [KeyQuery.withKey(RECORD_KEY), RangeQuery.withNoBounds()]) {
        let error: StreamsError | undefined
        try {
          driver.query(StateQueryRequest.inStore(STORE).withQuery(query))
        } catch (err) {
          error = err as StreamsError
        }
        expect(error?.code).to.equal('ILLEGAL_STATE')
        expect(error?.message).to.contain(`Versioned stores do not support ${query.constructor.name} queries at this time`)
      }
      const backwards = MultiVersionedKeyQuery.withKey<number, number>(RECORD_KEY).fromTime(TIMESTAMPS[2]).toTime(TIMESTAMPS[1])
      expect(() => driver.query(StateQueryRequest.inStore(STORE).withQuery(backwards)))
        .to.throw('The `fromTime` timestamp must be smaller than the `toTime` timestamp')
        .with.property('code', 'ILLEGAL_ARGUMENT')
      const timestamped = driver
        .query(StateQueryRequest.inStore(STORE).withQuery(TimestampedKeyQuery.withKey(RECORD_KEY)))
        .partitionResults.get(0)!
      expect(timestamped.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      expect(() => VersionedKeyQuery.withKey(null))
        .to.throw('key cannot be null')
        .with.property('code', 'ILLEGAL_ARGUMENT')
      expect(() => MultiVersionedKeyQuery.withKey(undefined))
        .to.throw('key cannot be null')
        .with.property('code', 'ILLEGAL_ARGUMENT')
    })

    it('a store behind the position bound answers NOT_UP_TO_BOUND; execution info names the metered layer when asked', () => {
      const ahead = PositionBound.at(Position.emptyPosition().withComponent(INPUT, 0, 4))
      const behind = driver
        .query(StateQueryRequest.inStore(STORE).withQuery(VersionedKeyQuery.withKey<number, number>(RECORD_KEY)).withPositionBound(ahead))
        .partitionResults.get(0)!
      expect(behind.getFailureReason()).to.equal('NOT_UP_TO_BOUND')
      const info = driver
        .query(StateQueryRequest.inStore(STORE).withQuery(VersionedKeyQuery.withKey<number, number>(RECORD_KEY)).enableExecutionInfo())
        .partitionResults.get(0)!
      expect(info.getExecutionInfo().at(-1)).to.match(/^Handled in MeteredVersionedKeyValueStore of store versioned-store in \d+ns$/)
    })
  })
}

describe('IQv2 versioned queries on a store that is not versioned', () => {
  it('a timestamped key-value store answers VersionedKeyQuery and MultiVersionedKeyQuery with UNKNOWN_QUERY_TYPE', () => {
    const builder = new StreamsBuilder()
    builder.table(INPUT, Consumed.with(I, I), Materialized.as<number, number>('plain'))
    const driver = new TopologyTestDriver(builder.build())
    try {
      driver.createInputTopic(INPUT, I, I).pipeInput(RECORD_KEY, 1, 10)
      const queries: Array<Query<unknown>> = [VersionedKeyQuery.withKey(RECORD_KEY), MultiVersionedKeyQuery.withKey(RECORD_KEY)]
      for (const query of queries) {
        const result = driver.query(StateQueryRequest.inStore('plain').withQuery(query)).partitionResults.get(0)!
        expect(result.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      }
    } finally {
      driver.close()
    }
  })
})
