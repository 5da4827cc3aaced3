import { expect } from 'chai'
import { Headers, isPartitionError } from '@kstreams/core'
import type { FetchedBatch, FetchPort, FetchRequest, PartitionError } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { isSettled, manualKafka } from './helpers.js'

const request = (partitions: FetchRequest['partitions'], overrides: Partial<FetchRequest> = {}): FetchRequest => ({
  node: 1,
  partitions,
  isolationLevel: 'READ_UNCOMMITTED',
  maxWaitMs: 500,
  maxBytes: 1 << 20,
  maxPartitionBytes: 1 << 20,
  ...overrides
})
const batch = (x: FetchedBatch | PartitionError | undefined): FetchedBatch => {
  if (x === undefined || isPartitionError(x)) expect.fail(`expected a batch, got ${x === undefined ? 'nothing' : x.error.message}`)
  return x
}
const errorOf = (x: FetchedBatch | PartitionError | undefined): string => {
  if (x === undefined || !isPartitionError(x)) expect.fail('expected a partition error')
  return x.error.errorName
}

describe('InMemoryKafka fetch port', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (options: Parameters<typeof manualKafka>[0] = {}): ReturnType<typeof manualKafka> & { fetcher: FetchPort } => {
    const made = manualKafka(options)
    cleanup = () => made.kafka.close()
    return { ...made, fetcher: made.kafka.clientFactory().fetcher({ clientId: 'fetcher' }) }
  }

  it('returns the records from the fetch offset with keys, values, headers and timestamps; nextOffset, high watermark and log start', async () => {
    const { kafka, fetcher } = setup()
    kafka.createTopic('t', 1)
    kafka.produce('t', [
      { key: 'k0', value: 'v0', timestamp: 10, headers: { h: 'x' } },
      { key: null, value: null, timestamp: 11, partition: 0 },
      { key: 'k2', value: 'v2', timestamp: 12, headers: new Headers().add('h', null) }
    ])
    const [b] = await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 1 }]))
    const got = batch(b)
    expect(got).to.include({ topic: 't', partition: 0, highWatermark: 3, nextOffset: 3, logStartOffset: 0 })
    expect(got.records.map(r => [r.offset, r.key?.toString() ?? null, r.value?.toString() ?? null, r.timestamp])).to.deep.equal([
      [1, null, null, 11],
      [2, 'k2', 'v2', 12]
    ])
    expect(got.records[1]!.headers.toArray()).to.deep.equal([{ key: 'h', value: null }])
    // Consumers get copies: changing them does not change the log.
    got.records[1]!.value![0] = 0
    expect(kafka.topic('t').records(0)[2]!.value?.toString()).to.equal('v2')
  })

  it('with nothing to return, waits maxWaitMs and answers an empty batch at the fetch offset', async () => {
    const { kafka, scheduler, fetcher } = setup()
    kafka.createTopic('t', 1)
    kafka.produce('t', { value: 'a' })
    const pending = fetcher.fetch(request([{ topic: 't', partition: 0, offset: 1 }], { maxWaitMs: 500 }))
    scheduler.advance(499)
    expect(await isSettled(pending)).to.equal(false)
    scheduler.advance(1)
    const got = batch((await pending)[0])
    expect(got).to.include({ nextOffset: 1, highWatermark: 1 })
    expect(got.records).to.deep.equal([])
  })

  it('a long poll is answered as soon as a record is produced (real timers)', async () => {
    const kafka = new InMemoryKafka()
    cleanup = () => kafka.close()
    kafka.createTopic('t', 2)
    const fetcher = kafka.clientFactory().fetcher({ clientId: 'f' })
    const started = Date.now()
    const pending = fetcher.fetch(
      request(
        [
          { topic: 't', partition: 0, offset: 0 },
          { topic: 't', partition: 1, offset: 0 }
        ],
        { maxWaitMs: 10_000 }
      )
    )
    await new Promise(resolve => setTimeout(resolve, 20))
    kafka.produce('t', { value: 'late', partition: 1 })
    const [p0, p1] = await pending
    expect(Date.now() - started).to.be.below(2000)
    expect(batch(p0).records).to.deep.equal([])
    expect(batch(p1).records.map(r => r.value?.toString())).to.deep.equal(['late'])
  })

  it('respects maxPartitionBytes and maxBytes, but always returns the first record of a response', async () => {
    const { kafka, fetcher } = setup()
    kafka.createTopic('t', 2)
    for (let i = 0; i < 4; i++)
      kafka.produce('t', [
        { value: Buffer.alloc(100), partition: 0 },
        { value: Buffer.alloc(100), partition: 1 }
      ])
    const [a0, a1] = await fetcher.fetch(
      request(
        [
          { topic: 't', partition: 0, offset: 0 },
          { topic: 't', partition: 1, offset: 0 }
        ],
        { maxPartitionBytes: 250 }
      )
    )
    expect(batch(a0).records.map(r => r.offset)).to.deep.equal([0, 1])
    expect(batch(a0).nextOffset).to.equal(2)
    expect(batch(a1).records.map(r => r.offset)).to.deep.equal([0, 1])
    const [b0, b1] = await fetcher.fetch(
      request(
        [
          { topic: 't', partition: 0, offset: 0 },
          { topic: 't', partition: 1, offset: 0 }
        ],
        { maxBytes: 10, maxPartitionBytes: 10 }
      )
    )
    expect(batch(b0).records.map(r => r.offset)).to.deep.equal([0])
    expect(batch(b1).records).to.deep.equal([])
    expect(batch(b1).nextOffset).to.equal(0)
  })

  it('OFFSET_OUT_OF_RANGE below the log start and above the high watermark, answered at once', async () => {
    const { kafka, fetcher } = setup()
    kafka.createTopic('t', 1)
    kafka.produce('t', [{ value: 'a' }, { value: 'b' }, { value: 'c' }])
    await kafka
      .clientFactory()
      .admin({ clientId: 'admin' })
      .deleteRecords([{ topic: 't', partition: 0, offset: 2 }])
    expect(kafka.topic('t').logStartOffset(0)).to.equal(2)
    expect(errorOf((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 1 }])))[0])).to.equal('OFFSET_OUT_OF_RANGE')
    expect(errorOf((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 4 }])))[0])).to.equal('OFFSET_OUT_OF_RANGE')
    const got = batch((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 2 }])))[0])
    expect(got).to.include({ logStartOffset: 2, nextOffset: 3 })
    expect(got.records.map(r => r.value?.toString())).to.deep.equal(['c'])
  })

  it('UNKNOWN_TOPIC_OR_PARTITION for an unknown topic or partition, beside the data of the others', async () => {
    const { kafka, fetcher } = setup()
    kafka.createTopic('t', 1)
    kafka.produce('t', { value: 'a' })
    const [unknownTopic, unknownPartition, known] = await fetcher.fetch(
      request([
        { topic: 'nope', partition: 0, offset: 0 },
        { topic: 't', partition: 3, offset: 0 },
        { topic: 't', partition: 0, offset: 0 }
      ])
    )
    expect(errorOf(unknownTopic)).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    expect(errorOf(unknownPartition)).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    expect(batch(known).records).to.have.length(1)
  })

  it('spreads leaders over the nodes; after moveLeader the old leader answers NOT_LEADER_OR_FOLLOWER and leaders() is stale until refreshed', async () => {
    const { kafka, fetcher } = setup({ nodes: 3 })
    expect(kafka.nodes).to.deep.equal([1, 2, 3])
    kafka.createTopic('t', 3)
    const tps = [0, 1, 2].map(partition => ({ topic: 't', partition }))
    const leaders = await fetcher.leaders(tps, false)
    expect(new Set(leaders.values())).to.deep.equal(new Set([1, 2, 3]))
    const leader = leaders.get('t-0')!
    kafka.produce('t', { value: 'a', partition: 0 })
    expect(batch((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 0 }], { node: leader })))[0]).records).to.have.length(1)

    const other = leader === 3 ? 1 : leader + 1
    kafka.moveLeader('t', 0, other)
    expect(kafka.topic('t').leader(0)).to.equal(other)
    expect(errorOf((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 0 }], { node: leader })))[0])).to.equal(
      'NOT_LEADER_OR_FOLLOWER'
    )
    expect((await fetcher.leaders([tps[0]!], false)).get('t-0')).to.equal(leader)
    expect((await fetcher.leaders([tps[0]!], true)).get('t-0')).to.equal(other)
    expect(batch((await fetcher.fetch(request([{ topic: 't', partition: 0, offset: 0 }], { node: other })))[0]).records).to.have.length(1)
    expect([...(await fetcher.leaders([{ topic: 'unknown', partition: 0 }], true))]).to.deep.equal([])
  })

  it("a fetch waiting at a partition's leader is answered NOT_LEADER_OR_FOLLOWER as soon as the leader moves", async () => {
    const { kafka, fetcher } = setup({ nodes: 2 })
    kafka.createTopic('t', 1)
    const leader = kafka.topic('t').leader(0)
    const pending = fetcher.fetch(request([{ topic: 't', partition: 0, offset: 0 }], { node: leader, maxWaitMs: 60_000 }))
    expect(await isSettled(pending)).to.equal(false)
    kafka.moveLeader('t', 0, leader === 1 ? 2 : 1)
    expect(errorOf((await pending)[0])).to.equal('NOT_LEADER_OR_FOLLOWER')
  })

  it('listOffsets: earliest is the log start, latest the high watermark; unknown partitions reject', async () => {
    const { kafka, fetcher } = setup()
    kafka.createTopic('t', 2)
    kafka.produce('t', [
      { value: 'a', partition: 0 },
      { value: 'b', partition: 0 },
      { value: 'c', partition: 1 }
    ])
    const tps = [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 }
    ]
    expect([...(await fetcher.listOffsets(tps, 'latest', 'READ_UNCOMMITTED'))]).to.deep.equal([
      ['t-0', 2],
      ['t-1', 1]
    ])
    await kafka
      .clientFactory()
      .admin({ clientId: 'admin' })
      .deleteRecords([{ topic: 't', partition: 0, offset: 1 }])
    expect([...(await fetcher.listOffsets(tps, 'earliest', 'READ_UNCOMMITTED'))]).to.deep.equal([
      ['t-0', 1],
      ['t-1', 0]
    ])
    const error = await fetcher
      .listOffsets([{ topic: 'x', partition: 0 }], 'latest', 'READ_UNCOMMITTED')
      .catch((e: { errorName: string }) => e.errorName)
    expect(error).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
  })
})
