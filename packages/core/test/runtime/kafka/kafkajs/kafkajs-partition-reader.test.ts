/**
 * PartitionReaderPort on kafkajs internals against a real broker: reading from given offsets (or
 * the earliest) to the end, positions past transaction markers and aborted data, out-of-range
 * reset, re-assignment, and closing.
 */
import { expect } from 'chai'
import { StreamsError } from '../../../../src/errors.js'
import type { AdminPort, FetchedBatch, KafkaClientFactory, PartitionReaderPort } from '../../../../src/runtime/kafka/ports.js'
import { Cleanup, createTopic, record, RecordingLogger, testFactory, uniqueName, waitForEnd } from './kafka-test-env.js'

/** Polls until every assigned partition's position reached its end; returns all batches. */
async function pollToEnd (reader: PartitionReaderPort, partitions: number, maxPolls = 40): Promise<FetchedBatch[]> {
  const batches: FetchedBatch[] = []
  const caughtUp = new Map<number, boolean>()
  for (let i = 0; i < maxPolls; i++) {
    const polled = await reader.poll(200)
    batches.push(...polled)
    for (const b of polled) caughtUp.set(b.partition, b.nextOffset >= b.highWatermark)
    if (caughtUp.size === partitions && [...caughtUp.values()].every(Boolean)) return batches
  }
  throw new Error(`did not reach the end: ${JSON.stringify([...caughtUp])}`)
}

const values = (batches: readonly FetchedBatch[], partition?: number): string[] =>
  batches.filter(b => partition === undefined || b.partition === partition).flatMap(b => b.records.map(r => r.value!.toString()))

