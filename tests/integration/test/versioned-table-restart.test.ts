/**
 * A versioned table (KIP-914) on a real broker across a restart: a RocksDB versioned store behind
 * table(), joined with a stream as of each stream record's timestamp. The first instance takes an
 * out-of-order table update into the history; a second instance on an empty state directory
 * restores the store from its changelog (records carrying the versions' timestamps) and joins
 * later stream records with the versions valid at their timestamps.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, type StreamsConfig } from '@kstreams/core'
import { Consumed, Joined, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBStores } from '@kstreams/rocksdb'
import { bootstrapServers, createTopics, kafka, readUntil, tempDir, testClient, unique, waitFor } from './helpers.js'

const S = Serdes.String()

async function send(topic: string, records: Array<[string, string, number]>): Promise<void> {
  const producer = kafka().producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    await producer.send({ topic, messages: records.map(([key, value, timestamp]) => ({ key, value, timestamp: String(timestamp) })) })
  } finally {
    await producer.disconnect()
  }
}

describe('versioned table across a restart on a real broker', function () {
  this.timeout(180000)

  it('a new instance restores the versions from the changelog and joins as of the stream timestamps', async () => {
    const prefix = unique('versioned')
    const [table, stream, out] = [`${prefix}-table`, `${prefix}-stream`, `${prefix}-out`]
    await createTopics([
      { topic: table, numPartitions: 1 },
      { topic: stream, numPartitions: 1 },
      { topic: out, numPartitions: 1 }
    ])
    const build = () => {
      const builder = new StreamsBuilder()
      const versions = builder.table(
        table,
        Consumed.with(S, S),
        Materialized.as<string, string>(RocksDBStores.persistentVersionedKeyValueStore('versions', 600_000))
      )
      builder
        .stream(stream, Consumed.with(S, S))
        .join(versions, (v, t) => `${v}+${t}`, Joined.with(S, S, S))
        .to(out, Produced.with(S, S))
      return builder.build()
    }
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: 200
    })
    const readJoined = async (n: number): Promise<string[]> =>
      await readUntil(
        out,
        (_k, v) => v!.toString(),
        r => r.length >= n,
        60000
      )
    const base = Date.now() - 120_000
    const dirs = await Promise.all([0, 1].map(async () => await tempDir('kstreams-versioned')))
    const first = new KafkaStreams(build(), config(dirs[0]!.path), { client: testClient() })
    let second: KafkaStreams | undefined
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await send(table, [
        ['k', 't1', base + 1000],
        ['k', 't2', base + 2000],
        ['k', 't15', base + 1500]
      ])
      // Once the stream record joins with the out-of-order version, all three are in the store.
      await send(stream, [['k', 's1', base + 1600]])
      expect(await readJoined(1)).to.deep.equal(['s1+t15'])
      await first.close({ leaveGroup: true })

      second = new KafkaStreams(build(), config(dirs[1]!.path), { client: testClient() })
      await second.start()
      await waitFor('second RUNNING', () => second!.state() === 'RUNNING', 60000)
      await send(stream, [
        ['k', 's2', base + 1200],
        ['k', 's3', base + 2500],
        ['k', 's4', base + 1700]
      ])
      expect(await readJoined(4)).to.deep.equal(['s1+t15', 's2+t1', 's3+t2', 's4+t15'])
    } finally {
      await first.close()
      await second?.close()
      for (const d of dirs) await d.remove()
    }
  })
})
