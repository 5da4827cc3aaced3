/**
 * ProducerPort on kafkajs against a real broker: per-partition last offsets of a send, records
 * and headers as written, null header values refused, error names, and transactions as
 * READ_COMMITTED and READ_UNCOMMITTED readers see them, with offsets sent to a group.
 */
import { expect } from 'chai'
import { Headers, isKafkaError, type AdminPort, type FetchedRecord, type FetchPort, type KafkaClientFactory, type ProducerPort } from '@kstreams/core'
import { Cleanup, createTopic, describeWithBroker, readPartition, record, rejectionOf, testFactory, uniqueName, waitForEnd } from './kafka-test-env.js'

const values = (records: readonly FetchedRecord[]): string[] => records.map(r => r.value?.toString() ?? 'null')

describeWithBroker('kafkajs ProducerPort (broker)', function () {
  this.timeout(60_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort
  let fetcher: FetchPort

  beforeEach(() => {
    cleanup = new Cleanup()
    factory = testFactory()
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
    fetcher = cleanup.add(factory.fetcher({ clientId: uniqueName('fetcher') }), async f => { await f.close() })
  })
  afterEach(async () => { await cleanup.run() })

  const newProducer = (transactionalId?: string): ProducerPort =>
    cleanup.add(factory.producer({ clientId: uniqueName('p'), ...(transactionalId === undefined ? {} : { transactionalId }) }), async p => { await p.close() })

  it('returns the offset of the last record per partition, across topics, in one send', async () => {
    const a = await createTopic(admin, 2, 'a')
    const b = await createTopic(admin, 1, 'b')
    const producer = newProducer()

    const first = await producer.send([record(a, 0, 'a0'), record(a, 1, 'a1'), record(a, 0, 'a2'), record(b, 0, 'b0')])
    expect([...first].sort()).to.deep.equal([[`${a}-0`, 1], [`${a}-1`, 0], [`${b}-0`, 0]])
    const second = await producer.send([record(a, 0, 'a3'), record(a, 0, 'a4'), record(a, 0, 'a5')])
    expect([...second]).to.deep.equal([[`${a}-0`, 4]])
    expect((await producer.send([])).size).to.equal(0)
  })

  it('writes keys, values, timestamps and headers (repeated keys, empty values) as given', async () => {
    const topic = await createTopic(admin, 1)
    const headers = new Headers().add('h1', 'x').add('empty', Buffer.alloc(0)).add('h1', 'y')
    await newProducer().send([
      { topic, partition: 0, key: Buffer.from('k'), value: Buffer.from('v'), headers, timestamp: 1234 },
      { topic, partition: 0, key: null, value: null, headers: new Headers(), timestamp: 5678 }
    ])
    const [first, tombstone] = await readPartition(fetcher, topic, 0, 'READ_UNCOMMITTED')
    expect(first!.key?.toString()).to.equal('k')
    expect(first!.value?.toString()).to.equal('v')
    expect(first!.timestamp).to.equal(1234)
    expect(first!.offset).to.equal(0)
    expect(first!.headers.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal([['h1', 'x'], ['h1', 'y'], ['empty', '']])
    expect(tombstone).to.deep.include({ key: null, value: null, timestamp: 5678, offset: 1 })
  })

  it('refuses a record with a null header value (SERIALIZATION, naming topic and key) and sends nothing of that call', async () => {
    const topic = await createTopic(admin, 1)
    const producer = newProducer()
    const error = await rejectionOf(producer.send([record(topic, 0, 'fine'), record(topic, 0, 'bad', null, new Headers().add('ok', 'v').add('trace-id', null))]))
    expect((error as { code?: string }).code).to.equal('SERIALIZATION')
    expect((error as Error).message).to.include(topic).and.include('trace-id')
    // The producer still works, and nothing of the refused call was written.
    expect([...await producer.send([record(topic, 0, 'after')])]).to.deep.equal([[`${topic}-0`, 0]])
    expect(values(await readPartition(fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal(['after'])
  })

  it('fails with a KafkaRequestError for a partition the topic does not have', async () => {
    const topic = await createTopic(admin, 1)
    const error = await rejectionOf(newProducer().send([record(topic, 0, 'ok'), record(topic, 7, 'nope')]))
    expect(isKafkaError(error), String(error)).to.equal(true)
    expect((error as { code: string }).code).to.equal('KAFKA')
  })

  it('has no transactions without a transactional id, and refuses to send once closed', async () => {
    const producer = factory.producer({ clientId: uniqueName('p') })
    expect(producer.transactions).to.equal(undefined)
    await producer.close()
    await producer.close()
    const error = await rejectionOf(producer.send([record('x', 0, 'v')]))
    expect((error as { code: string }).code).to.equal('ILLEGAL_STATE')
  })

  it('commits and aborts transactions: READ_COMMITTED sees only committed records, READ_UNCOMMITTED sees all', async () => {
    const topic = await createTopic(admin, 1)
    const producer = newProducer(uniqueName('tx'))
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

    expect(values(await readPartition(fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['c1', 'c2', 'c3'])
    expect(values(await readPartition(fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal(['c1', 'c2', 'a1', 'c3'])
  })

  it('allows one open transaction at a time and no send outside one', async () => {
    const topic = await createTopic(admin, 1)
    const producer = newProducer(uniqueName('tx'))
    const tx = producer.transactions!
    expect((await rejectionOf(producer.send([record(topic, 0, 'v')])) as { code: string }).code).to.equal('ILLEGAL_STATE')
    expect((await rejectionOf(tx.commit()) as { code: string }).code).to.equal('ILLEGAL_STATE')

    await tx.begin()
    expect((await rejectionOf(tx.begin()) as { code: string }).code).to.equal('ILLEGAL_STATE')
    await tx.abort()
  })

  it('commits consumer offsets (with metadata) in the transaction (sendOffsets)', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    const producer = newProducer(uniqueName('tx'))
    const tx = producer.transactions!
    await tx.begin()
    await producer.send([record(topic, 0, 'v0'), record(topic, 0, 'v1'), record(topic, 0, 'v2')])
    await tx.sendOffsets(groupId, { generationId: -1, memberId: '' }, [{ topic, partition: 0, offset: 2, metadata: 'task-0_0' }, { topic, partition: 1, offset: 0 }])
    await tx.commit()

    const coordinator = cleanup.add(factory.groupCoordinator({ groupId, clientId: uniqueName('gc') }), async c => { await c.close() })
    const committed = await coordinator.fetchCommittedOffsets([{ topic, partition: 0 }, { topic, partition: 1 }])
    expect([...committed]).to.deep.equal([[`${topic}-0`, { offset: 2, metadata: 'task-0_0' }], [`${topic}-1`, { offset: 0, metadata: undefined }]])
    expect([...await admin.committedOffsets(groupId, [{ topic, partition: 0 }])]).to.deep.equal([[`${topic}-0`, 2]])
  })

  it('names the fencing of a producer by a newer one with the same transactional id', async () => {
    const topic = await createTopic(admin, 1)
    const transactionalId = uniqueName('tx')
    const old = newProducer(transactionalId)
    await old.transactions!.begin()
    await old.send([record(topic, 0, 'zombie')])

    const fresh = newProducer(transactionalId)
    await fresh.transactions!.begin()
    await fresh.send([record(topic, 0, 'owner')])
    await fresh.transactions!.commit()
    await waitForEnd(admin, topic, 0, 4) // zombie 0, abort marker 1, owner 2, commit marker 3

    const error = await rejectionOf(old.transactions!.commit())
    expect(isKafkaError(error, 'INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'), String(error)).to.equal(true)
    expect(values(await readPartition(fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['owner'])
  })
})
