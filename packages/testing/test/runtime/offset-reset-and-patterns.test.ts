/**
 * Where a stream thread starts partitions without committed offsets (the source's reset policy,
 * else autoOffsetReset) and how a pattern subscription picks up new topics: KafkaStreams on the
 * in-memory Kafka.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  AutoOffsetReset,
  KafkaStreams,
  Serdes,
  Topology,
  type KafkaStreamsState,
  type StreamsConfig,
  type StreamsError
} from '@kstreams/core'
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

  it('AutoOffsetReset.byDuration on a source starts at the first record at or after now minus the duration (KIP-1106)', async () => {
    for (const t of ['in', 'out']) kafka.createTopic(t, 2)
    const now = Date.now()
    const hour = 3_600_000
    kafka.produce('in', [
      { value: 'old-0', partition: 0, timestamp: now - 5 * hour },
      { value: 'recent-0', partition: 0, timestamp: now - hour / 2 },
      { value: 'older-again-0', partition: 0, timestamp: now - 3 * hour },
      { value: 'old-1', partition: 1, timestamp: now - 2 * hour }
    ])
    const topology = new Topology()
      .addSource('In', ['in'], { keyDeserializer: S, valueDeserializer: S, offsetReset: AutoOffsetReset.byDuration(hour) })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'In')
    const { streams } = await start(topology)
    await eventually(() => streams.state() === 'RUNNING')
    // Both positions are set by one lookup; partition 1 has no record of the last hour: it starts at
    // its end and sees only what comes next.
    await eventually(() => values('out').length === 2)
    kafka.produce('in', [{ value: 'new-1', partition: 1 }])
    await eventually(() => values('out').length === 3)
    expect(values('out').sort()).to.deep.equal(['new-1', 'older-again-0', 'recent-0'])
    const [lookup] = kafka.requests({ api: 'offsetsForTimes' })
    expect(lookup!.partitions!.map(p => `${p.topic}-${p.partition}`).sort()).to.deep.equal(['in-0', 'in-1'])
  })

  it("autoOffsetReset 'by_duration:PT1H' (Kafka's config string) applies to sources without a policy of their own", async () => {
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1)
    const now = Date.now()
    kafka.produce('in', [
      { value: 'two-hours-ago', timestamp: now - 7_200_000 },
      { value: 'ten-minutes-ago', timestamp: now - 600_000 }
    ])
    const topology = new Topology()
      .addSource('In', ['in'], { keyDeserializer: S, valueDeserializer: S })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'In')
    const { streams } = await start(topology, { autoOffsetReset: 'by_duration:PT1H' })
    await eventually(() => values('out').length === 1)
    expect(values('out')).to.deep.equal(['ten-minutes-ago'])
    expect(streams.state()).to.equal('RUNNING')
  })

  it('a by-duration reset on a client adapter without offsetsForTimes fails the thread with an error naming the topic', async () => {
    kafka.createTopic('in', 1)
    kafka.createTopic('out', 1)
    const client = kafka.client()
    const withoutLookup: typeof client = settings => {
      const factory = client(settings)
      return {
        ...factory,
        name: factory.name,
        exactlyOnceV2: factory.exactlyOnceV2,
        groupCoordinator: options => factory.groupCoordinator(options),
        fetcher: options => factory.fetcher(options),
        producer: options => factory.producer(options),
        admin: options => {
          const admin = factory.admin(options)
          return {
            partitionCounts: topics => admin.partitionCounts(topics),
            createTopics: topics => admin.createTopics(topics),
            endOffsets: partitions => admin.endOffsets(partitions),
            beginningOffsets: partitions => admin.beginningOffsets(partitions),
            committedOffsets: (groupId, partitions) => admin.committedOffsets(groupId, partitions),
            deleteRecords: offsets => admin.deleteRecords(offsets),
            listTopics: () => admin.listTopics(),
            close: () => admin.close()
          }
        }
      }
    }
    const topology = new Topology()
      .addSource('In', ['in'], { keyDeserializer: S, valueDeserializer: S, offsetReset: AutoOffsetReset.byDuration(1000) })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'In')
    const streams = new KafkaStreams(
      topology,
      { applicationId: 'app', stateDir, commitIntervalMs: 100, sessionTimeoutMs: 1000, heartbeatIntervalMs: 100 },
      { client: withoutLookup }
    )
    const errors: StreamsError[] = []
    streams.setUncaughtExceptionHandler(error => {
      errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
    running.push(streams)
    await streams.start()
    await eventually(() => streams.state() === 'ERROR')
    expect(errors).to.have.length(1)
    expect(errors[0]!.code).to.equal('KAFKA')
    expect(errors[0]!.message).to.contain('Cannot reset input topic in (partition 0) by_duration:1000ms')
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
