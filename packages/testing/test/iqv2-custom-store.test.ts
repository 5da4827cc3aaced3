/**
 * IQv2 through StateStore.query (KIP-796) on the TopologyTestDriver: a store written from scratch
 * answers its own query types, a custom backend below kstreams' layers answers one handed down
 * through them, and the built-in stores answer through the same path (ports of Kafka's
 * IQv2StoreIntegrationTest expectations: UNKNOWN_QUERY_TYPE with the store named, execution info
 * only when asked, also under failure).
 */
import { expect } from 'chai'
import {
  KeyQuery,
  Position,
  PositionBound,
  type PositionBound as Bound,
  type ProcessorContext,
  QUERY_RESULT,
  type Query,
  type QueryConfig,
  QueryResult,
  type Record,
  Serdes,
  StateQueryRequest,
  Topology
} from '@kstreams/core'
import { InMemoryKeyValueStore, Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/index.js'
import { FrequentWordsQuery, WordCountQuery, type WordCountStore, wordCountStoreBuilder } from './helpers/word-count-store.js'

const S = Serdes.String()
const L = Serdes.Long()

/** The number of entries of a bytes store (answered only by EntryCountingStore). */
class EntryCountQuery implements Query<number> {
  declare readonly [QUERY_RESULT]?: number
}

/** An in-memory backend that also answers EntryCountQuery; it tracks no position, so it answers only unbounded queries. */
class EntryCountingStore extends InMemoryKeyValueStore {
  query<R>(query: Query<R>, positionBound: Bound, config: QueryConfig): QueryResult<R> {
    if (!(query instanceof EntryCountQuery)) return QueryResult.forUnknownQueryType(query, this)
    const result: QueryResult<unknown> = positionBound.isUnbounded()
      ? QueryResult.forResult(this.approximateNumEntries())
      : QueryResult.forFailure('NOT_UP_TO_BOUND', `${this.name} tracks no position, so it answers only unbounded queries`)
    if (config.isCollectExecutionInfo()) result.addExecutionInfo('EntryCountingStore counted')
    return result as QueryResult<R>
  }
}

/** Words (values of "input") counted in the custom store "words" and, per key, in the built-in store "counts" over EntryCountingStore. */
function topology(): Topology {
  const counts = Stores.keyValueStoreBuilder(
    { name: 'counts', metricsScope: 'entry-counting', get: () => new EntryCountingStore('counts') },
    S,
    L
  ).withCachingEnabled()
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let words: WordCountStore
        let perKey: import('@kstreams/core').KeyValueStore<string, number>
        return {
          init(context: ProcessorContext<never, never>) {
            words = context.getStateStore<WordCountStore>('words')
            perKey = context.getStateStore('counts')
          },
          process(r: Record<string, string>) {
            for (const word of r.value.split(' ')) words.add(word)
            perKey.put(r.key, (perKey.get(r.key) ?? 0) + 1)
          }
        }
      },
      'source'
    )
    .addStateStore(wordCountStoreBuilder('words'), 'count')
    .addStateStore(counts, 'count')
}

function withDriver(run: (driver: TopologyTestDriver) => void): void {
  const driver = new TopologyTestDriver(topology())
  try {
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('k1', 'a b a')
    input.pipeInput('k2', 'c a')
    input.pipeInput('k1', 'b')
    run(driver)
  } finally {
    driver.close()
  }
}

const ask = <R>(store: string, query: Query<R>) => StateQueryRequest.inStore(store).withQuery(query)
const only = <R>(driver: TopologyTestDriver, request: StateQueryRequest<R>): QueryResult<R> => {
  const result = driver.query(request)
  expect([...result.partitionResults.keys()]).to.deep.equal([0])
  return result.partitionResults.get(0)!
}
const UNKNOWN_MESSAGE =
  /^This store \(.*\) doesn't know how to execute the given query \(.*\)\. Contact the store maintainer if you need support for a new query type\.$/

