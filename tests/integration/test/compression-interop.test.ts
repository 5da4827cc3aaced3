/**
 * Compression interop with Java's kafka-clients 4.1.1 on a real broker, for every Kafka codec and
 * both adapters: Kafka's producer writes gzip, snappy, lz4 and zstd batches (one JVM run, one
 * topic per codec), a kstreams application per adapter and codec reads them and writes its
 * output with `producer: { 'compression.type': codec }`, and Kafka's consumer reads every output
 * (one JVM run). A raw Fetch reads the record batches' attributes, so that neither direction can
 * pass with batches that silently went out uncompressed. Last, a batch kafkajs cannot decode (its
 * lz4 codec fails) fails the stream thread with a RecordBatchDecodeError naming the codec, the
 * topic, the partition and the offset (it used to leave the application RUNNING with nothing out).
 */
import { expect } from 'chai'
import kafkajsModule, { CompressionTypes } from 'kafkajs'
import { Connection, fetchV12 } from '@platformatic/kafka'
import { KafkaStreams, RecordBatchDecodeError, Serdes, type KafkaClient, type Topology } from '@kstreams/core'
import { Consumed, Produced, StreamsBuilder } from '@kstreams/dsl'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { bootstrapServers, createTopics, recordCount, tempDir, unique, waitFor } from './helpers.js'
import { javaStreams, runJava } from './java-streams.js'

const { CompressionCodecs } = kafkajsModule

const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const
type Codec = (typeof CODECS)[number]
const CODEC_BITS: Readonly<Record<Codec, number>> = { gzip: 1, snappy: 2, lz4: 3, zstd: 4 }
const ADAPTERS: ReadonlyArray<readonly [string, () => KafkaClient]> = [
  ['kafkajs', () => kafkajs()],
  ['platformatic', () => platformatic()]
]
const COUNT = 200

/** Upper-cases values. */
function upper(input: string, output: string): Topology {
  const S = Serdes.String()
  const builder = new StreamsBuilder()
  builder
    .stream(input, Consumed.with(S, S))
    .mapValues(value => value.toUpperCase())
    .to(output, Produced.with(S, S))
  return builder.build()
}

/** The compression codec bits of every record batch of partition 0 of `topic`, read by a raw Fetch v12 from the broker. */
async function batchCodecs(topic: string): Promise<number[]> {
  const [host, port] = bootstrapServers().split(',')[0]!.split(':')
  const connection = new Connection(unique('codec-check'))
  await connection.connect(host!, Number(port))
  try {
    const partition = { partition: 0, currentLeaderEpoch: -1, fetchOffset: 0n, lastFetchedEpoch: -1, partitionMaxBytes: 50_000_000 }
    const answer = await fetchV12.api.async(connection, 0, 1, 50_000_000, 0, 0, -1, [{ topicId: topic, partitions: [partition] }], [], '')
    const fetched = answer.responses[0]!.partitions[0]!
    expect(fetched.errorCode, `fetch of ${topic}`).to.equal(0)
    return (fetched.records ?? []).map(batch => batch.attributes & 0x07)
  } finally {
    await connection.close()
  }
}

