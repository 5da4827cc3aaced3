/**
 * IQv2 on a custom store type (KIP-796's StateStore.query) against the real broker: a user's
 * backend below kstreams' store layers answers its own query type on each partition through
 * KafkaStreams.query(), while the built-in queries keep working on the same store and queries
 * nobody knows answer UNKNOWN_QUERY_TYPE (ports of Kafka's IQv2StoreIntegrationTest expectations).
 */
import { expect } from 'chai'
import {
  KafkaStreams,
  KeyQuery,
  type PositionBound,
  type ProcessorContext,
  QUERY_RESULT,
  type Query,
  type QueryConfig,
  QueryResult,
  type Record,
  Serdes,
  StateQueryRequest,
  Topology,
  type KeyValueStore
} from '@kstreams/core'
import { InMemoryKeyValueStore, Stores } from '@kstreams/stores'
import { bootstrapServers, createTopics, kafka, tempDir, testClient, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

/** The keys of a store partition that start with `prefix`, sorted (answered only by PrefixIndexStore). */
class KeysWithPrefixQuery implements Query<string[]> {
  declare readonly [QUERY_RESULT]?: string[]
  constructor(readonly prefix: string) {}
  toString(): string {
    return `KeysWithPrefixQuery{prefix=${this.prefix}}`
  }
}

/** A query no store knows. */
class UnknownQuery implements Query<undefined> {
  declare readonly [QUERY_RESULT]?: undefined
}

/** An in-memory bytes store that also answers KeysWithPrefixQuery (no position tracking: only unbounded queries). */
class PrefixIndexStore extends InMemoryKeyValueStore {
  query<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R> {
    if (!(query instanceof KeysWithPrefixQuery)) return QueryResult.forUnknownQueryType(query, this)
    if (!positionBound.isUnbounded())
      return QueryResult.forFailure('NOT_UP_TO_BOUND', `${this.name} tracks no position, so it answers only unbounded queries`)
    const keys: string[] = []
    const iterator = this.prefixScan(query.prefix, S.serializer())
    try {
      for (const { key } of iterator) keys.push(key.toString('utf8'))
    } finally {
      iterator.close()
    }
    const result = QueryResult.forResult(keys)
    if (config.isCollectExecutionInfo()) result.addExecutionInfo(`PrefixIndexStore scanned ${keys.length} key(s)`)
    return result as QueryResult<R>
  }
}

function topology(input: string): Topology {
  const counts = Stores.keyValueStoreBuilder(
    { name: 'counts', metricsScope: 'prefix-index', get: () => new PrefixIndexStore('counts') },
    S,
    L
  )
  return new Topology()
    .addSource('source', input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let store: KeyValueStore<string, number>
        return {
          init(context: ProcessorContext<never, never>) {
            store = context.getStateStore('counts')
          },
          process(r: Record<string, string>) {
            store.put(r.key, (store.get(r.key) ?? 0) + 1)
          }
        }
      },
      'source'
    )
    .addStateStore(counts, 'count')
}

describe('IQv2 on a custom store type: KafkaStreams.query() answers a custom query (real broker)', function () {
  this.timeout(120000)

  it('each partition answers the custom query from its own keys; KeyQuery still works; an unknown query is UNKNOWN_QUERY_TYPE everywhere', async () => {
    const prefix = unique('iqv2custom')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 2 }])
    const dir = await tempDir('kstreams-iqv2-custom')
    const streams = new KafkaStreams(
      topology(input),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const producer = kafka().producer()
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await producer.connect()
      const keys = ['user-1', 'user-2', 'user-3', 'admin-1', 'user-4', 'admin-2']
      await producer.send({ topic: input, messages: keys.map(key => ({ key, value: 'x', partition: key.startsWith('admin') ? 1 : 0 })) })
      await producer.send({ topic: input, messages: [{ key: 'user-1', value: 'x', partition: 0 }] })

      const custom = (p: string) => streams.query(StateQueryRequest.inStore('counts').withQuery(new KeysWithPrefixQuery(p)))
      await waitFor(
        'every key counted',
        () =>
          streams
            .query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('user-1')))
            .onlyPartitionResult()
            ?.getResult() === 2 && custom('').partitionResults.get(1)?.getResult().length === 2,
        60000
      )
      const users = custom('user-')
      expect([...users.partitionResults.keys()].sort()).to.deep.equal([0, 1])
      expect(users.partitionResults.get(0)!.getResult()).to.deep.equal(['user-1', 'user-2', 'user-3', 'user-4'])
      expect(users.partitionResults.get(1)!.getResult()).to.deep.equal([])
      expect(custom('admin-').partitionResults.get(1)!.getResult()).to.deep.equal(['admin-1', 'admin-2'])
      // The metered layer reports the position for a backend that tracks none.
      expect(users.partitionResults.get(0)!.getPosition().getPartitionPositions(input).get(0)).to.equal(4)

      const withInfo = streams
        .query(StateQueryRequest.inStore('counts').withQuery(new KeysWithPrefixQuery('admin-')).withPartitions([1]).enableExecutionInfo())
        .partitionResults.get(1)!
      expect(withInfo.getExecutionInfo()[0]).to.equal('PrefixIndexStore scanned 2 key(s)')
      expect(withInfo.getExecutionInfo().at(-1)).to.match(/^Handled in MeteredKeyValueStore of store counts in \d+ns$/)

      const unknown = streams.query(StateQueryRequest.inStore('counts').withQuery(new UnknownQuery()))
      expect([...unknown.partitionResults.keys()].sort()).to.deep.equal([0, 1])
      for (const result of unknown.partitionResults.values()) {
        expect(result.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
        expect(result.getFailureMessage()).to.match(
          /^This store \(PrefixIndexStore of store counts\) doesn't know how to execute the given query \(UnknownQuery\)\. Contact the store maintainer if you need support for a new query type\.$/
        )
        expect(result.getExecutionInfo()).to.deep.equal([])
      }
    } finally {
      await producer.disconnect()
      await streams.close()
      await dir.remove()
    }
  })
})