describe('IQv2 on custom stores (StateStore.query) through the TopologyTestDriver', () => {
  it('a store written from scratch answers its own query types, with its position', () => {
    withDriver(driver => {
      expect(only(driver, ask('words', new WordCountQuery('a'))).getResult()).to.equal(3)
      expect(only(driver, ask('words', new WordCountQuery('zz'))).getResult()).to.equal(undefined)
      expect(only(driver, ask('words', new FrequentWordsQuery(2))).getResult()).to.deep.equal(['a', 'b'])
      const answer = only(driver, ask('words', new WordCountQuery('c')))
      expect(answer.getPosition().getPartitionPositions('input').get(0)).to.equal(2)
      expect(
        driver
          .query(ask('words', new WordCountQuery('c')))
          .getPosition()
          .equals(answer.getPosition())
      ).to.equal(true)
      expect(driver.getStateStore<WordCountStore>('words')!.getPosition().getPartitionPositions('input').get(0)).to.equal(2)
    })
  })

  it('unknown query types answer UNKNOWN_QUERY_TYPE naming the store, with no execution info unless asked (Kafka shouldRejectUnknownQuery)', () => {
    withDriver(driver => {
      for (const [store, query] of [
        ['words', KeyQuery.withKey<string, number>('a')],
        ['counts', new WordCountQuery('a')]
      ] as const) {
        const failed = only(driver, ask(store, query as Query<unknown>))
        expect(failed.isFailure(), store).to.equal(true)
        expect(failed.isSuccess()).to.equal(false)
        expect(failed.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
        expect(failed.getFailureMessage()).to.match(UNKNOWN_MESSAGE)
        expect(failed.getFailureMessage()).to.contain(store)
        expect(() => failed.getResult())
          .to.throw()
          .with.property('code', 'ILLEGAL_ARGUMENT')
        expect(failed.getExecutionInfo()).to.deep.equal([])
      }
      const store = driver.getStateStore('words')!
      expect(String(QueryResult.forUnknownQueryType(new EntryCountQuery(), store).getFailureMessage())).to.contain(
        'the given query (EntryCountQuery)'
      )
    })
  })

  it('a custom backend answers a query handed down through the metered, caching and change-logging layers; each layer notes it when asked', () => {
    withDriver(driver => {
      const plain = only(driver, ask('counts', new EntryCountQuery()))
      expect(plain.getResult()).to.equal(2)
      expect(plain.getExecutionInfo()).to.deep.equal([])
      // The metered layer reports its own position for a backend that tracks none.
      expect(plain.getPosition().getPartitionPositions('input').get(0)).to.equal(2)
      const info = only(driver, ask('counts', new EntryCountQuery()).enableExecutionInfo()).getExecutionInfo()
      expect(info[0]).to.equal('EntryCountingStore counted')
      expect(info.slice(1).map(line => line.replace(/ in \d+ns$/, ''))).to.deep.equal([
        'Handled in ChangeLoggingKeyValueBytesStore via WrappedStateStore',
        'Handled in CachingKeyValueStore via WrappedStateStore',
        'Handled in MeteredKeyValueStore of store counts'
      ])
      const bounded = only(
        driver,
        ask('counts', new EntryCountQuery()).withPositionBound(PositionBound.at(Position.emptyPosition().withComponent('input', 0, 0)))
      )
      expect(bounded.getFailureReason()).to.equal('NOT_UP_TO_BOUND')
    })
  })

  it('built-in queries answer through the same path; NOT_UP_TO_BOUND keeps its execution info (Kafka shouldCollectExecutionInfoUnderFailure)', () => {
    withDriver(driver => {
      const answer = only(driver, ask('counts', KeyQuery.withKey<string, number>('k1')).enableExecutionInfo())
      expect(answer.getResult()).to.equal(2)
      expect(answer.getExecutionInfo()).to.have.length(1)
      expect(answer.getExecutionInfo()[0]).to.match(/^Handled in MeteredKeyValueStore of store counts in \d+ns$/)
      const ahead = PositionBound.at(Position.emptyPosition().withComponent('input', 0, 10))
      for (const store of ['counts', 'words']) {
        const query: Query<unknown> = store === 'counts' ? KeyQuery.withKey<string, number>('k1') : new WordCountQuery('a')
        const behind = only(driver, ask(store, query).withPositionBound(ahead).enableExecutionInfo())
        expect(behind.getFailureReason(), store).to.equal('NOT_UP_TO_BOUND')
        expect(behind.getFailureMessage()).to.contain('is not yet up to the bound')
        expect(behind.getExecutionInfo()).to.have.length(1)
        // requireActive() does not pass the bound on: a running active task is as current as any (Kafka's KafkaStreams#query).
        expect(only(driver, ask(store, query).withPositionBound(ahead).requireActive()).isSuccess(), store).to.equal(true)
      }
    })
  })

  it('a store without query() answers UNKNOWN_QUERY_TYPE; a global store one global UNKNOWN_QUERY_TYPE; unknown store names throw', () => {
    const bare = {
      name: 'bare',
      persistent: false,
      open: false,
      init(context: import('@kstreams/core').StateStoreContext, root: import('@kstreams/core').StateStore) {
        context.register(root, () => {})
        this.open = true
      },
      flush() {},
      close() {
        this.open = false
      },
      isOpen() {
        return this.open
      }
    }
    const t = new Topology()
      .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('p', () => ({ process() {} }), 'source')
      .addStateStore({ name: 'bare', build: () => bare, loggingEnabled: false, logConfig: {} }, 'p')
      .addGlobalStore(
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('global'), S, S).withLoggingDisabled(),
        'global-source',
        { keyDeserializer: S, valueDeserializer: S },
        'global-topic',
        'global-processor',
        () => ({ process() {} })
      )
    const driver = new TopologyTestDriver(t)
    try {
      const failed = only(driver, ask('bare', new WordCountQuery('a')))
      expect(failed.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      expect(failed.getFailureMessage()).to.match(UNKNOWN_MESSAGE)
      const global = driver.query(ask('global', KeyQuery.withKey<string, string>('a')))
      expect(global.partitionResults.size).to.equal(0)
      expect(global.globalResult!.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      expect(() => driver.query(ask('nope', KeyQuery.withKey('a'))))
        .to.throw()
        .with.property('code', 'UNKNOWN_STATE_STORE')
      const absent = driver.query(ask('bare', new WordCountQuery('a')).withPartitions([0, 1]))
      expect(absent.partitionResults.get(1)!.getFailureReason()).to.equal('DOES_NOT_EXIST')
    } finally {
      driver.close()
    }
    expect(() => driver.query(ask('bare', new WordCountQuery('a'))))
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
  })
})