/** A KafkaStreams application upper-casing `input` into `output`, its producer compressing with `codec`. */
async function upperApp(name: string, client: KafkaClient, input: string, output: string, codec: Codec) {
  const state = await tempDir(`kstreams-${name}`)
  const streams = new KafkaStreams(
    upper(input, output),
    {
      applicationId: `${name}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir: state.path,
      commitIntervalMs: 100,
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 1000,
      producer: { 'compression.type': codec }
    },
    { client }
  )
  return { streams, state }
}

describe('Compression interop with Java kafka-clients 4.1.1 (gzip, snappy, lz4, zstd; kafkajs and platformatic)', function () {
  this.timeout(240_000)
  const prefix = unique('codecs')
  const javaTopic = (codec: Codec): string => `${prefix}-java-${codec}`
  const outputTopic = (adapter: string, codec: Codec): string => `${prefix}-${adapter}-${codec}`
  const apps: Array<Awaited<ReturnType<typeof upperApp>>> = []

  before(async function () {
    this.timeout(300_000)
    await javaStreams()
    await createTopics([
      ...CODECS.map(codec => ({ topic: javaTopic(codec), numPartitions: 1 })),
      ...ADAPTERS.flatMap(([adapter]) => CODECS.map(codec => ({ topic: outputTopic(adapter, codec), numPartitions: 1 })))
    ])
    const produced = await runJava('Codecs', [
      'produce',
      bootstrapServers(),
      String(COUNT),
      ...CODECS.map(codec => `${javaTopic(codec)}=${codec}`)
    ])
    expect(produced.trim().split('\n')).to.deep.equal(CODECS.map(codec => `produced ${javaTopic(codec)} ${COUNT}`))
  })

  after(async () => {
    for (const { streams, state } of apps) {
      await streams.close()
      await state.remove()
    }
  })

  it("kstreams reads Java's batches of each codec on both adapters", async () => {
    for (const codec of CODECS) {
      const codecs = await batchCodecs(javaTopic(codec))
      expect(codecs.length, `batches of ${javaTopic(codec)}`).to.be.greaterThan(0)
      expect(new Set(codecs), `codecs of the batches Java wrote with ${codec}`).to.deep.equal(new Set([CODEC_BITS[codec]]))
    }
    for (const [adapter, client] of ADAPTERS) {
      for (const codec of CODECS)
        apps.push(await upperApp(unique(`${adapter}-${codec}`), client(), javaTopic(codec), outputTopic(adapter, codec), codec))
    }
    await Promise.all(apps.map(async ({ streams }) => await streams.start()))
    const outputs = ADAPTERS.flatMap(([adapter]) => CODECS.map(codec => outputTopic(adapter, codec)))
    await waitFor(
      `${COUNT} records in each of ${outputs.join(', ')}`,
      async () => (await Promise.all(outputs.map(recordCount))).every(n => n >= COUNT),
      120_000
    )
    for (const { streams } of apps) expect(streams.state()).to.equal('RUNNING')
  })

  it("a Java consumer reads kstreams' output of each codec on both adapters, and every batch carries that codec", async () => {
    const outputs = ADAPTERS.flatMap(([adapter]) => CODECS.map(codec => ({ adapter, codec, topic: outputTopic(adapter, codec) })))
    const lines = await runJava('Codecs', ['consume', bootstrapServers(), String(COUNT), '60000', ...outputs.map(o => o.topic)])
    const read = new Map<string, string[]>()
    for (const line of lines.trim().split('\n')) {
      const [topic, , , key, value] = line.split('\t')
      read.set(topic!, [...(read.get(topic!) ?? []), `${key}=${value}`])
    }
    for (const { adapter, codec, topic } of outputs) {
      const expected = Array.from({ length: COUNT }, (_, i) => `k${i}=${`${codec}-${i}-${'abcdefgh'.repeat((i % 7) + 1)}`.toUpperCase()}`)
      expect(read.get(topic), `what Java read from ${adapter}'s ${codec} output`).to.deep.equal(expected)
      const codecs = await batchCodecs(topic)
      expect(codecs.length).to.be.greaterThan(0)
      expect(new Set(codecs), `codecs of the batches ${adapter} wrote with ${codec}`).to.deep.equal(new Set([CODEC_BITS[codec]]))
    }
  })

  it('kafkajs: a batch its codec cannot decode fails the stream thread naming the codec, topic, partition and offset', async () => {
    // The apps above share kafkajs' global codec registry: they are done.
    for (const { streams } of apps) await streams.close()
    const codecs = CompressionCodecs as unknown as Record<number, () => unknown>
    const ours = codecs[CompressionTypes.LZ4]!
    const name = unique('kafkajs-no-lz4')
    const output = `${name}-out`
    await createTopics([{ topic: output, numPartitions: 1 }])
    const app = await upperApp(name, kafkajs(), javaTopic('lz4'), output, 'gzip')
    const errors: unknown[] = []
    app.streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    // A codec of the application's own (the adapter keeps it) that fails on every batch.
    const failing = {
      compress: async () => Buffer.alloc(0),
      decompress: async () => {
        throw new Error('this lz4 codec fails')
      }
    }
    codecs[CompressionTypes.LZ4] = () => failing
    try {
      await app.streams.start()
      await waitFor('the application in ERROR', () => app.streams.state() === 'ERROR', 60_000)
      expect(errors).to.have.length(1)
      const error = errors[0] as RecordBatchDecodeError
      expect(error).to.be.instanceOf(RecordBatchDecodeError)
      expect(error).to.include({ code: 'KAFKA', codec: 'lz4', topic: javaTopic('lz4'), partition: 0, offset: 0 })
      expect(error.message)
        .to.include(`${javaTopic('lz4')}-0`)
        .and.include('lz4')
        .and.include('this lz4 codec fails')
      expect(await recordCount(output)).to.equal(0)
    } finally {
      codecs[CompressionTypes.LZ4] = ours
      await app.streams.close()
      await app.state.remove()
    }
  })
})
