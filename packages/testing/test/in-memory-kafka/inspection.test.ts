import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { Headers, partitionFor, silentLogger } from '@kstreams/core'
import { InMemoryKafka, KAFKA_APIS, ManualScheduler } from '@kstreams/testing/in-memory-kafka'
import { formGroup, joinRequest, manualKafka } from './helpers.js'

describe('InMemoryKafka setup and inspection', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  it("createTopic, produce and topic(): keyed records go to the default partitioner's partition, unkeyed ones round-robin", () => {
    const { kafka } = manualKafka()
    cleanup = () => kafka.close()
    const view = kafka.createTopic('in', 3, { 'retention.ms': '1000' })
    expect(view).to.include({ name: 'in', partitions: 3 })
    expect(view.configs).to.deep.equal({ 'retention.ms': '1000' })
    const placed = kafka.produce('in', [
      { key: 'alice', value: 'v1' },
      { key: 'alice', value: 'v2' },
      { value: 'n1' },
      { value: 'n2' },
      { value: 'p', partition: 2, timestamp: 7, headers: { h: 'x' } }
    ])
    const alice = partitionFor(Buffer.from('alice'), 3)
    expect(placed.slice(0, 2).map(p => p.partition)).to.deep.equal([alice, alice])
    expect(placed.slice(2, 4).map(p => p.partition)).to.deep.equal([0, 1])
    const last = kafka.topic('in').records(2).at(-1)!
    expect(last).to.include({ topic: 'in', partition: 2, timestamp: 7, transaction: undefined })
    expect(last.headers.lastHeader('h')?.value?.toString()).to.equal('x')
    expect(
      kafka
        .topic('in')
        .records(alice)
        .filter(r => r.key?.toString() === 'alice')
        .map(r => r.value?.toString())
    ).to.deep.equal(['v1', 'v2'])
    expect(kafka.topic('in').allRecords()).to.have.length(5)
    expect(kafka.topic('in').highWatermark(2)).to.equal(placed.filter(p => p.partition === 2).length)
  })

  it("produce stamps records with the scheduler's time by default", () => {
    const scheduler = new ManualScheduler(5000)
    const kafka = new InMemoryKafka({ scheduler })
    cleanup = () => kafka.close()
    kafka.createTopic('t')
    kafka.produce('t', { value: 'x' })
    expect(kafka.topic('t').records(0)[0]!.timestamp).to.equal(5000)
  })

  it('misuse names the problem: an existing or unknown topic, a partition out of range, an unknown node', () => {
    const { kafka } = manualKafka({ nodes: 2 })
    cleanup = () => kafka.close()
    kafka.createTopic('t', 1)
    expect(() => kafka.createTopic('t', 1))
      .to.throw(/exists already/)
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => kafka.topic('nope'))
      .to.throw(/does not exist/)
      .with.property('code', 'UNKNOWN_TOPIC')
    expect(() => kafka.produce('nope', { value: 'x' }))
      .to.throw()
      .with.property('code', 'UNKNOWN_TOPIC')
    expect(() => kafka.produce('t', { value: 'x', partition: 1 })).to.throw(/no partition 1/)
    expect(() => kafka.moveLeader('t', 0, 3)).to.throw(/no broker node 3/)
    expect(() => kafka.topic('t').records(4)).to.throw(/no partition 4/)
    expect(() => new InMemoryKafka({ nodes: 0 })).to.throw(/positive integer/)
  })

  it('deleteTopic and addPartitions change what clients see', async () => {
    const { kafka } = manualKafka()
    cleanup = () => kafka.close()
    kafka.createTopic('t', 1)
    const admin = kafka.clientFactory().admin({ clientId: 'admin' })
    kafka.addPartitions('t', 3)
    expect([...(await admin.partitionCounts(['t']))]).to.deep.equal([['t', 3]])
    kafka.produce('t', { value: 'x', partition: 2 })
    kafka.deleteTopic('t')
    expect(kafka.topics()).to.deep.equal([])
    expect([...(await admin.partitionCounts(['t']))]).to.deep.equal([])
  })

  it('group() is a snapshot of state, generation, protocol, leader, members and committed offsets; undefined for an unknown group', async () => {
    const { kafka, scheduler } = manualKafka()
    cleanup = () => kafka.close()
    kafka.createTopic('t', 1)
    expect(kafka.group('app')).to.equal(undefined)
    const port = kafka.clientFactory().groupCoordinator({ groupId: 'app', clientId: 'thread-1' })
    const [joined] = await formGroup(scheduler, [port], { request: { sessionTimeoutMs: 5000, rebalanceTimeoutMs: 9000 } })
    await port.commitOffsets({ generationId: 1, memberId: joined!.memberId }, [{ topic: 't', partition: 0, offset: 3, metadata: 'meta' }])
    const snapshot = kafka.group('app')!
    expect(snapshot).to.deep.include({
      groupId: 'app',
      state: 'Stable',
      generationId: 1,
      protocolType: 'consumer',
      protocolName: 'range',
      leaderId: joined!.memberId
    })
    expect(snapshot.members).to.deep.equal([
      {
        memberId: joined!.memberId,
        clientId: 'thread-1',
        groupInstanceId: undefined,
        sessionTimeoutMs: 5000,
        rebalanceTimeoutMs: 9000,
        protocols: ['range'],
        assignment: Buffer.from(`for ${joined!.memberId}`),
        awaitingJoin: false,
        awaitingSync: false,
        lastSeenMs: scheduler.milliseconds()
      }
    ])
    expect([...snapshot.committed]).to.deep.equal([['t-0', { offset: 3, metadata: 'meta' }]])
    expect(kafka.groups()).to.deep.equal(['app'])
    await port.joinGroup(joinRequest({ memberId: joined!.memberId }))
    expect(snapshot).to.include({ state: 'Stable', generationId: 1 })
    expect(kafka.group('app')).to.include({ state: 'CompletingRebalance', generationId: 2 })
  })

  it('requests() lists what each client asked and how it ended, filtered by api, client id or group', async () => {
    const { kafka, scheduler } = manualKafka()
    cleanup = () => kafka.close()
    const factory = kafka.clientFactory()
    const port = factory.groupCoordinator({ groupId: 'app', clientId: 'thread-1' })
    await formGroup(scheduler, [port])
    kafka.failNext({ api: 'listTopics', error: 'REQUEST_TIMED_OUT' })
    await factory
      .admin({ clientId: 'admin' })
      .listTopics()
      .catch(() => {})
    expect(kafka.requests().map(r => [r.api, r.clientId, r.error])).to.deep.equal([
      ['joinGroup', 'thread-1', undefined],
      ['syncGroup', 'thread-1', undefined],
      ['listTopics', 'admin', 'REQUEST_TIMED_OUT']
    ])
    expect(kafka.requests({ groupId: 'app' })).to.have.length(2)
    expect(kafka.requests({ api: 'listTopics', clientId: /adm/ })).to.have.length(1)
    kafka.clearRequests()
    expect(kafka.requests()).to.deep.equal([])
    expect(KAFKA_APIS).to.include('commitOffsets')
  })

  it("client() is a KafkaClient: it takes KafkaStreams' client settings (the transaction timeout) and makes the ports", async () => {
    const scheduler = new ManualScheduler()
    const kafka = new InMemoryKafka({ scheduler })
    cleanup = () => kafka.close()
    kafka.createTopic('t')
    const factory = kafka.client()({
      bootstrapServers: [],
      clientId: 'app',
      ssl: undefined,
      sasl: undefined,
      connectionTimeoutMs: 1000,
      requestTimeoutMs: 1000,
      transactionTimeoutMs: 100,
      logger: silentLogger
    })
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx' })
    await producer.transactions!.begin()
    await producer.send([{ topic: 't', partition: 0, key: null, value: null, headers: new Headers(), timestamp: 0 }])
    scheduler.advance(100)
    expect(kafka.topic('t').records(0)[0]!.transaction).to.equal('aborted')
  })

  it('nothing under the in-memory-kafka subpath imports kafkajs (only its own files, @kstreams/core and node: modules)', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '../../src/in-memory-kafka')
    const files = readdirSync(dir).filter(f => f.endsWith('.ts'))
    expect(files.length).to.be.greaterThan(10)
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const allowed = specifier!.startsWith('./') || specifier === '@kstreams/core' || specifier!.startsWith('node:')
        expect(allowed, `${file} imports ${specifier}`).to.equal(true)
      }
    }
  })
})
