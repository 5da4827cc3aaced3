/**
 * Stream partitioners that multicast or drop (KIP-837), on a running application over the
 * in-memory Kafka with a 3-partition output topic: Kafka's RecordCollectorTest cases
 * (shouldSendOnlyToEvenPartitions, shouldBroadcastToAllPartitions, shouldDropAllRecords,
 * shouldUseDefaultPartitionerViaPartitions / shouldUseDefaultPartitionerAsPartitionReturnsEmptyOptional)
 * with their nine keys, an out-of-range partition failing the thread with an error naming sink,
 * topic and partition, and `KafkaStreams.queryMetadataForKey(store, key, partitioner)`
 * (StreamsMetadataStateTest's custom-partitioner cases).
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, partitionFor, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext, Record, StreamPartitioner, StreamsConfig, StreamsError } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST } from './streams-harness.js'

const S = Serdes.String()
const L = Serdes.Long()
/** The keys Kafka's RecordCollectorTest sends. */
const KEYS = ['3', '9', '27', '81', '243', '28', '82', '244', '245']

/** in (3 partitions) -> count per key (store Counts) and the record forwarded to `out` (3 partitions) through a sink with `partitioner`. */
function topology(partitioner: StreamPartitioner<string, string>): Topology {
  class CountAndForward implements Processor<string, string, string, string> {
    #store!: KeyValueStore<string, number>
    #ctx!: ProcessorContext<string, string>
    init(ctx: ProcessorContext<string, string>): void {
      this.#ctx = ctx
      this.#store = ctx.getStateStore('Counts')
    }

    process(record: Record<string, string>): void {
      this.#store.put(record.key, (this.#store.get(record.key) ?? 0) + 1)
      this.#ctx.forward(record)
    }
  }
  return new Topology()
    .addSource('In', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountAndForward(), 'In')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('Counts'), S, L), 'Count')
    .addSink('Out', 'out', { keySerializer: S, valueSerializer: S, partitioner }, 'Count')
}

