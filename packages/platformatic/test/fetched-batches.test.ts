/**
 * The decoding of one partition of a Fetch answer, without a broker, on record batches as the
 * broker sends them (written by the producer's encoder, and by platformatic's): Java's
 * READ_COMMITTED rule (a producer's batches are dropped from its aborted transaction's first
 * offset until its abort marker, across batches of one answer, also when the marker comes in a
 * later answer), control batches never delivered, records below
 * the fetch offset left out, the next offset past every whole batch (a batch cut short is left
 * for the next fetch), LogAppendTime timestamps, compressed batches, and the last stable offset
 * as the end under READ_COMMITTED. The records are decoded as the consumer's polls take them, a
 * few at a time, across the answer's batches. A batch that cannot be decoded (corrupt compressed
 * bytes, an undefined codec, an old record format, records past the batch's end) is never
 * skipped: the batches before it go out, and then the polls fail with a RecordBatchDecodeError
 * naming its codec, partition and offset.
 */
import { expect } from 'chai'
import { decodedRecords, Headers, RecordBatchDecodeError } from '@kstreams/core'
import { createRecordsBatch } from '@platformatic/kafka'
import type { FetchedBatch } from '@kstreams/core'
import type { FetchedPartition } from '../src/fetch-response.js'
import { toFetchedBatch as undecodedBatch } from '../src/fetched-batches.js'
import { compressRecordBatch, encodeRecordBatch } from '../src/record-batch.js'

const TRANSACTIONAL = 0x10
const CONTROL = 0x20
const LOG_APPEND_TIME = 0x08

/** A record batch as the broker sends it: written by the producer's encoder, then given its offset and attributes. */
function batch(
  firstOffset: number,
  values: string[],
  options: { producerId?: number; attributes?: number; firstTimestamp?: number; maxTimestamp?: number; key?: Buffer } = {}
): Buffer {
  const first = options.firstTimestamp ?? 1000
  const bytes = encodeRecordBatch(
    values.map((v, i) => ({
      topic: 't',
      partition: 3,
      key: i === 0 && options.key !== undefined ? options.key : null,
      value: Buffer.from(v),
      headers: new Headers().add('h', null),
      timestamp: first + i
    })),
    { producerId: BigInt(options.producerId ?? -1), producerEpoch: 0, baseSequence: 0, transactional: false }
  )
  bytes.writeBigInt64BE(BigInt(firstOffset), 0)
  bytes.writeInt16BE(options.attributes ?? 0, 21)
  if (options.maxTimestamp !== undefined) bytes.writeBigInt64BE(BigInt(options.maxTimestamp), 35)
  return bytes
}

function marker(offset: number, producerId: number, type: 'abort' | 'commit'): Buffer {
  const key = Buffer.alloc(4)
  key.writeInt16BE(0, 0)
  key.writeInt16BE(type === 'abort' ? 0 : 1, 2)
  return batch(offset, ['marker'], { producerId, attributes: TRANSACTIONAL | CONTROL, key })
}

function partition(
  batches: Buffer[],
  aborted: Array<[producerId: number, firstOffset: number]> = [],
  hw = 100,
  lso = 90
): FetchedPartition {
  return {
    partitionIndex: 3,
    errorCode: 0,
    highWatermark: BigInt(hw),
    lastStableOffset: BigInt(lso),
    logStartOffset: 0n,
    abortedTransactions: aborted.map(([producerId, firstOffset]) => ({ producerId: BigInt(producerId), firstOffset: BigInt(firstOffset) })),
    records: Buffer.concat(batches)
  }
}

/** The batch with every record decoded. */
function toFetchedBatch(...args: Parameters<typeof undecodedBatch>): FetchedBatch {
  const b = undecodedBatch(...args)
  return { ...b, records: decodedRecords(b) }
}

