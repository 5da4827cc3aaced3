/**
 * A sink with a TopicNameExtractor and a StreamPartitioner on a running application over the
 * in-memory Kafka: the extracted topics' partition counts are not known when the first record
 * goes to them (only fixed sink topics are looked up at assignment), so the record collector looks
 * them up through the admin port before it sends, and the partitioner chooses with the topic's
 * real count (as Kafka's RecordCollectorImpl asks the producer's partitionsFor). Multicast, drop
 * and out-of-range answers behave as on a topic whose count was known.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { StreamPartitioner, StreamsError } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST } from './streams-harness.js'

const S = Serdes.String()

/** in -> the topic named by the value (`out-<value>`), partitions chosen by `partitioner`. */
function topology(partitioner: StreamPartitioner<string, string>): Topology {
  return new Topology()
    .addSource('In', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addSink<string, string>('Out', (_key, value) => `out-${value}`, { keySerializer: S, valueSerializer: S, partitioner }, 'In')
}

describe('KafkaStreams on the in-memory Kafka: a topic-name extractor with a partitioner looks partition counts up on demand', function () {
  this.timeout(20_000)
  let kafka: InMemoryKafka
  let dir: string
  let streams: KafkaStreams | undefined
  let run = 0
  let applicationId = ''

  beforeEach(async () => {
    applicationId = `extractor-partitioner-${process.pid}-${run++}`
    kafka = new InMemoryKafka()
    kafka.createTopic('in', 1)
    kafka.createTopic('out-a', 2)
    kafka.createTopic('out-b', 5)
    dir = await mkdtemp(join(tmpdir(), 'kstreams-extractor-partitioner-'))
  })
  afterEach(async () => {
    await streams?.close()
    streams = undefined
    kafka.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(partitioner: StreamPartitioner<string, string>): Promise<StreamsError[]> {
    const errors: StreamsError[] = []
    streams = new KafkaStreams(topology(partitioner), { ...FAST, applicationId, stateDir: dir }, { client: kafka.client() })
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    await streams.start()
    return errors
  }

  const keysIn = (topic: string, partition: number): string[] =>
    kafka
      .topic(topic)
      .records(partition)
      .map(r => r.key!.toString())
  const committed = (): number => kafka.group(applicationId)?.committed.get('in-0')?.offset ?? 0

  it('the first record to each extracted topic goes to the partition chosen with its real count; later ones too', async () => {
    const seen: Array<[string, number]> = []
    const errors = await start((topic, _key, _value, numPartitions) => {
      seen.push([topic, numPartitions])
      return numPartitions - 1
    })
    kafka.produce('in', [
      { key: 'k1', value: 'a' },
      { key: 'k2', value: 'b' },
      { key: 'k3', value: 'a' },
      { key: 'k4', value: 'b' }
    ])
    await eventually(() => committed() === 4 && keysIn('out-a', 1).length === 2 && keysIn('out-b', 4).length === 2, 10_000)
    expect(keysIn('out-a', 1)).to.deep.equal(['k1', 'k3'])
    expect(keysIn('out-a', 0)).to.deep.equal([])
    expect(keysIn('out-b', 4)).to.deep.equal(['k2', 'k4'])
    expect(new Set(seen.map(([topic, n]) => `${topic}:${n}`))).to.deep.equal(new Set(['out-a:2', 'out-b:5']))
    expect(errors).to.deep.equal([])
  })

  it('multicast, drop and the default partitioning on a topic first seen while sending', async () => {
    const errors = await start((_topic, key, _value, numPartitions) => {
      if (key === 'drop') return []
      if (key === 'default') return undefined
      return Array.from({ length: numPartitions }, (_, i) => i)
    })
    kafka.produce('in', [
      { key: 'all', value: 'b' },
      { key: 'drop', value: 'b' },
      { key: 'default', value: 'a' }
    ])
    await eventually(
      () => committed() === 3 && kafka.topic('out-b').allRecords().length === 5 && kafka.topic('out-a').allRecords().length === 1,
      10_000
    )
    for (let p = 0; p < 5; p++) expect(keysIn('out-b', p)).to.deep.equal(['all'])
    const dropped = streams!
      .metrics()
      .filter(m => m.name === 'dropped-records-total' && m.group === 'stream-task-metrics')
      .reduce((n, m) => n + Number(m.value), 0)
    expect(dropped).to.equal(1)
    expect(errors).to.deep.equal([])
  })

  it('a partition out of range of the looked-up count fails the thread with ILLEGAL_ARGUMENT naming sink, topic and partition', async () => {
    const errors = await start(() => 2)
    kafka.produce('in', { key: 'k', value: 'a' })
    await eventually(() => streams!.state() === 'ERROR', 10_000)
    expect(errors.map(e => e.code)).to.deep.equal(['ILLEGAL_ARGUMENT'])
    expect(errors[0]!.message).to.include('sink Out').and.include('partition 2').and.include('topic out-a')
    expect(kafka.topic('out-a').allRecords()).to.deep.equal([])
  })

  it('an extracted topic that does not exist fails the thread with UNKNOWN_TOPIC naming it', async () => {
    const errors = await start(() => 0)
    kafka.produce('in', { key: 'k', value: 'missing' })
    await eventually(() => streams!.state() === 'ERROR', 10_000)
    expect(errors.map(e => e.code)).to.deep.equal(['UNKNOWN_TOPIC'])
    expect(errors[0]!.message).to.include('out-missing')
  })
})