describe('KafkaStreams on the in-memory Kafka: stream partitioners that multicast or drop (KIP-837)', function () {
  this.timeout(20_000)
  let kafka: InMemoryKafka
  let dir: string
  let streams: KafkaStreams | undefined
  let run = 0
  let applicationId = ''

  beforeEach(async () => {
    applicationId = `stream-partitioner-${process.pid}-${run++}`
    kafka = new InMemoryKafka()
    kafka.createTopic('in', 3)
    kafka.createTopic('out', 3)
    dir = await mkdtemp(join(tmpdir(), 'kstreams-stream-partitioner-'))
  })
  afterEach(async () => {
    await streams?.close()
    streams = undefined
    kafka.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(
    partitioner: StreamPartitioner<string, string>,
    config: StreamsConfig = {}
  ): Promise<{ streams: KafkaStreams; errors: StreamsError[] }> {
    const errors: StreamsError[] = []
    streams = new KafkaStreams(topology(partitioner), { ...FAST, applicationId, stateDir: dir, ...config }, { client: kafka.client() })
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    await streams.start()
    return { streams, errors }
  }

  const committed = (): number => [0, 1, 2].reduce((n, p) => n + (kafka.group(applicationId)?.committed.get(`in-${p}`)?.offset ?? 0), 0)
  const produceKeys = (): void => {
    kafka.produce(
      'in',
      KEYS.map(key => ({ key, value: '0' }))
    )
  }
  const outKeys = (partition: number): string[] =>
    kafka
      .topic('out')
      .records(partition)
      .map(r => r.key!.toString())
  const dropped = (app: KafkaStreams): number =>
    app
      .metrics()
      .filter(m => m.name === 'dropped-records-total' && m.group === 'stream-task-metrics')
      .reduce((n, m) => n + Number(m.value), 0)

  it('shouldSendOnlyToEvenPartitions: a set of partitions sends a copy to each (0 and 2 of 3)', async () => {
    const even: StreamPartitioner<string, string> = (_topic, _key, _value, numPartitions) => {
      const partitions = new Set<number>()
      for (let i = 0; i < numPartitions; i += 2) partitions.add(i)
      return partitions
    }
    const app = await start(even)
    produceKeys()
    await eventually(() => committed() === 9 && outKeys(0).length === 9 && outKeys(2).length === 9, 10_000)
    expect(outKeys(0).sort()).to.deep.equal([...KEYS].sort())
    expect(outKeys(1)).to.deep.equal([])
    expect(outKeys(2).sort()).to.deep.equal([...KEYS].sort())
    expect(kafka.topic('out').allRecords()).to.have.length(18)
    expect(dropped(app.streams)).to.equal(0)
    expect(app.errors).to.deep.equal([])
  })

  it('shouldBroadcastToAllPartitions: every partition gets a copy (an array works like a set; duplicates count once)', async () => {
    const app = await start((_topic, _key, _value, numPartitions) => [...Array.from({ length: numPartitions }, (_, i) => i), 0])
    produceKeys()
    await eventually(() => committed() === 9 && kafka.topic('out').allRecords().length === 27, 10_000)
    for (const p of [0, 1, 2]) expect(outKeys(p).sort()).to.deep.equal([...KEYS].sort())
    expect(app.errors).to.deep.equal([])
  })

  it('shouldDropAllRecords: an empty set drops the record, counted in dropped-records-total', async () => {
    const app = await start(() => new Set<number>())
    produceKeys()
    await eventually(() => committed() === 9, 10_000)
    expect(kafka.topic('out').allRecords()).to.deep.equal([])
    expect(dropped(app.streams)).to.equal(9)
    expect(app.errors).to.deep.equal([])
    expect(app.streams.state()).to.equal('RUNNING')
  })

  it('shouldUseDefaultPartitionerViaPartitions / ...AsPartitionReturnsEmptyOptional: undefined is the default partitioning (murmur2 of the key)', async () => {
    const app = await start(() => undefined)
    produceKeys()
    await eventually(() => committed() === 9 && kafka.topic('out').allRecords().length === 9, 10_000)
    for (const p of [0, 1, 2]) {
      expect(outKeys(p).sort()).to.deep.equal(KEYS.filter(k => partitionFor(Buffer.from(k), 3) === p).sort())
    }
    // Kafka's expected offsets 3, 2, 1: four, three and two records.
    expect([0, 1, 2].map(p => outKeys(p).length)).to.deep.equal([4, 3, 2])
    expect(app.errors).to.deep.equal([])
  })

  it('a single partition still works (one copy)', async () => {
    const app = await start(() => 1)
    produceKeys()
    await eventually(() => committed() === 9 && outKeys(1).length === 9, 10_000)
    expect(kafka.topic('out').allRecords()).to.have.length(9)
    expect(app.errors).to.deep.equal([])
  })

  it('a partition out of range fails the thread with ILLEGAL_ARGUMENT naming sink, topic and partition; nothing of the record is sent', async () => {
    const app = await start(() => [0, 3])
    kafka.produce('in', { key: 'a', value: 'v' })
    await eventually(() => app.streams.state() === 'ERROR', 10_000)
    expect(app.errors.map(e => e.code)).to.deep.equal(['ILLEGAL_ARGUMENT'])
    const message = app.errors[0]!.message
    expect(message).to.include('sink Out').and.include('partition 3').and.include('topic out')
    expect(kafka.topic('out').allRecords()).to.deep.equal([])
  })

  it('queryMetadataForKey(store, key, partitioner): the partitioner picks the partition; a multicast, a drop or the default partitioning is ILLEGAL_ARGUMENT', async () => {
    const app = await start(() => undefined, { applicationServer: 'localhost:7070' })
    produceKeys()
    await eventually(() => committed() === 9, 10_000)
    const seen: Array<[string, string, unknown, number]> = []
    const meta = app.streams.queryMetadataForKey('Counts', 'the-key', (topic: string, key: string, value: unknown, n: number) => {
      seen.push([topic, key, value, n])
      return 1
    })
    expect(meta.partition).to.equal(1)
    expect(meta.activeHost).to.deep.equal({ host: 'localhost', port: 7070 })
    expect(seen).to.deep.equal([['in', 'the-key', undefined, 3]])
    expect(app.streams.queryMetadataForKey('Counts', 'the-key', () => new Set([2])).partition).to.equal(2)
    for (const multi of [() => new Set([0, 1]), () => [], () => undefined]) {
      expect(() => app.streams.queryMetadataForKey('Counts', 'the-key', multi))
        .to.throw()
        .with.property('code', 'ILLEGAL_ARGUMENT')
    }
    // The serializer overload is unchanged.
    expect(app.streams.queryMetadataForKey('Counts', '27', S.serializer()).partition).to.equal(partitionFor(Buffer.from('27'), 3))
  })
})
