/**
 * The size a record takes on the wire, as the Java producer estimates it before a send
 * (`AbstractRecords.estimateSizeInBytesUpperBound` for the v2 format): the record batch header,
 * the record's varint fields at their largest, key, value and every header's key and value. It
 * is what max.request.size and a topic's max.message.bytes are checked against. @internal
 */
import type { Headers } from '../record.js'

/** Kafka's RECORD_BATCH_OVERHEAD (v2): base offset, length, epoch, magic, CRC, attributes, ... */
const RECORD_BATCH_OVERHEAD = 61
/** Kafka's DefaultRecord.MAX_RECORD_OVERHEAD: length, attributes, timestamp and offset deltas at their largest. */
const MAX_RECORD_OVERHEAD = 21

function varintSize(value: number): number {
  // Zig-zag encoded, as Kafka writes record fields.
  let v = value >= 0 ? value * 2 : -value * 2 - 1
  let bytes = 1
  while (v >= 0x80) {
    v = Math.floor(v / 128)
    bytes++
  }
  return bytes
}

/** Bytes of one record sent alone in a batch (an upper bound, as the Java producer counts it). */
export function recordSizeUpperBound(record: {
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
}): number {
  const keySize = record.key?.length ?? -1
  const valueSize = record.value?.length ?? -1
  let size = varintSize(keySize) + Math.max(keySize, 0) + varintSize(valueSize) + Math.max(valueSize, 0)
  let count = 0
  for (const header of record.headers) {
    const keyBytes = Buffer.byteLength(header.key, 'utf8')
    const valueBytes = header.value?.length ?? -1
    size += varintSize(keyBytes) + keyBytes + varintSize(valueBytes) + Math.max(valueBytes, 0)
    count++
  }
  size += varintSize(count)
  return RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + size
}
