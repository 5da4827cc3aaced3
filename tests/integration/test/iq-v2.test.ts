import { expect } from 'chai'
import {
  KafkaStreams,
  KeyQuery,
  Position,
  PositionBound,
  RangeQuery,
  Serdes,
  StateQueryRequest,
  TimestampedKeyQuery,
  WindowKeyQuery,
  type KeyValue,
  type ValueAndTimestamp
} from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder, TimeWindows } from '@kstreams/dsl'
import { bootstrapServers, createTopics, kafka, tempDir, unique, waitFor, testClient } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

/** One input topic (4 partitions): a count per key and a 10 s windowed count per key. */
function build(input: string) {
  const builder = new StreamsBuilder()
  const grouped = builder.stream<string, string>(input, Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
  grouped.count(Materialized.as<string, number>('counts').withKeySerde(S).withValueSerde(L))
  grouped
    .windowedBy(TimeWindows.ofSizeAndGrace(10_000, 3_600_000))
    .count(Materialized.as<string, number>('win-counts').withKeySerde(S).withValueSerde(L))
  return builder.build()
}

async function send(topic: string, records: Array<[string, number]>): Promise<void> {
  const producer = kafka().producer()
  await producer.connect()
  try {
    await producer.send({ topic, messages: records.map(([key, ts]) => ({ key, value: 'x', timestamp: String(ts) })) })
  } finally {
    await producer.disconnect()
  }
}

const pairs = <K, V>(it: Iterable<KeyValue<K, V>>): Array<[K, V]> => [...it].map(kv => [kv.key, kv.value])

describe('Interactive Queries v2: KafkaStreams.query() on DSL stores (real broker)', function () {
  this.timeout(120000)

  it('KeyQuery, RangeQuery on all partitions, WindowKeyQuery on a windowed count; UNKNOWN_QUERY_TYPE for the wrong store kind', async () => {
    const prefix = unique('iqv2')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 4 }])
    const dir = await tempDir('kstreams-iqv2')
    const streams = new KafkaStreams(
      build(input),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    try {
      expect(() => streams.query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a'))))
        .to.throw()
        .with.property('code', 'STREAMS_NOT_STARTED')
      expect(() => streams.query(StateQueryRequest.inStore('nope').withQuery(KeyQuery.withKey<string, number>('a'))))
        .to.throw()
        .with.property('code', 'UNKNOWN_STATE_STORE')
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await send(input, [
        ['a', 1000],
        ['a', 2000],
        ['b', 3000],
        ['a', 12000],
        ['c', 25000],
        ['d', 4000],
        ['d', 5000]
      ])
      const count = (key: string): number | null | undefined =>
        streams
          .query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>(key)))
          .onlyPartitionResult()
          ?.getResult()
      await waitFor('every key counted', () => count('a') === 3 && count('b') === 1 && count('c') === 1 && count('d') === 2, 60000)

      const keyResult = streams.query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a')))
      expect([...keyResult.partitionResults.keys()].sort()).to.deep.equal([0, 1, 2, 3])
      expect([...keyResult.partitionResults.values()].filter(r => r.getResult() === 3)).to.have.length(1)
      expect([...keyResult.partitionResults.values()].filter(r => r.getResult() === null)).to.have.length(3)

      const range = streams.query(
        StateQueryRequest.inStore('counts').withQuery(RangeQuery.withNoBounds<string, number>()).withAllPartitions().requireActive()
      )
      expect([...range.partitionResults.keys()].sort()).to.deep.equal([0, 1, 2, 3])
      const all = [...range.partitionResults.values()].flatMap(r => pairs(r.getResult()))
      expect(all.sort()).to.deep.equal([
        ['a', 3],
        ['b', 1],
        ['c', 1],
        ['d', 2]
      ])
      const bounded = streams.query(StateQueryRequest.inStore('counts').withQuery(RangeQuery.withRange<string, number>('b', 'c')))
      expect([...bounded.partitionResults.values()].flatMap(r => pairs(r.getResult())).sort()).to.deep.equal([
        ['b', 1],
        ['c', 1]
      ])

      const windows = streams.query(
        StateQueryRequest.inStore('win-counts').withQuery(
          WindowKeyQuery.withKeyAndWindowStartRange<string, ValueAndTimestamp<number>>('a', 0, 20_000)
        )
      )
      const found = [...windows.partitionResults.values()]
        .flatMap(r => pairs(r.getResult()))
        .map(([start, vt]) => [start, vt.value, vt.timestamp])
      expect(found).to.deep.equal([
        [0, 2, 2000],
        [10_000, 1, 12000]
      ])
      const narrow = streams.query(
        StateQueryRequest.inStore('win-counts').withQuery(
          WindowKeyQuery.withKeyAndWindowStartRange<string, ValueAndTimestamp<number>>('a', 5_000, 10_000)
        )
      )
      expect(
        [...narrow.partitionResults.values()].flatMap(r => pairs(r.getResult())).map(([start, vt]) => [start, vt.value])
      ).to.deep.equal([[10_000, 1]])

      const wrongKind = streams.query(
        StateQueryRequest.inStore('counts').withQuery(WindowKeyQuery.withKeyAndWindowStartRange<string, number>('a', 0, 20_000))
      )
      expect([...wrongKind.partitionResults.values()].map(r => r.getFailureReason())).to.deep.equal([
        'UNKNOWN_QUERY_TYPE',
        'UNKNOWN_QUERY_TYPE',
        'UNKNOWN_QUERY_TYPE',
        'UNKNOWN_QUERY_TYPE'
      ])
      const wrongKind2 = streams.query(
        StateQueryRequest.inStore('win-counts').withQuery(KeyQuery.withKey<string, number>('a')).withPartitions([0])
      )
      expect(wrongKind2.partitionResults.get(0)!.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
      const missing = streams.query(
        StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a')).withPartitions([7])
      )
      // Without applicationServer the partition count is not known here: NOT_PRESENT, as Kafka Streams always answers.
      expect(missing.partitionResults.get(7)!.getFailureReason()).to.equal('NOT_PRESENT')
    } finally {
      await streams.close()
      await dir.remove()
    }
    expect(() => streams.query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a'))))
      .to.throw()
      .with.property('code', 'NOT_RUNNING')
  })

  it('two instances: a partition of the other instance is NOT_PRESENT here and answers there', async () => {
    const prefix = unique('iqv2two')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 4 }])
    const dirs = [await tempDir('kstreams-iqv2'), await tempDir('kstreams-iqv2')]
    const instances = dirs.map(
      (d, i) =>
        new KafkaStreams(
          build(input),
          {
            applicationId: `${prefix}-app`,
            bootstrapServers: bootstrapServers(),
            stateDir: d.path,
            applicationServer: `127.0.0.1:${7000 + i}`,
            commitIntervalMs: 200,
            sessionTimeoutMs: 6000,
            heartbeatIntervalMs: 1000
          },
          { client: testClient() }
        )
    )
    try {
      for (const s of instances) await s.start()
      await waitFor(
        'both RUNNING with the same view',
        () => instances.every(s => s.state() === 'RUNNING' && s.metadataForAllStreamsClients().length === 2),
        90000
      )
      const keys = Array.from({ length: 20 }, (_, i) => `k${i}`)
      await send(
        input,
        keys.map((k, i) => [k, 1000 + i])
      )
      const query = StateQueryRequest.inStore('counts').withQuery(RangeQuery.withNoBounds<string, number>())
      const total = (): number =>
        instances.flatMap(s => [...s.query(query).partitionResults.values()].flatMap(r => pairs(r.getResult()))).length
      await waitFor('every key counted on one of the instances', () => total() === keys.length, 60000)

      const owned = instances.map(s => [...s.query(query).partitionResults.keys()].sort())
      expect([...owned[0]!, ...owned[1]!].sort()).to.deep.equal([0, 1, 2, 3])
      expect(owned[0]!.length, 'each instance owns some partitions').to.be.greaterThan(0)
      const theirs = owned[1]![0]!
      const here = instances[0]!.query(
        StateQueryRequest.inStore('counts').withQuery(RangeQuery.withNoBounds<string, number>()).withPartitions([owned[0]![0]!, theirs])
      )
      expect(here.partitionResults.get(theirs)!.getFailureReason()).to.equal('NOT_PRESENT')
      expect(here.partitionResults.get(owned[0]![0]!)!.isSuccess()).to.equal(true)
      const there = instances[1]!.query(
        StateQueryRequest.inStore('counts').withQuery(RangeQuery.withNoBounds<string, number>()).withPartitions([theirs]).requireActive()
      )
      expect(there.partitionResults.get(theirs)!.isSuccess()).to.equal(true)
      // The assignment tells this instance the store has 4 partitions: partition 7 does not exist at all.
      const beyond = instances[0]!.query(
        StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('k1')).withPartitions([7])
      )
      expect(beyond.partitionResults.get(7)!.getFailureReason()).to.equal('DOES_NOT_EXIST')
    } finally {
      for (const s of instances) await s.close()
      for (const d of dirs) await d.remove()
    }
  })

  it('position bounds (read your writes): NOT_UP_TO_BOUND until the store has processed the offsets the producer got; results report their position', async () => {
    const prefix = unique('iqv2pos')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 1 }])
    const dir = await tempDir('kstreams-iqv2')
    const streams = new KafkaStreams(
      build(input),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const producer = kafka().producer()
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await producer.connect()
      const [sent] = await producer.send({
        topic: input,
        messages: [
          { key: 'a', value: 'x', timestamp: '1000' },
          { key: 'a', value: 'x', timestamp: '2000' }
        ]
      })
      const last = Number(sent!.baseOffset) + 1
      const written = Position.emptyPosition().withComponent(input, 0, last)
      const query = (bound: PositionBound) =>
        streams
          .query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a')).withPositionBound(bound))
          .partitionResults.get(0)
      await waitFor('the store up to the written offset', () => query(PositionBound.at(written))?.isSuccess() === true, 60000)
      const answer = query(PositionBound.at(written))!
      expect(answer.getResult()).to.equal(2)
      expect(answer.getPosition().getPartitionPositions(input).get(0)).to.equal(last)

      const ahead = query(PositionBound.at(Position.emptyPosition().withComponent(input, 0, last + 1000)))!
      expect(ahead.getFailureReason()).to.equal('NOT_UP_TO_BOUND')
      expect(ahead.getFailureMessage()).to.contain('not yet up to the bound')
      // A bound on other partitions does not hold this partition back (a bounded topic of this partition would).
      expect(
        query(PositionBound.at(Position.emptyPosition().withComponent(input, 1, 99).withComponent('other', 1, 5)))!.isSuccess()
      ).to.equal(true)
      expect(query(PositionBound.at(Position.emptyPosition().withComponent('other', 0, 5)))!.getFailureReason()).to.equal('NOT_UP_TO_BOUND')
      expect(query(PositionBound.unbounded())!.isSuccess()).to.equal(true)
      const all = streams.query(StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a')))
      expect(all.getPosition().getPartitionPositions(input).get(0)).to.equal(last)
    } finally {
      await producer.disconnect()
      await streams.close()
      await dir.remove()
    }
  })

  it('skipCache() reads below the record cache: nothing until the cache is flushed by a commit', async () => {
    const prefix = unique('iqv2skip')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 1 }])
    const dir = await tempDir('kstreams-iqv2')
    // No commit (hence no cache flush) for a minute.
    const streams = new KafkaStreams(
      build(input),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 60000 },
      { client: testClient() }
    )
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await send(input, [
        ['a', 1000],
        ['a', 2000]
      ])
      const ask = <R>(query: KeyQuery<string, number> | TimestampedKeyQuery<string, number>) =>
        streams
          .query(StateQueryRequest.inStore('counts').withQuery(query as never))
          .partitionResults.get(0)
          ?.getResult() as R
      await waitFor('a counted twice (in the cache)', () => ask<number | null>(KeyQuery.withKey<string, number>('a')) === 2, 60000)
      expect(ask<number | null>(KeyQuery.withKey<string, number>('a').skipCache())).to.equal(null)
      expect(ask<ValueAndTimestamp<number> | null>(TimestampedKeyQuery.withKey<string, number>('a').skipCache())).to.equal(null)
      expect(ask<ValueAndTimestamp<number> | null>(TimestampedKeyQuery.withKey<string, number>('a'))).to.deep.include({
        value: 2,
        timestamp: 2000
      })
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
