/**
 * A stream-table join with a grace period (KIP-923) on a real broker across a restart: a port of
 * Kafka's JoinGracePeriodDurabilityIntegrationTest. Stream records wait in the join's buffer
 * until stream time passes them by the grace period; records that late already join at once; the
 * record still buffered when the first instance stops is restored from the buffer's changelog by a
 * second instance on an empty state directory and joins once stream time moves on, exactly once.
 * Topics have two partitions as a trap (everything is produced to partition 0), as in Kafka's test.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, type StreamsConfig } from '@kstreams/core'
import { Consumed, Joined, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBStores } from '@kstreams/rocksdb'
import { bootstrapServers, createTopics, kafka, readUntil, tempDir, testClient, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const COMMIT_INTERVAL = 100

async function produceToPartitionZero(topic: string, records: Array<[string, string, number]>): Promise<void> {
  const producer = kafka().producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    for (const [key, value, timestamp] of records) {
      await producer.send({ topic, messages: [{ key, value, partition: 0, timestamp: String(timestamp) }] })
    }
  } finally {
    await producer.disconnect()
  }
}

describe('stream-table join with a grace period across a restart on a real broker (JoinGracePeriodDurabilityIntegrationTest)', function () {
  this.timeout(180000)

  it('shouldRecoverBufferAfterShutdown: the buffered record survives the restart and joins exactly once', async () => {
    const prefix = unique('joingrace')
    const [streamInput, tableInput, output] = [`${prefix}-stream`, `${prefix}-table`, `${prefix}-out`]
    await createTopics([streamInput, tableInput, output].map(topic => ({ topic, numPartitions: 2 })))
    const build = () => {
      const builder = new StreamsBuilder()
      const table = builder.table(
        tableInput,
        Consumed.with(S, S),
        Materialized.as<string, string>(RocksDBStores.persistentVersionedKeyValueStore('grace', 1000))
      )
      builder
        .stream(streamInput, Consumed.with(S, S))
        .join(table, (v, t) => `${v}+${t}`, Joined.with(S, S, S, 'Grace', 5))
        .to(output, Produced.with(S, S))
      return builder.build()
    }
    const config = (stateDir: string): StreamsConfig => ({
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir,
      commitIntervalMs: COMMIT_INTERVAL,
      defaultKeySerde: S,
      defaultValueSerde: S
    })
    const now = Date.now()
    /** Kafka's scaledTime: commits happen between the test's events. */
    const scaled = (t: number): number => now + COMMIT_INTERVAL * 2 * t
    // The output has two partitions: records of different keys come in no set order, so they are compared sorted.
    const readOutput = async (n: number, timeoutMs = 60000): Promise<string[]> =>
      (
        await readUntil(
          output,
          (k, v) => `${k!.toString()}:${v!.toString()}`,
          r => r.length >= n,
          timeoutMs
        )
      ).sort()
    const dirs = await Promise.all([0, 1].map(async () => await tempDir('kstreams-join-grace')))
    const first = new KafkaStreams(build(), config(dirs[0]!.path), { client: testClient() })
    let second: KafkaStreams | undefined
    try {
      await first.start()
      await waitFor('first RUNNING', () => first.state() === 'RUNNING', 60000)
      await produceToPartitionZero(
        tableInput,
        [1, 2, 3, 4, 5, 6].map(i => [`k${i}`, `v${i}`, scaled(0)])
      )
      await produceToPartitionZero(streamInput, [
        ['k1', 'v1', scaled(1)],
        ['k2', 'v2', scaled(2)],
        ['k3', 'v3', scaled(7)]
      ])
      expect(await readOutput(2)).to.deep.equal(['k1:v1+v1', 'k2:v2+v2'])
      // Older than stream time minus the grace period: joined at once.
      await produceToPartitionZero(streamInput, [
        ['k4', 'v4', scaled(4)],
        ['k5', 'v5', scaled(5)]
      ])
      expect(await readOutput(4)).to.deep.equal(['k1:v1+v1', 'k2:v2+v2', 'k4:v4+v4', 'k5:v5+v5'])
      await first.close({ leaveGroup: true })

      second = new KafkaStreams(build(), config(dirs[1]!.path), { client: testClient() })
      await second.start()
      await waitFor('second RUNNING', () => second!.state() === 'RUNNING', 60000)
      // Moves stream time on: the restored k3 leaves the buffer; k6 waits in it.
      await produceToPartitionZero(streamInput, [['k6', 'v6', scaled(20)]])
      expect(await readOutput(5)).to.deep.equal(['k1:v1+v1', 'k2:v2+v2', 'k3:v3+v3', 'k4:v4+v4', 'k5:v5+v5'])
      // Nothing else arrives: no record joined twice, k6 still buffered. (The window is long enough
      // for the reader to join its group on a loaded machine; a sixth record ends it early.)
      expect(await readOutput(6, 10000)).to.have.length.at.most(5)
    } finally {
      await first.close()
      await second?.close()
      for (const d of dirs) await d.remove()
    }
  })
})