describe('kafkajs PartitionReaderPort (broker)', function () {
  this.timeout(60_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort
  let logger: RecordingLogger

  beforeEach(() => {
    cleanup = new Cleanup()
    logger = new RecordingLogger()
    factory = testFactory({ logger })
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
  })
  afterEach(async () => { await cleanup.run() })

  const newReader = (readCommitted: boolean): PartitionReaderPort =>
    cleanup.add(factory.partitionReader({ clientId: uniqueName('reader'), readCommitted }), async r => { await r.close() })
  const newProducer = (transactionalId?: string) =>
    cleanup.add(factory.producer({ clientId: uniqueName('p'), ...(transactionalId === undefined ? {} : { transactionalId }) }), async p => { await p.close() })

  it('reads from the given offsets (earliest when undefined) to the end of each partition', async () => {
    const topic = await createTopic(admin, 2)
    await newProducer().send([0, 1, 2, 3, 4].map(i => record(topic, 0, `a${i}`)).concat([0, 1, 2].map(i => record(topic, 1, `b${i}`, `k${i}`))))
    const reader = newReader(false)
    reader.assign([{ topic, partition: 0, offset: 2 }, { topic, partition: 1, offset: undefined }])

    const batches = await pollToEnd(reader, 2)
    expect(values(batches, 0)).to.deep.equal(['a2', 'a3', 'a4'])
    expect(values(batches, 1)).to.deep.equal(['b0', 'b1', 'b2'])
    const p0 = batches.filter(b => b.partition === 0 && b.records.length > 0)
    expect(p0[0]!.records[0]).to.deep.include({ topic, partition: 0, offset: 2 })
    expect(p0.at(-1)).to.deep.include({ highWatermark: 5, nextOffset: 5 })
    expect(batches.find(b => b.partition === 1 && b.records.length > 0)!.records[0]!.key!.toString()).to.equal('k0')

    // Caught up: more polls return no records and keep the positions.
    const idle = await reader.poll(100)
    expect(idle.flatMap(b => b.records)).to.have.length(0)
    expect(idle.map(b => b.nextOffset).sort()).to.deep.equal([3, 5])
  })

  it('moves read_committed positions past commit markers and aborted transactions', async () => {
    const topic = await createTopic(admin, 1)
    const producer = newProducer(uniqueName('tx'))
    const tx = producer.transactions!
    await tx.begin(); await producer.send([record(topic, 0, 'c0'), record(topic, 0, 'c1')]); await tx.commit() // 0,1 + marker 2
    await tx.begin(); await producer.send([record(topic, 0, 'x0'), record(topic, 0, 'x1')]); await tx.abort() // 3,4 + marker 5
    await tx.begin(); await producer.send([record(topic, 0, 'c2')]); await tx.commit() // 6 + marker 7
    await waitForEnd(admin, topic, 0, 8)

    const reader = newReader(true)
    reader.assign([{ topic, partition: 0, offset: 0 }])
    const batches = await pollToEnd(reader, 1)
    expect(values(batches)).to.deep.equal(['c0', 'c1', 'c2'])
    expect(batches.flatMap(b => b.records.map(r => r.offset))).to.deep.equal([0, 1, 6])
    expect(batches.at(-1)).to.deep.include({ nextOffset: 8, highWatermark: 8 })

    // Starting right after the aborted records still ends past the last marker.
    reader.assign([{ topic, partition: 0, offset: 5 }])
    const tail = await pollToEnd(reader, 1)
    expect(values(tail)).to.deep.equal(['c2'])
    expect(tail.at(-1)!.nextOffset).to.equal(8)

    // read_uncommitted sees the aborted records, never the markers.
    const dirty = newReader(false)
    dirty.assign([{ topic, partition: 0, offset: 0 }])
    const all = await pollToEnd(dirty, 1)
    expect(values(all)).to.deep.equal(['c0', 'c1', 'x0', 'x1', 'c2'])
    expect(all.at(-1)!.nextOffset).to.equal(8)
  })

  it('reports the last stable offset as the end under read_committed while a transaction is open', async () => {
    const topic = await createTopic(admin, 1)
    await newProducer().send([record(topic, 0, 'plain')]) // offset 0
    const producer = newProducer(uniqueName('tx'))
    await producer.transactions!.begin()
    await producer.send([record(topic, 0, 'pending')]) // offset 1, not committed

    const reader = newReader(true)
    reader.assign([{ topic, partition: 0, offset: 0 }])
    const batches = await pollToEnd(reader, 1)
    expect(values(batches)).to.deep.equal(['plain'])
    expect(batches.at(-1)).to.deep.include({ nextOffset: 1, highWatermark: 1 })

    await producer.transactions!.commit()
    await waitForEnd(admin, topic, 0, 3)
    const after = await pollToEnd(reader, 1)
    expect(values(after)).to.deep.equal(['pending'])
    expect(after.at(-1)).to.deep.include({ nextOffset: 3, highWatermark: 3 })
  })

  it('resets an out-of-range position to the earliest offset and reports it', async () => {
    const topic = await createTopic(admin, 1)
    await newProducer().send([0, 1, 2, 3, 4, 5].map(i => record(topic, 0, `v${i}`)))
    await admin.deleteRecords([{ topic, partition: 0, offset: 3 }])

    const reader = newReader(false)
    reader.assign([{ topic, partition: 0, offset: 1 }]) // below the log start offset 3
    const first = await reader.poll(200)
    expect(first).to.have.length(1)
    expect(first[0]).to.deep.include({ records: [], nextOffset: 3, highWatermark: 6 })
    expect(logger.lines.some(l => l.level === 'warn' && l.message.includes('out of range'))).to.equal(true)
    expect(values(await pollToEnd(reader, 1))).to.deep.equal(['v3', 'v4', 'v5'])

    reader.assign([{ topic, partition: 0, offset: 100 }]) // beyond the end
    const beyond = await reader.poll(200)
    expect(beyond[0]).to.deep.include({ records: [], nextOffset: 3 })
  })

  it('replaces the assignment on assign() and waits out an empty assignment', async () => {
    const a = await createTopic(admin, 1, 'a')
    const b = await createTopic(admin, 1, 'b')
    await newProducer().send([record(a, 0, 'a0'), record(b, 0, 'b0'), record(b, 0, 'b1')])
    const reader = newReader(false)
    reader.assign([{ topic: a, partition: 0, offset: 0 }])
    expect(values(await pollToEnd(reader, 1))).to.deep.equal(['a0'])

    reader.assign([{ topic: b, partition: 0, offset: 1 }])
    const batches = await pollToEnd(reader, 1)
    expect(batches.every(x => x.topic === b)).to.equal(true)
    expect(values(batches)).to.deep.equal(['b1'])

    reader.assign([])
    const started = Date.now()
    expect(await reader.poll(150)).to.deep.equal([])
    expect(Date.now() - started).to.be.at.least(140)
  })

  it('fails with ILLEGAL_STATE after close, and with KAFKA for a missing topic', async () => {
    const reader = newReader(false)
    reader.assign([{ topic: uniqueName('kjs-missing'), partition: 0, offset: 0 }])
    const missing = await reader.poll(100).then(() => undefined, (e: unknown) => e)
    expect(missing).to.be.instanceOf(StreamsError)
    expect((missing as StreamsError).code).to.equal('KAFKA')

    await reader.close()
    expect(() => { reader.assign([]) }).to.throw(StreamsError).with.property('code', 'ILLEGAL_STATE')
    const closed = await reader.poll(10).then(() => undefined, (e: unknown) => e)
    expect((closed as StreamsError).code).to.equal('ILLEGAL_STATE')
  })
})
