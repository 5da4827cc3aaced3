/**
 * The record batches the idempotent producer writes, read back by platformatic's own decoder
 * (an implementation independent of ours): every field of the batch header, each record's key,
 * value, timestamp and headers in order (null key, value and header value, empty values,
 * multi-byte header keys), timestamps before the first one and more than 2^31 ms after it
 * (varlong deltas), offset deltas past one varint byte, and the CRC-32C as platformatic's
 * JavaScript CRC computes it over the same bytes.
 */
import { expect } from 'chai'
import { Headers, type ProducedRecord } from '@kstreams/core'
import { jsCRC32C, Reader, readRecordsBatch } from '@platformatic/kafka'
import { compressRecordBatch, encodeRecordBatch } from '../src/record-batch.js'

const record = (key: string | null, value: string | null, timestamp: number, headers: Headers = new Headers()): ProducedRecord => ({
  topic: 't',
  partition: 0,
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  headers,
  timestamp
})

const text = (bytes: Buffer | null | undefined): string | null => (bytes === null || bytes === undefined ? null : bytes.toString('utf8'))

describe('record batches written by the idempotent producer', () => {
  it('are read back field by field by platformatic, CRC included', () => {
    const base = 1_700_000_000_000
    const records = [
      record('k1', 'v1', base, new Headers().add('a', '1').add('schlüssel', null).add('a', '2')),
      record(null, 'no key', base - 5),
      record('tombstone', null, base + 2 ** 33),
      record('', '', base + 1, new Headers().add('empty', Buffer.alloc(0)))
    ]
    for (let i = 0; i < 200; i++) records.push(record(`key-${i}`, 'x'.repeat(i * 10), base + i))
    const bytes = encodeRecordBatch(records, { producerId: 4242n, producerEpoch: 7, baseSequence: 2 ** 31 - 3, transactional: true })

    const batch = readRecordsBatch(Reader.from(bytes))
    expect(batch.firstOffset).to.equal(0n)
    expect(batch.length).to.equal(bytes.length - 12)
    expect(batch.partitionLeaderEpoch).to.equal(-1)
    expect(batch.magic).to.equal(2)
    expect(batch.attributes).to.equal(0x10)
    expect(batch.lastOffsetDelta).to.equal(records.length - 1)
    expect(batch.firstTimestamp).to.equal(BigInt(base))
    expect(batch.maxTimestamp).to.equal(BigInt(base + 2 ** 33))
    expect(batch.producerId).to.equal(4242n)
    expect(batch.producerEpoch).to.equal(7)
    expect(batch.firstSequence).to.equal(2 ** 31 - 3)
    expect(batch.crc).to.equal(jsCRC32C(bytes.subarray(21)))

    expect(batch.records).to.have.length(records.length)
    for (const [i, read] of batch.records.entries()) {
      const written = records[i]!
      expect(read.offsetDelta, `record ${i}`).to.equal(i)
      expect(read.attributes).to.equal(0)
      expect(BigInt(base) + read.timestampDelta, `timestamp of record ${i}`).to.equal(BigInt(written.timestamp))
      expect(text(read.key), `key of record ${i}`).to.equal(text(written.key))
      expect(text(read.value), `value of record ${i}`).to.equal(text(written.value))
      expect(read.headers.map(([k, v]) => [text(k), text(v)])).to.deep.equal(written.headers.toArray().map(h => [h.key, text(h.value)]))
    }
    // Null and empty are told apart (length -1 and 0).
    expect(batch.records[1]!.key).to.satisfy((k: Buffer | null | undefined) => k === null || k === undefined)
    expect(batch.records[3]!.key?.length).to.equal(0)
    expect(batch.records[2]!.value).to.satisfy((v: Buffer | null | undefined) => v === null || v === undefined)
  })

  it('are not transactional unless asked, and a batch of one record has offset delta 0', () => {
    const bytes = encodeRecordBatch([record('k', 'v', 5)], { producerId: 1n, producerEpoch: 0, baseSequence: 0, transactional: false })
    const batch = readRecordsBatch(Reader.from(bytes))
    expect(batch.attributes).to.equal(0)
    expect(batch.lastOffsetDelta).to.equal(0)
    expect(batch.firstTimestamp).to.equal(5n)
    expect(batch.maxTimestamp).to.equal(5n)
    expect(batch.crc).to.equal(jsCRC32C(bytes.subarray(21)))
  })

  for (const codec of ['gzip', 'snappy', 'lz4'] as const) {
    it(`compressed with ${codec} (compression.type) are read back by platformatic: codec bits, length, CRC and records`, () => {
      const records = Array.from({ length: 50 }, (_, i) => record(`key-${i}`, 'v'.repeat(1000), 1_000 + i))
      const plain = encodeRecordBatch(records, { producerId: 9n, producerEpoch: 1, baseSequence: 3, transactional: false })
      const bytes = compressRecordBatch(plain, codec)
      expect(bytes.length).to.be.below(plain.length / 5)
      const batch = readRecordsBatch(Reader.from(bytes))
      expect(batch.attributes & 0x07).to.equal({ gzip: 1, snappy: 2, lz4: 3 }[codec])
      expect(batch.length).to.equal(bytes.length - 12)
      expect(batch.crc).to.equal(jsCRC32C(bytes.subarray(21)))
      expect(batch.producerId).to.equal(9n)
      expect(batch.firstSequence).to.equal(3)
      expect(batch.records.map(r => text(r.key))).to.deep.equal(records.map(r => text(r.key)))
      expect(batch.records.every(r => text(r.value) === 'v'.repeat(1000))).to.equal(true)
    })
  }

  it("'none' leaves the batch as it is", () => {
    const plain = encodeRecordBatch([record('k', 'v', 5)], { producerId: 1n, producerEpoch: 0, baseSequence: 0, transactional: false })
    expect(compressRecordBatch(plain, 'none')).to.equal(plain)
  })
})
