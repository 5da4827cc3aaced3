/**
 * The decoding of one partition of a Fetch answer, without a broker, on batches shaped as
 * platformatic decodes them: Java's READ_COMMITTED rule (a producer's batches are dropped from
 * its aborted transaction's first offset until its abort marker, across batches of one answer,
 * also when the marker comes in a later answer), control batches never delivered, records below
 * the fetch offset left out, the next offset past every batch, LogAppendTime timestamps, and the
 * last stable offset as the end under READ_COMMITTED.
 */
import { expect } from 'chai'
import { toFetchedBatch } from '../src/fetched-batches.js'

type Partition = Parameters<typeof toFetchedBatch>[2]
type Batch = NonNullable<Partition['records']>[number]

const TRANSACTIONAL = 0x10
const CONTROL = 0x20
const LOG_APPEND_TIME = 0x08

function batch(
  firstOffset: number,
  values: string[],
  options: { producerId?: number; attributes?: number; firstTimestamp?: number; maxTimestamp?: number } = {}
): Batch {
  return {
    firstOffset: BigInt(firstOffset),
    length: 0,
    partitionLeaderEpoch: 0,
    magic: 2,
    crc: 0,
    attributes: options.attributes ?? 0,
    lastOffsetDelta: Math.max(values.length - 1, 0),
    firstTimestamp: BigInt(options.firstTimestamp ?? 1000),
    maxTimestamp: BigInt(options.maxTimestamp ?? 2000),
    producerId: BigInt(options.producerId ?? -1),
    producerEpoch: 0,
    firstSequence: 0,
    records: values.map((v, i) => ({
      length: 0,
      attributes: 0,
      timestampDelta: BigInt(i),
      offsetDelta: i,
      key: null,
      value: Buffer.from(v),
      headers: [[Buffer.from('h'), null]]
    }))
  }
}

function marker(offset: number, producerId: number, type: 'abort' | 'commit'): Batch {
  const key = Buffer.alloc(4)
  key.writeInt16BE(0, 0)
  key.writeInt16BE(type === 'abort' ? 0 : 1, 2)
  const b = batch(offset, ['marker'], { producerId, attributes: TRANSACTIONAL | CONTROL })
  return { ...b, records: [{ ...b.records[0]!, key }] }
}

function partition(records: Batch[], aborted: Array<[producerId: number, firstOffset: number]> = [], hw = 100, lso = 90): Partition {
  return {
    partitionIndex: 3,
    errorCode: 0,
    highWatermark: BigInt(hw),
    lastStableOffset: BigInt(lso),
    logStartOffset: 0n,
    abortedTransactions: aborted.map(([producerId, firstOffset]) => ({ producerId: BigInt(producerId), firstOffset: BigInt(firstOffset) })),
    preferredReadReplica: -1,
    records
  }
}

const values = (b: ReturnType<typeof toFetchedBatch>): string[] => b.records.map(r => r.value!.toString())
const txn = (offset: number, vals: string[], producerId: number): Batch => batch(offset, vals, { producerId, attributes: TRANSACTIONAL })

describe('Fetch answer decoding (fetched-batches)', () => {
  const answer = partition(
    [
      txn(0, ['c0', 'c1'], 7), // committed transaction of producer 7
      txn(2, ['a0', 'a1'], 8), // aborted transaction of producer 8
      batch(4, ['plain']), // not transactional
      marker(5, 8, 'abort'),
      marker(6, 7, 'commit'),
      txn(7, ['c2'], 8), // a later, committed transaction of producer 8 (its marker comes later)
      marker(8, 8, 'commit')
    ],
    [[8, 2]]
  )

  it('under READ_COMMITTED drops aborted batches until their abort marker and never delivers control records', () => {
    const b = toFetchedBatch('t', 0, answer, true)
    expect(values(b)).to.deep.equal(['c0', 'c1', 'plain', 'c2'])
    expect(b.records.map(r => r.offset)).to.deep.equal([0, 1, 4, 7])
    expect(b).to.deep.include({ topic: 't', partition: 3, nextOffset: 9, highWatermark: 90, logStartOffset: 0 })
    expect(b.records[0]!.headers.toArray().map(h => [h.key, h.value])).to.deep.equal([['h', null]])
  })

  it('under READ_UNCOMMITTED delivers every data record, still no control records, and the high watermark as the end', () => {
    const b = toFetchedBatch('t', 0, answer, false)
    expect(values(b)).to.deep.equal(['c0', 'c1', 'a0', 'a1', 'plain', 'c2'])
    expect(b).to.deep.include({ nextOffset: 9, highWatermark: 100 })
  })

  it('drops an aborted batch whose marker is not in this answer, and moves past it', () => {
    const b = toFetchedBatch('t', 2, partition([txn(2, ['a0', 'a1'], 8)], [[8, 2]]), true)
    expect(values(b)).to.deep.equal([])
    expect(b.nextOffset).to.equal(4)
  })

  it('leaves out records below the fetch offset inside the first batch, and keeps the position on an empty answer', () => {
    expect(values(toFetchedBatch('t', 1, partition([batch(0, ['x0', 'x1', 'x2'])]), false))).to.deep.equal(['x1', 'x2'])
    expect(toFetchedBatch('t', 42, partition([]), false)).to.deep.include({ records: [], nextOffset: 42 })
    expect(toFetchedBatch('t', 42, { ...partition([]), records: null }, true)).to.deep.include({
      records: [],
      nextOffset: 42,
      highWatermark: 90
    })
  })

  it("gives records their create time, or the batch's max timestamp under LogAppendTime", () => {
    expect(
      toFetchedBatch('t', 0, partition([batch(0, ['a', 'b'], { firstTimestamp: 500 })]), false).records.map(r => r.timestamp)
    ).to.deep.equal([500, 501])
    expect(
      toFetchedBatch('t', 0, partition([batch(0, ['a', 'b'], { attributes: LOG_APPEND_TIME, maxTimestamp: 9000 })]), false).records.map(
        r => r.timestamp
      )
    ).to.deep.equal([9000, 9000])
  })

  it('uses the high watermark under READ_COMMITTED when the broker gives no last stable offset', () => {
    expect(toFetchedBatch('t', 0, partition([], [], 10, -1), true).highWatermark).to.equal(10)
  })
})