const values = (b: FetchedBatch): string[] => b.records.map(r => r.value!.toString())
const txn = (offset: number, vals: string[], producerId: number): Buffer => batch(offset, vals, { producerId, attributes: TRANSACTIONAL })

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

  it('leaves a batch cut short at the end of the answer for the next fetch', () => {
    const whole = batch(0, ['a', 'b'])
    const cut = batch(2, ['c', 'd'])
    for (const length of [10, 61, cut.length - 1]) {
      const b = toFetchedBatch('t', 0, partition([whole, cut.subarray(0, length)]), false)
      expect(values(b), `cut at ${length}`).to.deep.equal(['a', 'b'])
      expect(b.nextOffset).to.equal(2)
    }
  })

  it('reads batches written by platformatic, gzip-compressed ones too, with their keys, headers and timestamps', () => {
    const messages = (prefix: string) =>
      [0, 1, 2].map(i => ({
        topic: 't',
        partition: 3,
        key: Buffer.from(`${prefix}k${i}`),
        value: Buffer.from(`${prefix}v${i}`),
        headers: new Map([[Buffer.from('hk'), Buffer.from(`${prefix}h${i}`)]]),
        timestamp: BigInt(7000 + i * 1000)
      }))
    const plain = createRecordsBatch(messages('p'), {}).buffer
    const gzipped = createRecordsBatch(messages('z'), { compression: 'gzip' }).buffer
    gzipped.writeBigInt64BE(3n, 0)
    const b = toFetchedBatch('t', 1, partition([plain, gzipped]), false)
    expect(
      b.records.map(r => [r.offset, r.key?.toString(), r.value?.toString(), r.timestamp, r.headers.lastHeader('hk')?.value?.toString()])
    ).to.deep.equal([
      [1, 'pk1', 'pv1', 8000, 'ph1'],
      [2, 'pk2', 'pv2', 9000, 'ph2'],
      [3, 'zk0', 'zv0', 7000, 'zh0'],
      [4, 'zk1', 'zv1', 8000, 'zh1'],
      [5, 'zk2', 'zv2', 9000, 'zh2']
    ])
    expect(b.nextOffset).to.equal(6)
  })

  it('reads timestamp deltas past 32 bits and before the first timestamp, and null keys and values', () => {
    const base = 1_700_000_000_000
    const bytes = encodeRecordBatch(
      [base, base + 2 ** 33 + 5, base - 3].map((timestamp, i) => ({
        topic: 't',
        partition: 3,
        key: i === 1 ? null : Buffer.from(`k${i}`),
        value: i === 2 ? null : Buffer.from(`v${i}`),
        headers: new Headers(),
        timestamp
      })),
      { producerId: 1n, producerEpoch: 0, baseSequence: 0, transactional: false }
    )
    const b = toFetchedBatch('t', 0, partition([bytes]), false)
    expect(b.records.map(r => [r.timestamp, r.key?.toString() ?? null, r.value?.toString() ?? null])).to.deep.equal([
      [base, 'k0', 'v0'],
      [base + 2 ** 33 + 5, null, 'v1'],
      [base - 3, 'k2', null]
    ])
  })

  it('decodes nothing up front; the records come as asked for, across batches, fewer only at the end', () => {
    const b = undecodedBatch('t', 1, partition([batch(0, ['x0', 'x1', 'x2']), batch(3, ['y0', 'y1']), batch(5, ['z0'])]), false)
    expect(b.records).to.deep.equal([])
    expect(b.nextOffset).to.equal(6)
    const taken: string[][] = []
    for (const max of [1, 2, 3, 3]) taken.push(b.undecoded!.next(max).map(r => `${r.offset}:${r.value!.toString()}`))
    expect(taken).to.deep.equal([['1:x1'], ['2:x2', '3:y0'], ['4:y1', '5:z0'], []])
    expect(undecodedBatch('t', 0, partition([]), false).undecoded).to.equal(undefined)
  })

  it('uses the high watermark under READ_COMMITTED when the broker gives no last stable offset', () => {
    expect(toFetchedBatch('t', 0, partition([], [], 10, -1), true).highWatermark).to.equal(10)
  })

  describe('a batch that cannot be decoded', () => {
    /** `bytes` with the byte at `at` (from the batch's start) changed; the CRC is not checked. */
    const corrupt = (bytes: Buffer, at: number): Buffer => {
      const out = Buffer.from(bytes)
      out[at] = out[at]! ^ 0xff
      return out
    }
    const decodeError = (b: FetchedBatch): RecordBatchDecodeError => {
      try {
        decodedRecords(b)
      } catch (error) {
        expect(error).to.be.instanceOf(RecordBatchDecodeError)
        return error as RecordBatchDecodeError
      }
      throw new Error('the records were decoded')
    }

    for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      it(`${codec}: the batches before it go out, the next fetch starts at it, and there the polls fail naming it`, () => {
        const compressed = compressRecordBatch(batch(2, ['c0', 'c1', 'c2']), codec)
        // Compressed data starts at byte 61: break its header (gzip, lz4 and zstd magic; snappy's length).
        const broken = corrupt(compressed, 61)
        const answer = partition([batch(0, ['a', 'b']), broken, batch(5, ['after'])])
        const first = toFetchedBatch('orders', 0, answer, false)
        expect(values(first)).to.deep.equal(['a', 'b'])
        expect(first.nextOffset).to.equal(2)

        const second = undecodedBatch('orders', 2, answer, false)
        expect(second.records).to.deep.equal([])
        expect(second.nextOffset).to.equal(2)
        const error = decodeError(second)
        expect(error).to.include({ code: 'KAFKA', topic: 'orders', partition: 3, offset: 2, codec })
        expect(error.message).to.include('orders-3').and.include('offset 2').and.include(codec)
        expect(error.cause).to.be.instanceOf(Error)
        // Asked again, it fails again: the batch is never skipped.
        expect(decodeError(second)).to.equal(error)
      })
    }

    it('names a compression codec Kafka does not define, and an old record format', () => {
      const unknownCodec = batch(7, ['x'], { attributes: 5 })
      expect(decodeError(undecodedBatch('t', 7, partition([unknownCodec]), false))).to.include({ offset: 7, codec: 'codec 5' })
      const magic1 = batch(9, ['x'])
      magic1.writeInt8(1, 16)
      const error = decodeError(undecodedBatch('t', 9, partition([magic1]), false))
      expect(error).to.include({ offset: 9, codec: 'none' })
      expect(error.message).to.include('magic 1')
    })

    it('fails on records that run past their batch, naming the batch', () => {
      const bytes = batch(4, ['abc', 'def'])
      bytes.writeInt8(0x7e, 61) // the first record's length varint: 63 bytes, past the batch's end
      const error = decodeError(undecodedBatch('t', 4, partition([bytes]), false))
      expect(error).to.include({ topic: 't', partition: 3, offset: 4, codec: 'none' })
    })
  })
})
