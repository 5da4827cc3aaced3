/**
 * A sink with a TopicNameExtractor and a StreamPartitioner against the real broker: the topics
 * it extracts are not sink topics of the topology, so their partition counts are not known when
 * the first record goes to them; the record collector looks them up through the admin port
 * before sending, and the partitioner chooses with each topic's real count (as Kafka's
 * RecordCollectorImpl asks the producer's partitionsFor).
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import { bootstrapServers, createTopics, produce, tempDir, testClient, unique, waitFor, withAdmin } from './helpers.js'

const S = Serdes.String()

/** The records per partition of `topic` (its end offsets: nothing is deleted in these topics). */
async function perPartition(topic: string): Promise<number[]> {
  const offsets = await withAdmin(admin => admin.fetchTopicOffsets(topic))
  return offsets.sort((a, b) => a.partition - b.partition).map(o => Number(o.high))
}

describe('A topic-name extractor with a partitioner on topics first seen while sending (real broker)', function () {
  this.timeout(120000)

  it('each record goes to the partition the partitioner chose with the extracted topic’s real partition count', async () => {
    const prefix = unique('extractor-partitioner')
    const input = `${prefix}-in`
    const small = `${prefix}-out-small`
    const large = `${prefix}-out-large`
    await createTopics([
      { topic: input, numPartitions: 1 },
      { topic: small, numPartitions: 2 },
      { topic: large, numPartitions: 5 }
    ])
    const counts: Array<[string, number]> = []
    const topology = new Topology().addSource('In', input, { keyDeserializer: S, valueDeserializer: S }).addSink<string, string>(
      'Out',
      (_key, value) => `${prefix}-out-${value}`,
      {
        keySerializer: S,
        valueSerializer: S,
        // The last partition for "last" keys, every partition for "all" keys.
        partitioner: (topic, key, _value, numPartitions) => {
          counts.push([topic, numPartitions])
          return key.startsWith('all') ? Array.from({ length: numPartitions }, (_, i) => i) : numPartitions - 1
        }
      },
      'In'
    )
    const dir = await tempDir('kstreams-extractor-partitioner')
    const streams = new KafkaStreams(
      topology,
      { applicationId: `${prefix}-app`, bootstrapServers: bootstrapServers(), stateDir: dir.path, commitIntervalMs: 200 },
      { client: testClient() }
    )
    const errors: Error[] = []
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    try {
      await streams.start()
      await produce(input, [
        { key: 'last-1', value: 'small' },
        { key: 'last-2', value: 'large' },
        { key: 'all-1', value: 'large' },
        { key: 'last-3', value: 'small' },
        { key: 'all-2', value: 'small' }
      ])
      const expectedSmall = [1, 3]
      const expectedLarge = [1, 1, 1, 1, 2]
      // The topics are new: the test's own offset lookups may meet a leader not elected yet (tried again).
      const outputsMatch = async (): Promise<boolean> =>
        JSON.stringify(await perPartition(small)) === JSON.stringify(expectedSmall) &&
        JSON.stringify(await perPartition(large)) === JSON.stringify(expectedLarge)
      await waitFor('the outputs', async () => errors.length > 0 || (await outputsMatch().catch(() => false)), 60000)
      expect(errors).to.deep.equal([])
      expect(await perPartition(small)).to.deep.equal(expectedSmall)
      expect(await perPartition(large)).to.deep.equal(expectedLarge)
      expect(new Set(counts.map(([topic, n]) => `${topic}:${n}`))).to.deep.equal(new Set([`${small}:2`, `${large}:5`]))
    } finally {
      await streams.close()
      await dir.remove()
    }
  })
})
