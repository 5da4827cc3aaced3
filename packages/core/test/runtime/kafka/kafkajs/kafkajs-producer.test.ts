/**
 * ProducerPort on kafkajs against a real broker: per-partition last offsets of a send, records
 * and headers as written, error codes, and transactions as read_committed and read_uncommitted
 * readers see them.
 */
import { expect } from 'chai'
import { StreamsError } from '../../../../src/errors.js'
import { Headers } from '../../../../src/record.js'
import type { AdminPort, FetchedBatch, FetchedRecord, KafkaClientFactory, PartitionReaderPort } from '../../../../src/runtime/kafka/ports.js'
import { RecordingHandlers, RoundRobinAssignor } from './group-test-doubles.js'
import { Cleanup, createTopic, record, testFactory, uniqueName, waitFor, waitForEnd } from './kafka-test-env.js'

async function readAll (reader: PartitionReaderPort, topic: string, partitions: number[]): Promise<FetchedRecord[]> {
  reader.assign(partitions.map(partition => ({ topic, partition, offset: 0 })))
  const records: FetchedRecord[] = []
  const done = new Set<number>()
  for (let i = 0; i < 50 && done.size < partitions.length; i++) {
    const batches: FetchedBatch[] = await reader.poll(200)
    for (const b of batches) {
      records.push(...b.records)
      if (b.nextOffset >= b.highWatermark) done.add(b.partition)
    }
  }
  return records
}

const values = (records: readonly FetchedRecord[]): string[] => records.map(r => r.value?.toString() ?? 'null')

