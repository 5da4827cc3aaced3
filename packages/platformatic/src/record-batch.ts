/**
 * Kafka's record batch (magic 2, uncompressed) for one partition, written in one pass into one
 * Buffer whose size is known before writing: the sizes of every record are computed first, then
 * each field is written in place, and the CRC-32C is taken over the written bytes. What Java's
 * MemoryRecordsBuilder writes for an idempotent or transactional producer: base offset 0,
 * partition leader epoch -1, the first record's timestamp as the base timestamp, offset deltas
 * 0..n-1, varint lengths (-1 for a null key, value or header value).
 */
import type { ProducedRecord } from '@kstreams/core'
import { compressionsAlgorithms, crc32c } from '@platformatic/kafka'

/** The producer fields of a batch. */
export interface BatchProducer {
  readonly producerId: bigint
  readonly producerEpoch: number
  /** The sequence number of the batch's first record. */
  readonly baseSequence: number
  /** Whether the batch belongs to a transaction (attribute bit 4). */
  readonly transactional: boolean
}

/** Bytes from the start of the batch to the first record (61: the batch header). */
const HEADER_SIZE = 61
/** Where the CRC-covered part starts (the attributes), and where the CRC itself is. */
const ATTRIBUTES_AT = 21
const CRC_AT = 17
const TRANSACTIONAL = 0x10

/** The batch of `records` (all of one partition, in order); timestamps in ms. */
export function encodeRecordBatch(records: readonly ProducedRecord[], producer: BatchProducer): Buffer {
  const count = records.length
  const baseTimestamp = records[0]!.timestamp
  let maxTimestamp = baseTimestamp
  // Per record: the body size, then the UTF-8 size of each header key (in a shared list).
  const bodySizes = new Int32Array(count)
  const headerKeySizes: number[] = []
  let size = HEADER_SIZE
  for (let i = 0; i < count; i++) {
    const r = records[i]!
    if (r.timestamp > maxTimestamp) maxTimestamp = r.timestamp
    let body = 1 + varlongSize(r.timestamp - baseTimestamp) + varintSize(i)
    body += r.key === null ? 1 : varintSize(r.key.length) + r.key.length
    body += r.value === null ? 1 : varintSize(r.value.length) + r.value.length
    const headerCount = r.headers.size
    if (headerCount > 0) {
      for (const { key, value } of r.headers) {
        const keySize = Buffer.byteLength(key, 'utf8')
        headerKeySizes.push(keySize)
        body += varintSize(keySize) + keySize + (value === null ? 1 : varintSize(value.length) + value.length)
      }
    }
    body += varintSize(headerCount)
    bodySizes[i] = body
    size += varintSize(body) + body
  }
  const out = Buffer.allocUnsafe(size)
  out.writeBigInt64BE(0n, 0)
  out.writeInt32BE(size - 12, 8)
  out.writeInt32BE(-1, 12)
  out.writeInt8(2, 16)
  out.writeInt16BE(producer.transactional ? TRANSACTIONAL : 0, ATTRIBUTES_AT)
  out.writeInt32BE(count - 1, 23)
  out.writeBigInt64BE(BigInt(baseTimestamp), 27)
  out.writeBigInt64BE(BigInt(maxTimestamp), 35)
  out.writeBigInt64BE(producer.producerId, 43)
  out.writeInt16BE(producer.producerEpoch, 51)
  out.writeInt32BE(producer.baseSequence, 53)
  out.writeInt32BE(count, 57)
  let at = HEADER_SIZE
  let headerKey = 0
  for (let i = 0; i < count; i++) {
    const r = records[i]!
    at = writeVarint(out, at, bodySizes[i]!)
    out[at++] = 0
    at = writeVarlong(out, at, r.timestamp - baseTimestamp)
    at = writeVarint(out, at, i)
    at = writeBytes(out, at, r.key)
    at = writeBytes(out, at, r.value)
    const headerCount = r.headers.size
    at = writeVarint(out, at, headerCount)
    if (headerCount === 0) continue
    for (const { key, value } of r.headers) {
      const keySize = headerKeySizes[headerKey++]!
      at = writeVarint(out, at, keySize)
      at += out.write(key, at, keySize, 'utf8')
      at = writeBytes(out, at, value)
    }
  }
  if (at !== size) throw new Error(`record batch: wrote ${at} bytes, expected ${size}`)
  out.writeUInt32BE(crc32c(out.subarray(ATTRIBUTES_AT)), CRC_AT)
  return out
}

/**
 * `batch` (from encodeRecordBatch) with its records compressed by `codec` (the producer's
 * `compression.type`): the same header, the codec in the attributes' low bits, the records
 * section replaced by its compressed bytes, the length and CRC-32C written again. 'none' returns
 * the batch as it is.
 */
export function compressRecordBatch(batch: Buffer, codec: keyof typeof compressionsAlgorithms): Buffer {
  if (codec === 'none') return batch
  const algorithm = compressionsAlgorithms[codec]
  const compressed = algorithm.compressSync(batch.subarray(HEADER_SIZE)) as Buffer
  const out = Buffer.allocUnsafe(HEADER_SIZE + compressed.length)
  batch.copy(out, 0, 0, HEADER_SIZE)
  compressed.copy(out, HEADER_SIZE)
  out.writeInt32BE(out.length - 12, 8)
  out.writeInt16BE((batch.readInt16BE(ATTRIBUTES_AT) & ~0x07) | algorithm.bitmask, ATTRIBUTES_AT)
  out.writeUInt32BE(crc32c(out.subarray(ATTRIBUTES_AT)), CRC_AT)
  return out
}

/** A length-prefixed byte string; null as length -1. */
function writeBytes(out: Buffer, at: number, bytes: Buffer | null): number {
  if (bytes === null) return writeVarint(out, at, -1)
  at = writeVarint(out, at, bytes.length)
  bytes.copy(out, at)
  return at + bytes.length
}

/** Size of a zig-zag varint of a 32-bit integer. */
function varintSize(value: number): number {
  let v = ((value << 1) ^ (value >> 31)) >>> 0
  let size = 1
  while (v >= 0x80) {
    v >>>= 7
    size++
  }
  return size
}

function writeVarint(out: Buffer, at: number, value: number): number {
  let v = ((value << 1) ^ (value >> 31)) >>> 0
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80
    v >>>= 7
  }
  out[at++] = v
  return at
}

/** Zig-zag of a safe integer (a timestamp delta may pass 32 bits), as a non-negative number. */
const zigzag = (value: number): number => (value >= 0 ? value * 2 : -value * 2 - 1)

function varlongSize(value: number): number {
  let v = zigzag(value)
  let size = 1
  while (v >= 0x80) {
    v = Math.floor(v / 0x80)
    size++
  }
  return size
}

function writeVarlong(out: Buffer, at: number, value: number): number {
  let v = zigzag(value)
  while (v >= 0x80) {
    out[at++] = (v % 0x80) | 0x80
    v = Math.floor(v / 0x80)
  }
  out[at++] = v
  return at
}
