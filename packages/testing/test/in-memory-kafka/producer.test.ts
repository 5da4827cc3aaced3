import { expect } from 'chai'
import { Headers, isPartitionError } from '@kstreams/core'
import type { FetchedBatch, FetchPort, IsolationLevel, ProducedRecord } from '@kstreams/core'
import { errorNameOf, formGroup, isSettled, manualKafka } from './helpers.js'

const record = (partition: number, value: string, topic = 't'): ProducedRecord => ({
  topic,
  partition,
  key: null,
  value: Buffer.from(value),
  headers: new Headers(),
  timestamp: 1
})

async function readAll(fetcher: FetchPort, isolationLevel: IsolationLevel, partition = 0): Promise<FetchedBatch> {
  const [b] = await fetcher.fetch({
    node: 1,
    partitions: [{ topic: 't', partition, offset: 0 }],
    isolationLevel,
    maxWaitMs: 0,
    maxBytes: 1 << 20,
    maxPartitionBytes: 1 << 20
  })
  if (b === undefined || isPartitionError(b)) throw new Error('expected a batch')
  return b
}
const values = (b: FetchedBatch): string[] => b.records.map(r => r.value!.toString())

describe('InMemoryKafka producer port', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (
    options: { transactionTimeoutMs?: number } = {}
  ): ReturnType<typeof manualKafka> & {
    factory: ReturnType<ReturnType<typeof manualKafka>['kafka']['clientFactory']>
    fetcher: FetchPort
  } => {
    const made = manualKafka()
    cleanup = () => made.kafka.close()
    made.kafka.createTopic('t', 2)
    const factory = made.kafka.clientFactory(options)
    return { ...made, factory, fetcher: factory.fetcher({ clientId: 'reader' }) }
  }

  it('send appends and answers the last offset of each partition; a non-transactional producer has no transactions', async () => {
    const { kafka, factory } = setup()
    const producer = factory.producer({ clientId: 'p' })
    expect(producer.transactions).to.equal(undefined)
    const result = await producer.send([record(0, 'a'), record(1, 'b'), record(0, 'c')])
    expect([...result]).to.deep.equal([
      ['t-0', 1],
      ['t-1', 0]
    ])
    expect(
      kafka
        .topic('t')
        .records(0)
        .map(r => r.value?.toString())
    ).to.deep.equal(['a', 'c'])
  })

  it('a send naming an unknown partition fails with UNKNOWN_TOPIC_OR_PARTITION and appends nothing', async () => {
    const { kafka, factory } = setup()
    const producer = factory.producer({ clientId: 'p' })
    expect(await errorNameOf(producer.send([record(0, 'a'), record(5, 'b')]))).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    expect(await errorNameOf(producer.send([record(0, 'a', 'missing')]))).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    expect(kafka.topic('t').highWatermark(0)).to.equal(0)
  })

  it('records of an open transaction are invisible to READ_COMMITTED and beyond its latest offset until commit; the marker takes an offset', async () => {
    const { kafka, factory, fetcher } = setup()
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    kafka.produce('t', { value: 'before', partition: 0 })
    await producer.transactions!.begin()
    await producer.send([record(0, 'in-tx-1'), record(0, 'in-tx-2')])
    kafka.produce('t', { value: 'after', partition: 0 })
    expect(values(await readAll(fetcher, 'READ_UNCOMMITTED'))).to.deep.equal(['before', 'in-tx-1', 'in-tx-2', 'after'])
    const committedView = await readAll(fetcher, 'READ_COMMITTED')
    expect(values(committedView)).to.deep.equal(['before'])
    expect(committedView).to.include({ highWatermark: 1, nextOffset: 1 })
    expect([...(await fetcher.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_COMMITTED'))]).to.deep.equal([['t-0', 1]])
    expect([...(await fetcher.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED'))]).to.deep.equal([['t-0', 4]])

    await producer.transactions!.commit()
    const after = await readAll(fetcher, 'READ_COMMITTED')
    expect(values(after)).to.deep.equal(['before', 'in-tx-1', 'in-tx-2', 'after'])
    expect(after).to.include({ highWatermark: 5, nextOffset: 5 })
    expect(
      kafka
        .topic('t')
        .records(0)
        .map(r => r.transaction)
    ).to.deep.equal([undefined, 'committed', 'committed', undefined])
  })

  it('a READ_COMMITTED fetch moves past a trailing marker with no records to return', async () => {
    const { factory, fetcher } = setup()
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'x')])
    await producer.transactions!.commit()
    const [b] = await fetcher.fetch({
      node: 1,
      partitions: [{ topic: 't', partition: 0, offset: 1 }],
      isolationLevel: 'READ_COMMITTED',
      maxWaitMs: 0,
      maxBytes: 1000,
      maxPartitionBytes: 1000
    })
    expect(b).to.deep.include({ records: [], nextOffset: 2, highWatermark: 2 })
  })

  it("abort removes the transaction's records from the READ_COMMITTED view only", async () => {
    const { kafka, factory, fetcher } = setup()
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'doomed'), record(1, 'doomed-too')])
    await producer.transactions!.abort()
    kafka.produce('t', { value: 'kept', partition: 0 })
    const committed = await readAll(fetcher, 'READ_COMMITTED')
    expect(values(committed)).to.deep.equal(['kept'])
    expect(committed).to.include({ nextOffset: 3, highWatermark: 3 })
    expect(values(await readAll(fetcher, 'READ_UNCOMMITTED'))).to.deep.equal(['doomed', 'kept'])
    expect(kafka.topic('t').records(1, { isolationLevel: 'READ_COMMITTED' })).to.deep.equal([])
    expect(
      kafka
        .topic('t')
        .records(1)
        .map(r => r.transaction)
    ).to.deep.equal(['aborted'])
  })

  it("sendOffsets commits the group's offsets only when the transaction commits; requireStable waits for it; abort drops them", async () => {
    const { kafka, scheduler, factory } = setup()
    const group = factory.groupCoordinator({ groupId: 'app', clientId: 'consumer' })
    const [joined] = await formGroup(scheduler, [group])
    const generation = { generationId: joined!.generationId, memberId: joined!.memberId }
    await group.commitOffsets(generation, [{ topic: 't', partition: 0, offset: 1 }])
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(1, 'out')])
    await producer.transactions!.sendOffsets('app', generation, [{ topic: 't', partition: 0, offset: 5, metadata: 'm' }])
    expect(kafka.group('app')?.committed.get('t-0')?.offset).to.equal(1)
    expect((await group.fetchCommittedOffsets([{ topic: 't', partition: 0 }])).get('t-0')?.offset).to.equal(1)
    const stable = group.fetchCommittedOffsets([{ topic: 't', partition: 0 }], { requireStable: true })
    expect(await isSettled(stable)).to.equal(false)
    await producer.transactions!.commit()
    expect((await stable).get('t-0')).to.deep.equal({ offset: 5, metadata: 'm' })

    await producer.transactions!.begin()
    await producer.transactions!.sendOffsets('app', generation, [{ topic: 't', partition: 0, offset: 9 }])
    await producer.transactions!.abort()
    expect(kafka.group('app')?.committed.get('t-0')?.offset).to.equal(5)
  })

  it('sendOffsets with a stale generation is ILLEGAL_GENERATION, and the transaction can then only be aborted', async () => {
    const { scheduler, factory } = setup()
    const group = factory.groupCoordinator({ groupId: 'app', clientId: 'consumer' })
    const [joined] = await formGroup(scheduler, [group])
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'x')])
    expect(
      await errorNameOf(
        producer.transactions!.sendOffsets('app', { generationId: 0, memberId: joined!.memberId }, [
          { topic: 't', partition: 0, offset: 1 }
        ])
      )
    ).to.equal('ILLEGAL_GENERATION')
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('INVALID_TXN_STATE')
    await producer.transactions!.abort()
    await producer.transactions!.begin()
  })

  it('sendOffsets and commit that failed with a retriable error may be sent again: the transaction stays open and commits (as Java retries them)', async () => {
    const { kafka, scheduler, factory, fetcher } = setup()
    const group = factory.groupCoordinator({ groupId: 'app', clientId: 'consumer' })
    const [joined] = await formGroup(scheduler, [group])
    const generation = { generationId: joined!.generationId, memberId: joined!.memberId }
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'x')])
    const offsets = [{ topic: 't', partition: 1, offset: 7 }]
    kafka.failNext({ api: 'sendOffsets', error: 'NOT_COORDINATOR' })
    expect(await errorNameOf(producer.transactions!.sendOffsets('app', generation, offsets))).to.equal('NOT_COORDINATOR')
    await producer.transactions!.sendOffsets('app', generation, offsets)
    kafka.failNext({ api: 'commitTransaction', error: 'COORDINATOR_LOAD_IN_PROGRESS' })
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('COORDINATOR_LOAD_IN_PROGRESS')
    // The answer of this one is lost: the coordinator committed, and the commit sent again finds nothing open.
    kafka.failNext({ api: 'commitTransaction', error: 'REQUEST_TIMED_OUT', afterProcessing: true })
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('REQUEST_TIMED_OUT')
    await producer.transactions!.commit()
    expect(values(await readAll(fetcher, 'READ_COMMITTED'))).to.deep.equal(['x'])
    expect(kafka.group('app')?.committed.get('t-1')?.offset).to.equal(7)
    await producer.transactions!.begin()
  })

  it('a newer producer with the same transactional id aborts the open transaction and fences the older one', async () => {
    const { kafka, factory, fetcher } = setup()
    const zombie = factory.producer({ clientId: 'old', transactionalId: 'tx-1' })
    await zombie.transactions!.begin()
    await zombie.send([record(0, 'zombie')])
    const fresh = factory.producer({ clientId: 'new', transactionalId: 'tx-1' })
    await fresh.transactions!.begin()
    expect(
      kafka
        .topic('t')
        .records(0)
        .map(r => r.transaction)
    ).to.deep.equal(['aborted'])
    expect(await errorNameOf(zombie.send([record(0, 'more')]))).to.equal('INVALID_PRODUCER_EPOCH')
    expect(await errorNameOf(zombie.transactions!.commit())).to.equal('PRODUCER_FENCED')
    expect(await errorNameOf(zombie.transactions!.begin())).to.equal('PRODUCER_FENCED')
    await fresh.send([record(0, 'fresh')])
    await fresh.transactions!.commit()
    expect(values(await readAll(fetcher, 'READ_COMMITTED'))).to.deep.equal(['fresh'])
  })

  it('send outside a transaction, commit without begin and a second begin are INVALID_TXN_STATE', async () => {
    const { factory } = setup()
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    expect(await errorNameOf(producer.send([record(0, 'x')]))).to.equal('INVALID_TXN_STATE')
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('INVALID_TXN_STATE')
    await producer.transactions!.begin()
    expect(await errorNameOf(producer.transactions!.begin())).to.equal('INVALID_TXN_STATE')
  })

  it('a commit whose answer was lost took effect, and retrying it succeeds', async () => {
    const { kafka, factory, fetcher } = setup()
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'x')])
    kafka.failNext({ api: 'commitTransaction', error: 'REQUEST_TIMED_OUT', afterProcessing: true })
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('REQUEST_TIMED_OUT')
    expect(values(await readAll(fetcher, 'READ_COMMITTED'))).to.deep.equal(['x'])
    await producer.transactions!.commit()
    await producer.transactions!.begin()
  })

  it('the coordinator aborts a transaction open longer than transaction.timeout.ms and fences its producer', async () => {
    const { kafka, scheduler, factory } = setup({ transactionTimeoutMs: 1000 })
    const producer = factory.producer({ clientId: 'p', transactionalId: 'tx-1' })
    await producer.transactions!.begin()
    await producer.send([record(0, 'slow')])
    scheduler.advance(999)
    expect(kafka.topic('t').lastStableOffset(0)).to.equal(0)
    scheduler.advance(1)
    expect(
      kafka
        .topic('t')
        .records(0)
        .map(r => r.transaction)
    ).to.deep.equal(['aborted'])
    expect(kafka.topic('t').lastStableOffset(0)).to.equal(2)
    expect(await errorNameOf(producer.transactions!.commit())).to.equal('PRODUCER_FENCED')
  })
})