describe('kafkajs ProducerPort (broker)', function () {
  this.timeout(60_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort

  beforeEach(() => {
    cleanup = new Cleanup()
    factory = testFactory()
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
  })
  afterEach(async () => { await cleanup.run() })

  it('returns the offset of the last record per partition, across topics, in one send', async () => {
    const a = await createTopic(admin, 2, 'a')
    const b = await createTopic(admin, 1, 'b')
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })

    const first = await producer.send([record(a, 0, 'a0'), record(a, 1, 'a1'), record(a, 0, 'a2'), record(b, 0, 'b0')])
    expect([...first].sort()).to.deep.equal([[`${a}-0`, 1], [`${a}-1`, 0], [`${b}-0`, 0]])
    const second = await producer.send([record(a, 0, 'a3'), record(a, 0, 'a4'), record(a, 0, 'a5')])
    expect([...second]).to.deep.equal([[`${a}-0`, 4]])
    expect((await producer.send([])).size).to.equal(0)
  })

  it('writes keys, values, timestamps and headers (null and repeated values too) as given', async () => {
    const topic = await createTopic(admin, 1)
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })
    const headers = new Headers().add('h1', 'x').add('nil', null).add('h1', 'y')
    await producer.send([
      { topic, partition: 0, key: Buffer.from('k'), value: Buffer.from('v'), headers, timestamp: 1234 },
      { topic, partition: 0, key: null, value: null, headers: new Headers(), timestamp: 5678 }
    ])
    const reader = cleanup.add(factory.partitionReader({ clientId: uniqueName('r'), readCommitted: false }), async r => { await r.close() })
    const [first, tombstone] = await readAll(reader, topic, [0])
    expect(first!.key?.toString()).to.equal('k')
    expect(first!.value?.toString()).to.equal('v')
    expect(first!.timestamp).to.equal(1234)
    expect(first!.offset).to.equal(0)
    expect(first!.headers.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal([['h1', 'x'], ['h1', 'y'], ['nil', null]])
    expect(tombstone).to.deep.include({ key: null, value: null, timestamp: 5678, offset: 1 })
  })

  it('fails with code KAFKA for a partition the topic does not have', async () => {
    const topic = await createTopic(admin, 1)
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })
    const error = await producer.send([record(topic, 0, 'ok'), record(topic, 7, 'nope')]).then(() => undefined, (e: unknown) => e)
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('KAFKA')
  })

  it('has no transactions without a transactional id, and refuses to send once closed', async () => {
    const producer = factory.producer({ clientId: uniqueName('p') })
    expect(producer.transactions).to.equal(undefined)
    await producer.close()
    const error = await producer.send([record('x', 0, 'v')]).then(() => undefined, (e: unknown) => e)
    expect((error as StreamsError).code).to.equal('ILLEGAL_STATE')
  })

  it('commits and aborts transactions: read_committed sees only committed records, read_uncommitted sees all', async () => {
    const topic = await createTopic(admin, 1)
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p'), transactionalId: uniqueName('tx') }), async p => { await p.close() })
    const tx = producer.transactions!

    await tx.begin()
    const sent = await producer.send([record(topic, 0, 'c1'), record(topic, 0, 'c2')])
    expect(sent.get(`${topic}-0`)).to.equal(1)
    await tx.commit()
    await tx.begin()
    await producer.send([record(topic, 0, 'a1')])
    await tx.abort()
    await tx.begin()
    await producer.send([record(topic, 0, 'c3')])
    await tx.commit()
    await waitForEnd(admin, topic, 0, 7)

    const committed = cleanup.add(factory.partitionReader({ clientId: uniqueName('rc'), readCommitted: true }), async r => { await r.close() })
    expect(values(await readAll(committed, topic, [0]))).to.deep.equal(['c1', 'c2', 'c3'])
    const uncommitted = cleanup.add(factory.partitionReader({ clientId: uniqueName('ru'), readCommitted: false }), async r => { await r.close() })
    expect(values(await readAll(uncommitted, topic, [0]))).to.deep.equal(['c1', 'c2', 'a1', 'c3'])
  })

  it('allows one open transaction at a time and no send outside one', async () => {
    const topic = await createTopic(admin, 1)
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p'), transactionalId: uniqueName('tx') }), async p => { await p.close() })
    const tx = producer.transactions!
    const outside = await producer.send([record(topic, 0, 'v')]).then(() => undefined, (e: unknown) => e)
    expect((outside as StreamsError).code).to.equal('ILLEGAL_STATE')
    const noCommit = await tx.commit().then(() => undefined, (e: unknown) => e)
    expect((noCommit as StreamsError).code).to.equal('ILLEGAL_STATE')

    await tx.begin()
    const twice = await tx.begin().then(() => undefined, (e: unknown) => e)
    expect((twice as StreamsError).code).to.equal('ILLEGAL_STATE')
    await tx.abort()
  })

  it('commits consumer offsets with the transaction (sendOffsets)', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p'), transactionalId: uniqueName('tx') }), async p => { await p.close() })
    const tx = producer.transactions!
    await tx.begin()
    await producer.send([record(topic, 0, 'v0'), record(topic, 0, 'v1'), record(topic, 0, 'v2')])
    await tx.sendOffsets(groupId, [{ topic, partition: 0, offset: 2 }, { topic, partition: 1, offset: 0 }])
    await tx.commit()

    // A member of that group sees the offsets as committed and starts from them.
    const consumer = cleanup.add(factory.groupConsumer({ groupId, clientId: uniqueName('c') }), async c => { await c.stop({ leaveGroup: true }) })
    const handlers = new RecordingHandlers()
    await consumer.start([topic], new RoundRobinAssignor(), handlers, 60_000)
    const committed = await consumer.committed([{ topic, partition: 0 }, { topic, partition: 1 }])
    expect(committed.get(`${topic}-0`)?.offset).to.equal(2)
    expect(committed.get(`${topic}-1`)?.offset).to.equal(0)
    await waitFor('v2', () => handlers.values().length === 1)
    expect(handlers.values()).to.deep.equal(['v2'])
  })

  it('turns fencing by a newer producer with the same transactional id into TASK_MIGRATED', async () => {
    const topic = await createTopic(admin, 1)
    const transactionalId = uniqueName('tx')
    const old = cleanup.add(factory.producer({ clientId: uniqueName('old'), transactionalId }), async p => { await p.close() })
    await old.transactions!.begin()
    await old.send([record(topic, 0, 'zombie')])

    const fresh = cleanup.add(factory.producer({ clientId: uniqueName('new'), transactionalId }), async p => { await p.close() })
    await fresh.transactions!.begin()
    await fresh.send([record(topic, 0, 'owner')])
    await fresh.transactions!.commit()
    await waitForEnd(admin, topic, 0, 4) // zombie 0, abort marker 1, owner 2, commit marker 3

    const error = await old.transactions!.commit().then(() => undefined, (e: unknown) => e)
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal('TASK_MIGRATED')

    const reader = cleanup.add(factory.partitionReader({ clientId: uniqueName('r'), readCommitted: true }), async r => { await r.close() })
    expect(values(await readAll(reader, topic, [0]))).to.deep.equal(['owner'])
  })
})
