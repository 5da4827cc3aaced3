/**
 * IQv2 on a versioned store against the real broker (Kafka's IQv2VersionedStoreIntegrationTest):
 * four versions of one key produced with explicit timestamps, a RocksDB versioned table behind
 * table(), and KafkaStreams.query() with the input's position as the bound answering
 * VersionedKeyQuery and MultiVersionedKeyQuery; an iterator opened before a new record for the
 * oldest timestamp is processed still yields the versions it was answered with.
 */
import { expect } from 'chai'
import {
  KafkaStreams,
  MultiVersionedKeyQuery,
  Position,
  PositionBound,
  type Query,
  Serdes,
  StateQueryRequest,
  type VersionedRecord,
  VersionedKeyQuery,
  type VersionedRecordIterator
} from '@kstreams/core'
import { Consumed, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBStores } from '@kstreams/rocksdb'
import { bootstrapServers, createTopics, kafka, tempDir, testClient, unique, waitFor } from './helpers.js'

const I = Serdes.Integer()
const STORE = 'versioned-store'
const KEY = 2
const BASE = Date.parse('2023-01-01T10:00:00Z') / 1000
const VALUES = [2, 20, 200, 2000]
const TIMESTAMPS = [BASE, BASE + 10, BASE + 20, BASE + 30]

const int = (n: number): Buffer => I.serializer().serialize('', n)!
const triple = (r: VersionedRecord<number>): [number, number, number | undefined] => [r.value, r.timestamp, r.validTo]

async function produce(topic: string, records: Array<[number, number]>): Promise<void> {
  const producer = kafka().producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    await producer.send({
      topic,
      messages: records.map(([value, timestamp]) => ({ key: int(KEY), value: int(value), partition: 0, timestamp: String(timestamp) }))
    })
  } finally {
    await producer.disconnect()
  }
}

describe('IQv2 on a versioned store: KafkaStreams.query() answers VersionedKeyQuery and MultiVersionedKeyQuery (real broker)', function () {
  this.timeout(180000)

  it('answers as of a time and over time ranges at the input position, and an open iterator keeps its snapshot', async () => {
    const prefix = unique('iqv2versioned')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 1 }])
    await produce(
      input,
      VALUES.map((v, i) => [v, TIMESTAMPS[i]!])
    )
    const builder = new StreamsBuilder()
    builder.table(
      input,
      Consumed.with(I, I),
      Materialized.as<number, number>(RocksDBStores.persistentVersionedKeyValueStore(STORE, 86_400_000, 3_600_000))
    )
    const dir = await tempDir('kstreams-iqv2-versioned')
    const streams = new KafkaStreams(
      builder.build(),
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const position = Position.emptyPosition().withComponent(input, 0, 3)
    const ask = <R>(query: Query<R>) =>
      streams.query(StateQueryRequest.inStore(STORE).withQuery(query).withPositionBound(PositionBound.at(position)))
    const drain = (it: VersionedRecordIterator<number>) => {
      try {
        return [...it].map(triple)
      } finally {
        it.close()
      }
    }
    try {
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      // Kafka's iqv2WaitForResult: retry until the partition is up to the bound.
      await waitFor(
        'the store up to the input position',
        () => ask(VersionedKeyQuery.withKey<number, number>(KEY)).partitionResults.get(0)?.isSuccess() === true,
        60000
      )
      const latest = ask(VersionedKeyQuery.withKey<number, number>(KEY)).onlyPartitionResult()!
      expect(triple(latest.getResult()!)).to.deep.equal([2000, TIMESTAMPS[3], undefined])
      expect(latest.getExecutionInfo()).to.deep.equal([])
      expect(latest.getPosition().getPartitionPositions(input).get(0)).to.equal(3)
      const old = ask(VersionedKeyQuery.withKey<number, number>(KEY).asOf(TIMESTAMPS[0]!)).onlyPartitionResult()!
      expect(triple(old.getResult()!)).to.deep.equal([2, TIMESTAMPS[0], TIMESTAMPS[1]])
      expect(ask(VersionedKeyQuery.withKey<number, number>(KEY).asOf(TIMESTAMPS[0]! - 50)).onlyPartitionResult()).to.equal(undefined)
      expect(ask(VersionedKeyQuery.withKey<number, number>(3).asOf(new Date())).onlyPartitionResult()).to.equal(undefined)

      const all = ask(MultiVersionedKeyQuery.withKey<number, number>(KEY).withAscendingTimestamps()).partitionResults.get(0)!
      expect(drain(all.getResult())).to.deep.equal([
        [2, TIMESTAMPS[0], TIMESTAMPS[1]],
        [20, TIMESTAMPS[1], TIMESTAMPS[2]],
        [200, TIMESTAMPS[2], TIMESTAMPS[3]],
        [2000, TIMESTAMPS[3], undefined]
      ])
      const ranged = ask(
        MultiVersionedKeyQuery.withKey<number, number>(KEY)
          .fromTime(TIMESTAMPS[1]! + 5)
          .toTime(new Date())
      )
      expect(drain(ranged.partitionResults.get(0)!.getResult()).map(t => t[0])).to.deep.equal([2000, 200, 20])
      const none = ask(
        MultiVersionedKeyQuery.withKey<number, number>(KEY)
          .fromTime(TIMESTAMPS[0]! - 100)
          .toTime(TIMESTAMPS[0]! - 50)
      )
      expect(drain(none.partitionResults.get(0)!.getResult())).to.deep.equal([])

      // Snapshot: read two versions, let the app process a new value for the oldest timestamp, read on.
      const iterator = ask(MultiVersionedKeyQuery.withKey<number, number>(KEY)).partitionResults.get(0)!.getResult()
      const seen = [iterator.next().value, iterator.next().value].map(r => triple(r!))
      await produce(input, [[999999, TIMESTAMPS[0]!]])
      position.withComponent(input, 0, 4)
      await waitFor(
        'the new value processed',
        () => ask(VersionedKeyQuery.withKey<number, number>(KEY).asOf(TIMESTAMPS[0]!)).onlyPartitionResult()?.getResult()?.value === 999999,
        60000
      )
      seen.push(...drain(iterator))
      expect(seen.map(t => t[0])).to.deep.equal([2000, 200, 20, 2])
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
