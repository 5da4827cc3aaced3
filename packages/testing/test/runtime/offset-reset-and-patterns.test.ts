/**
 * Where a stream thread starts partitions without committed offsets (the source's reset policy,
 * else autoOffsetReset) and how a pattern subscription picks up new topics: KafkaStreams on the
 * in-memory Kafka.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology, type KafkaStreamsState, type StreamsConfig, type StreamsError } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'

const S = Serdes.String()

describe('KafkaStreams on the in-memory Kafka: offset reset policies and pattern subscriptions', function () {
  this.timeout(20_000)
  let kafka: InMemoryKafka
  let stateDir: string
  const running: KafkaStreams[] = []

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    stateDir = await mkdtemp(join(tmpdir(), 'kstreams-reset-'))
  })

  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
    kafka.close()
    await rm(stateDir, { recursive: true, force: true })
  })

  const start = async (
    topology: Topology,
    config: StreamsConfig = {}
  ): Promise<{ streams: KafkaStreams; states: KafkaStreamsState[]; errors: StreamsError[] }> => {
    const streams = new KafkaStreams(
      topology,
      { applicationId: 'app', stateDir, commitIntervalMs: 100, sessionTimeoutMs: 1000, heartbeatIntervalMs: 100, ...config },
      { client: kafka.client() }
    )
    const states: KafkaStreamsState[] = []
    const errors: StreamsError[] = []
    streams.setStateListener(to => {
      states.push(to)
    })
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    running.push(streams)
    await streams.start()
    return { streams, states, errors }
  }

  const values = (topic: string): string[] =>
    kafka
      .topic(topic)!
      .allRecords()
      .map(r => r.value?.toString() ?? 'null')

  it("a source with offsetReset 'latest' skips what was there before its first start; the others start at the earliest offset", async () => {
    for (const t of ['old', 'new', 'out']) kafka.createTopic(t, 1)
    kafka.produce('old', [{ value: 'o1' }, { value: 'o2' }])
    kafka.produce('new', [{ value: 'n1' }, { value: 'n2' }])
    const topology = new Topology()
      .addSource('Old', ['old'], { keyDeserializer: S, valueDeserializer: S })
      .addSource('New', ['new'], { keyDeserializer: S, valueDeserializer: S, offsetReset: 'latest' })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'Old', 'New')
    const { streams } = await start(topology)
    await eventually(() => streams.state() === 'RUNNING')
    await eventually(() => values('out').length === 2)
    kafka.produce('new', [{ value: 'n3' }])
    await eventually(() => values('out').length === 3)
    expect(values('out').sort()).to.deep.equal(['n3', 'o1', 'o2'])
  })

  it("autoOffsetReset 'none' without a committed offset fails the thread with an error naming the topic", async () => {
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1)
    const topology = new Topology()
      .addSource('In', ['in'], { keyDeserializer: S, valueDeserializer: S })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'In')
    const { streams, errors } = await start(topology, { autoOffsetReset: 'none' })
    await eventually(() => streams.state() === 'ERROR')
    expect(errors).to.have.length(1)
    expect(errors[0]!.message).to.contain('No valid committed offset found for input topic in (partition 0)')
  })

  it('a pattern subscription picks up a matching topic created later (within metadataMaxAgeMs)', async () => {
    kafka.createTopic('events-a', 1)
    kafka.createTopic('out', 1)
    const topology = new Topology()
      .addSource('Events', /events-.*/, { keyDeserializer: S, valueDeserializer: S })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'Events')
    const { streams, states } = await start(topology, { metadataMaxAgeMs: 200 })
    kafka.produce('events-a', [{ value: 'a1' }])
    await eventually(() => values('out').length === 1)
    kafka.createTopic('events-b', 1)
    kafka.produce('events-b', [{ value: 'b1' }])
    await eventually(() => values('out').length === 2, 10_000)
    expect(values('out')).to.deep.equal(['a1', 'b1'])
    expect(streams.state()).to.equal('RUNNING')
    expect(states).to.not.include('ERROR')
  })
})
