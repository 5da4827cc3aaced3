/**
 * GroupConsumerPort on patched kafkajs against a real broker, one member: consuming through the
 * ports, commits (only commit() commits), pause/resume, seek, onIdle serialised with onBatch,
 * requestRebalance, and fatal handler errors.
 */
import { expect } from 'chai'
import { StreamsError } from '../../../../src/errors.js'
import type { AdminPort, GroupConsumerPort, KafkaClientFactory, ProducerPort } from '../../../../src/runtime/kafka/ports.js'
import { partitionKeys, RecordingHandlers, RoundRobinAssignor } from './group-test-doubles.js'
import { Cleanup, createTopic, record, sleep, testFactory, uniqueName, waitFor } from './kafka-test-env.js'

describe('kafkajs GroupConsumerPort (broker)', function () {
  this.timeout(60_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort
  let producer: ProducerPort

  beforeEach(() => {
    cleanup = new Cleanup()
    factory = testFactory()
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
    producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })
  })
  afterEach(async () => { await cleanup.run() })

  const newConsumer = (groupId: string): GroupConsumerPort =>
    cleanup.add(factory.groupConsumer({ groupId, clientId: uniqueName('c') }), async c => { await c.stop({ leaveGroup: true }) })

  it('assigns every partition to a single member and delivers batches with positions', async () => {
    const topic = await createTopic(admin, 2)
    await producer.send([record(topic, 0, 'a0'), record(topic, 0, 'a1'), record(topic, 1, 'b0')])
    const handlers = new RecordingHandlers()
    const consumer = newConsumer(uniqueName('g'))
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)

    expect(consumer.memberId).to.be.a('string')
    expect(partitionKeys(handlers.lastAssignment()!.partitions)).to.deep.equal([`${topic}-0`, `${topic}-1`])
    await waitFor('3 records', () => handlers.values().length === 3)
    await producer.send([record(topic, 0, 'a2')])
    await waitFor('4 records', () => handlers.values().length === 4)

    const p0 = handlers.batches().filter(b => b.partition === 0)
    expect(p0.flatMap(b => b.records.map(r => [r.offset, r.value!.toString()]))).to.deep.equal([[0, 'a0'], [1, 'a1'], [2, 'a2']])
    expect(p0.at(-1)).to.deep.include({ topic, nextOffset: 3, highWatermark: 3 })
    expect(handlers.batches().find(b => b.partition === 1)).to.deep.include({ nextOffset: 1, highWatermark: 1 })
    expect(handlers.count('revoked')).to.equal(0)
    expect(handlers.count('fatal')).to.equal(0)
  })

  it('commits only on commit(), with metadata; committed() omits partitions without a commit', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    await producer.send([0, 1, 2, 3].map(i => record(topic, 0, `v${i}`)))
    const first = new RecordingHandlers()
    const consumer = newConsumer(groupId)
    await consumer.start([topic], new RoundRobinAssignor(), first, 60_000)
    await waitFor('4 records', () => first.values().length === 4)
    expect((await consumer.committed([{ topic, partition: 0 }])).size).to.equal(0)

    await consumer.commit([{ topic, partition: 0, offset: 2, metadata: 'meta-0' }])
    const committed = await consumer.committed([{ topic, partition: 0 }, { topic, partition: 1 }])
    expect([...committed]).to.deep.equal([[`${topic}-0`, { offset: 2, metadata: 'meta-0' }]])
    await consumer.commit([{ topic, partition: 1, offset: 0 }])
    expect((await consumer.committed([{ topic, partition: 1 }])).get(`${topic}-1`)).to.deep.equal({ offset: 0, metadata: undefined })
    await consumer.stop({ leaveGroup: true })

    // A new member starts at the committed offset, not where the first one had read to.
    const second = new RecordingHandlers()
    await newConsumer(groupId).start([topic], new RoundRobinAssignor(), second, 60_000)
    await waitFor('2 records', () => second.values().length === 2)
    expect(second.values()).to.deep.equal(['v2', 'v3'])
  })

  it('commits inside the first onPartitionsAssigned (kafkajs alone would drop that commit)', async () => {
    const topic = await createTopic(admin, 1)
    await producer.send([0, 1, 2].map(i => record(topic, 0, `v${i}`)))
    const handlers = new RecordingHandlers()
    const consumer = newConsumer(uniqueName('g'))
    handlers.hooks.onAssigned = async assignment => {
      await consumer.commit(assignment.partitions.map(tp => ({ ...tp, offset: 2, metadata: 'on-assign' })))
    }
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)
    expect([...(await consumer.committed([{ topic, partition: 0 }])).values()]).to.deep.equal([{ offset: 2, metadata: 'on-assign' }])
    await waitFor('v2', () => handlers.values().length === 1)
    expect(handlers.values()).to.deep.equal(['v2'])
  })

  it('pauses and resumes partitions, only assigned ones', async () => {
    const topic = await createTopic(admin, 2)
    const handlers = new RecordingHandlers()
    const consumer = newConsumer(uniqueName('g'))
    handlers.hooks.onAssigned = async () => { consumer.pause([{ topic, partition: 0 }]) }
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)
    expect(() => { consumer.pause([{ topic, partition: 9 }]) }).to.throw(StreamsError).with.property('code', 'ILLEGAL_STATE')

    await producer.send([record(topic, 0, 'p0'), record(topic, 1, 'p1')])
    await waitFor('p1', () => handlers.values().includes('p1'))
    await sleep(500)
    expect(handlers.values()).to.deep.equal(['p1'])

    consumer.resume([{ topic, partition: 0 }])
    await waitFor('p0', () => handlers.values().includes('p0'))
    expect(handlers.values()).to.deep.equal(['p1', 'p0'])
  })

  it('seeks: the next batch of the partition starts at the given offset', async () => {
    const topic = await createTopic(admin, 1)
    await producer.send([0, 1, 2].map(i => record(topic, 0, `v${i}`)))
    const handlers = new RecordingHandlers()
    const consumer = newConsumer(uniqueName('g'))
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)
    await waitFor('3 records', () => handlers.values().length === 3)

    consumer.seek({ topic, partition: 0, offset: 1 })
    await waitFor('re-read', () => handlers.values().length === 5)
    expect(handlers.values()).to.deep.equal(['v0', 'v1', 'v2', 'v1', 'v2'])
    expect(() => { consumer.seek({ topic, partition: 0, offset: -5 }) }).to.throw(StreamsError).with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('reports positions past transaction markers, also when a fetch brings nothing but the marker', async () => {
    const topic = await createTopic(admin, 1)
    const tx = cleanup.add(factory.producer({ clientId: uniqueName('tx'), transactionalId: uniqueName('tx') }), async p => { await p.close() })
    const committedReader = new RecordingHandlers()
    await newConsumer(uniqueName('g')).start([topic], new RoundRobinAssignor(), committedReader, 60_000)
    const dirtyFactory = testFactory({ groupReadCommitted: false })
    const dirtyReader = new RecordingHandlers()
    const dirty = cleanup.add(dirtyFactory.groupConsumer({ groupId: uniqueName('g'), clientId: uniqueName('c') }), async c => { await c.stop({ leaveGroup: true }) })
    await dirty.start([topic], new RoundRobinAssignor(), dirtyReader, 60_000)

    await tx.transactions!.begin()
    await tx.send([record(topic, 0, 't0'), record(topic, 0, 't1')]) // offsets 0, 1
    await waitFor('uncommitted records', () => dirtyReader.values().length === 2)
    expect(committedReader.values()).to.deep.equal([])
    await tx.transactions!.commit() // marker at 2

    await waitFor('position past the marker', () => dirtyReader.batches().at(-1)!.nextOffset === 3)
    expect(dirtyReader.batches().at(-1)).to.deep.include({ records: [], nextOffset: 3, highWatermark: 3 })
    await waitFor('committed records', () => committedReader.values().length === 2)
    // The marker comes with the records or, when fetched in between, in a batch of its own.
    await waitFor('committed position past the marker', () => committedReader.batches().at(-1)!.nextOffset === 3)
    expect(committedReader.batches().at(-1)).to.deep.include({ nextOffset: 3, highWatermark: 3 })
  })

  it('calls onIdle while idle, never at the same time as onBatch', async () => {
    const topic = await createTopic(admin, 2)
    const handlers = new RecordingHandlers()
    handlers.hooks.onBatch = async () => { await sleep(60) }
    handlers.hooks.onIdle = async () => { await sleep(60) }
    const consumer = newConsumer(uniqueName('g'))
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 100)
    await waitFor('idle calls', () => handlers.count('idle') >= 3)

    for (let i = 0; i < 10; i++) {
      await producer.send([record(topic, i % 2, `v${i}`)])
      await sleep(40)
    }
    // Distinct values: should the member crash and re-join, kafkajs reads again from the start.
    await waitFor('10 records', () => new Set(handlers.values()).size === 10, 20_000, () => handlers.summary())
    await waitFor('idle again', () => handlers.events.at(-1)!.type === 'idle')
    expect(handlers.maxActive).to.equal(1)
    const idles = handlers.events.filter(e => e.type === 'idle').map(e => e.at)
    for (let i = 1; i < idles.length; i++) expect(idles[i]! - idles[i - 1]!).to.be.at.least(90)
  })

  it('revokes and re-assigns on requestRebalance(), then keeps consuming', async () => {
    const topic = await createTopic(admin, 2)
    const handlers = new RecordingHandlers()
    const consumer = newConsumer(uniqueName('g'))
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)
    consumer.pause([{ topic, partition: 1 }])

    consumer.requestRebalance()
    await waitFor('re-assignment', () => handlers.count('assigned') === 2)
    const revoked = handlers.events.find(e => e.type === 'revoked')
    expect(revoked && partitionKeys(revoked.partitions)).to.deep.equal([`${topic}-0`, `${topic}-1`])
    // Pause state belonged to the old assignment.
    await producer.send([record(topic, 0, 'x'), record(topic, 1, 'y')])
    await waitFor('both', () => handlers.values().length === 2)
  })

  it('reports a handler error once through onFatal and calls no handler afterwards', async () => {
    const topic = await createTopic(admin, 1)
    const handlers = new RecordingHandlers()
    const boom = new Error('boom')
    handlers.hooks.onBatch = async () => { throw boom }
    const consumer = newConsumer(uniqueName('g'))
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 100)
    await producer.send([record(topic, 0, 'a'), record(topic, 0, 'b')])
    await waitFor('fatal', () => handlers.count('fatal') === 1)
    const after = handlers.events.length
    await sleep(500)
    expect(handlers.events.length).to.equal(after)
    expect(handlers.events.find(e => e.type === 'fatal')).to.deep.include({ error: boom })
    const error = await consumer.commit([{ topic, partition: 0, offset: 1 }]).then(() => undefined, (e: unknown) => e)
    expect((error as StreamsError).code).to.equal('ILLEGAL_STATE')
  })

  it('rejects start() with the error of a handler that failed during it, without onFatal', async () => {
    const topic = await createTopic(admin, 1)
    const handlers = new RecordingHandlers()
    const boom = new Error('assign failed')
    handlers.hooks.onAssigned = async () => { throw boom }
    const error = await newConsumer(uniqueName('g')).start([topic], new RoundRobinAssignor(), handlers, 100).then(() => undefined, (e: unknown) => e)
    expect(error).to.equal(boom)
    expect(handlers.count('fatal')).to.equal(0)
  })

  it('rejects start() for a missing topic, and calls before start() with ILLEGAL_STATE', async () => {
    const consumer = newConsumer(uniqueName('g'))
    expect(() => { consumer.requestRebalance() }).to.throw(StreamsError).with.property('code', 'ILLEGAL_STATE')
    const error = await consumer.start([uniqueName('kjs-missing')], new RoundRobinAssignor(), new RecordingHandlers(), 1000).then(() => undefined, (e: unknown) => e)
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('KAFKA')
  })
})
