/**
 * The production exception handler of a running application, on the in-memory Kafka: asked per
 * record, never for fatal errors. One record too large for its output topic's max.message.bytes,
 * with 'continue': only that record is dropped and counted, everything else arrives, the store
 * equals its changelog. An authorization error on the output with 'continue': the thread fails,
 * no output is dropped silently.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext, Record, StreamsConfig, StreamsError } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST } from './streams-harness.js'

const S = Serdes.String()
const L = Serdes.Long()

/** in -> count per key (logged store Counts) and the input value forwarded to `out`. */
function topology(): Topology {
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
    .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'Count')
}

describe('KafkaStreams on the in-memory Kafka: the production exception handler', function () {
  this.timeout(20_000)
  let kafka: InMemoryKafka
  let dir: string
  let streams: KafkaStreams | undefined
  const applicationId = `production-handler-${process.pid}`

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1, { 'max.message.bytes': '2000' })
    dir = await mkdtemp(join(tmpdir(), 'kstreams-production-handler-'))
  })
  afterEach(async () => {
    await streams?.close()
    streams = undefined
    kafka.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(config: StreamsConfig): Promise<{ streams: KafkaStreams; errors: StreamsError[] }> {
    const errors: StreamsError[] = []
    streams = new KafkaStreams(topology(), { ...FAST, applicationId, stateDir: dir, ...config }, { client: kafka.client() })
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    await streams.start()
    return { streams, errors }
  }

  const changelog = `${applicationId}-Counts-changelog`
  const changelogCounts = (): Map<string, number | null> =>
    new Map(
      kafka
        .topic(changelog)
        .allRecords()
        .map(r => [r.key!.toString(), L.deserializer().deserialize(changelog, r.value)])
    )

  it('one record too large for its topic, with continue: only it is dropped (dropped-records-total 1), the rest arrives, the changelog is complete', async () => {
    const app = await start({ productionExceptionHandler: 'continue' })
    const values = Array.from({ length: 20 }, (_, i) => (i === 7 ? 'x'.repeat(5000) : `v${i}`))
    kafka.produce(
      'in',
      values.map((value, i) => ({ key: `k${i % 4}`, value }))
    )
    await eventually(
      () => kafka.topic('out').records(0).length === 19 && (kafka.group(applicationId)?.committed.get('in-0')?.offset ?? 0) === 20,
      10_000
    )
    expect(
      kafka
        .topic('out')
        .records(0)
        .map(r => r.value!.toString())
    ).to.deep.equal(values.filter((_, i) => i !== 7))
    expect(changelogCounts()).to.deep.equal(
      new Map([
        ['k0', 5],
        ['k1', 5],
        ['k2', 5],
        ['k3', 5]
      ])
    )
    const dropped = app.streams
      .metrics()
      .filter(m => m.name === 'dropped-records-total' && m.group === 'stream-task-metrics')
      .reduce((n, m) => n + Number(m.value), 0)
    expect(dropped).to.equal(1)
    expect(app.errors).to.deep.equal([])
    expect(app.streams.state()).to.equal('RUNNING')
  })

  it('TOPIC_AUTHORIZATION_FAILED on the output, with continue: fatal, the handler is not asked, the client fails', async () => {
    const app = await start({ productionExceptionHandler: 'continue' })
    kafka.produce('in', { key: 'a', value: 'v' })
    await eventually(() => kafka.topic('out').records(0).length === 1, 10_000)
    kafka.failNext({ api: 'send', error: 'TOPIC_AUTHORIZATION_FAILED', clientId: /-producer$/ })
    kafka.produce('in', { key: 'b', value: 'w' })
    await eventually(() => app.streams.state() === 'ERROR', 10_000)
    expect(app.errors.map(e => e.code)).to.deep.equal(['SEND_FAILED'])
    expect(app.errors[0]!.cause).to.have.property('errorName', 'TOPIC_AUTHORIZATION_FAILED')
    expect(app.streams.metrics().filter(m => m.name === 'dropped-records-total' && Number(m.value) > 0)).to.deep.equal([])
  })
})
