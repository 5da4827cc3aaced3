/**
 * Where a fetched partition's next fetch starts: past the end of the last record batch the
 * response covered (Java's `batch.nextOffset()`), which skips transaction markers, aborted data,
 * offsets removed by compaction and record batches compaction emptied. kafkajs' decoder returns
 * records only, so a batch without records (compaction keeps empty batches to remember a
 * producer's sequence) would be invisible and a reader positioned on one would never move:
 * `recordBatchEnds` reads the batch headers straight from the raw Fetch response.
 */
import { tpKey } from '@kstreams/core'
import type { RawMessage } from './kafkajs-internals.js'

/** Base offset (8) and length (4): a record batch (or legacy message) is BATCH_HEAD + length bytes. */
const BATCH_HEAD = 12
/** + partition leader epoch (4): the magic byte, at the same place in legacy messages (after their crc). */
const MAGIC_AT = 16
/** + magic (1), crc (4), attributes (2): last_offset_delta (int32), in record batches (magic 2). */
const LAST_OFFSET_DELTA_AT = 23

/**
 * The end (last offset + 1) of the last complete record batch of every partition in a raw Fetch
 * response body (after the correlation id), keyed by `topic-partition`; partitions without a
 * complete batch are absent. Versions 4 to 11 (the ones kafkajs can send to a Kafka 4 broker);
 * an empty map for others. A legacy message set entry (magic 0 or 1) ends at its offset + 1.
 */
export function recordBatchEnds(raw: Buffer, apiVersion: number): Map<string, number> {
  const ends = new Map<string, number>()
  if (apiVersion < 4 || apiVersion > 11) return ends
  try {
    readEnds(new ByteReader(raw), apiVersion, ends)
  } catch {
    // A response this reader does not understand: none of it is trusted; the records' own batch
    // offsets (nextOffsetAfter) still move the position.
    ends.clear()
  }
  return ends
}

function readEnds(reader: ByteReader, apiVersion: number, ends: Map<string, number>): void {
  reader.skip(4) // throttle_time_ms
  if (apiVersion >= 7) reader.skip(2 + 4) // error_code, session_id
  const topics = reader.int32()
  for (let t = 0; t < topics; t++) {
    const topic = reader.string()
    const partitions = reader.int32()
    for (let p = 0; p < partitions; p++) {
      const partition = reader.int32()
      reader.skip(2 + 8 + 8) // error_code, high_watermark, last_stable_offset
      if (apiVersion >= 5) reader.skip(8) // log_start_offset
      const aborted = reader.int32()
      if (aborted > 0) reader.skip(aborted * 16) // producer_id, first_offset
      if (apiVersion >= 11) reader.skip(4) // preferred_read_replica
      const size = reader.int32()
      if (size <= 0) continue
      const end = lastBatchEnd(reader.bytes(size))
      if (end !== undefined) ends.set(tpKey(topic, partition), end)
    }
  }
}

/**
 * Where the next fetch starts after these raw (unfiltered) records: past the end of the last
 * record batch they came from; the fetch offset when nothing came back.
 */
export function nextOffsetAfter(rawMessages: readonly RawMessage[], fetchedOffset: number): number {
  let next = fetchedOffset
  for (const message of rawMessages) {
    const context = message.batchContext
    const end = context === undefined ? Number(message.offset) + 1 : Number(context.firstOffset) + context.lastOffsetDelta + 1
    if (end > next) next = end
  }
  return next
}

function lastBatchEnd(records: Buffer): number | undefined {
  let end: number | undefined
  let at = 0
  while (at + BATCH_HEAD <= records.length) {
    const baseOffset = Number(records.readBigInt64BE(at))
    const length = records.readInt32BE(at + 8)
    if (length < 0 || at + BATCH_HEAD + length > records.length) break // a partial batch at the tail (max bytes)
    const magic = BATCH_HEAD + length > MAGIC_AT ? records.readInt8(at + MAGIC_AT) : -1
    end =
      magic === 2 && BATCH_HEAD + length >= LAST_OFFSET_DELTA_AT + 4
        ? baseOffset + records.readInt32BE(at + LAST_OFFSET_DELTA_AT) + 1
        : baseOffset + 1
    at += BATCH_HEAD + length
  }
  return end
}

/** Big-endian reads over a Buffer, failing with a RangeError past its end. */
class ByteReader {
  readonly #buffer: Buffer
  #at = 0

  constructor(buffer: Buffer) {
    this.#buffer = buffer
  }

  int32(): number {
    const value = this.#buffer.readInt32BE(this.#at)
    this.#at += 4
    return value
  }

  string(): string {
    const length = this.#buffer.readInt16BE(this.#at)
    this.#at += 2
    if (length < 0) return ''
    const value = this.#buffer.toString('utf8', this.#at, this.#at + length)
    this.#at += length
    return value
  }

  bytes(length: number): Buffer {
    if (this.#at + length > this.#buffer.length) throw new RangeError('record set past the end of the response')
    const bytes = this.#buffer.subarray(this.#at, this.#at + length)
    this.#at += length
    return bytes
  }

  skip(length: number): void {
    this.#at += length
  }
}
