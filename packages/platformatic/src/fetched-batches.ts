/**
 * Turns one partition of a Fetch answer (its record batches as the broker sent them, see
 * fetch-response.ts) into a FetchedBatch, the way Java's fetcher does: under READ_COMMITTED the
 * aborted transactions the broker lists are applied batch by batch (a producer's batches are
 * dropped from its aborted transaction's first offset until its abort marker, across the whole
 * answer), control batches never become records, records below the fetch offset (inside the
 * first batch) are left out, and the next offset is past the last whole batch the answer
 * carried, whatever was dropped. A batch cut short at the end of the answer is left for the
 * next fetch. The batch headers are read (and compressed batches decompressed with platformatic's
 * codecs) at once; the records are left undecoded, for the consumer's polls to decode as they
 * hand them out (`FetchedBatch.undecoded`): keys and values become views of the answer's bytes,
 * offsets and timestamps plain numbers (no BigInt per record).
 */
import type { FetchedBatch, FetchedRecord, RecordDecoder } from '@kstreams/core'
import { Headers, StreamsError } from '@kstreams/core'
import { compressionsAlgorithms } from '@platformatic/kafka'
import type { FetchedPartition } from './fetch-response.js'

const TIMESTAMP_LOG_APPEND_TIME = 0x08
const TRANSACTIONAL = 0x10
const CONTROL = 0x20
const COMPRESSION = 0x07
/** The type in a control record's key (version int16, type int16). */
const ABORT_MARKER = 0
/** Bytes of a record batch's header, up to its first record. */
const BATCH_HEADER = 61

/** The codecs by the compression bits of a batch's attributes. */
const CODECS = new Map<number, (data: Buffer) => Buffer>(
  Object.values(compressionsAlgorithms)
    .filter(c => c.bitmask !== 0)
    .map(c => [c.bitmask, (data: Buffer) => c.decompressSync(data)])
)

export function toFetchedBatch(topic: string, fetchOffset: number, data: FetchedPartition, readCommitted: boolean): FetchedBatch {
  const partition = data.partitionIndex
  const aborted = readCommitted
    ? [...(data.abortedTransactions ?? [])]
        .map(a => ({ producerId: Number(a.producerId), firstOffset: Number(a.firstOffset) }))
        .sort((a, b) => a.firstOffset - b.firstOffset)
    : []
  const abortedProducers = new Set<number>()
  let nextAborted = 0
  let nextOffset = fetchOffset
  const batches: BatchContext[] = []
  const bytes = data.records
  let at = 0
  while (bytes !== null && bytes.length - at >= BATCH_HEADER) {
    const end = at + 12 + bytes.readInt32BE(at + 8)
    if (end > bytes.length) break
    const magic = bytes.readInt8(at + 16)
    if (magic !== 2) {
      throw new StreamsError(
        'KAFKA',
        `A record batch of ${topic}-${partition} at offset ${int64(bytes, at)} has magic ${magic}; only the v2 record format (Kafka 0.11+) is read`
      )
    }
    const firstOffset = int64(bytes, at)
    const attributes = bytes.readInt16BE(at + 21)
    const lastOffset = firstOffset + bytes.readInt32BE(at + 23)
    nextOffset = Math.max(nextOffset, lastOffset + 1)
    const batchStart = at
    at = end
    const transactional = (attributes & TRANSACTIONAL) !== 0
    const control = (attributes & CONTROL) !== 0
    const producerId = int64(bytes, batchStart + 43)
    if (readCommitted && producerId >= 0) {
      while (nextAborted < aborted.length && aborted[nextAborted]!.firstOffset <= lastOffset)
        abortedProducers.add(aborted[nextAborted++]!.producerId)
      if (control && isAbortMarker(bytes, batchStart, end)) abortedProducers.delete(producerId)
      else if (transactional && abortedProducers.has(producerId)) continue
    }
    if (control || lastOffset < fetchOffset) continue
    const logAppendTime = (attributes & TIMESTAMP_LOG_APPEND_TIME) !== 0
    const firstTimestamp = int64(bytes, batchStart + (logAppendTime ? 35 : 27))
    const count = bytes.readInt32BE(batchStart + 57)
    const codec = attributes & COMPRESSION
    const body =
      codec === 0 ? bytes.subarray(batchStart + BATCH_HEADER, end) : decompress(codec, bytes.subarray(batchStart + BATCH_HEADER, end))
    batches.push({ topic, partition, firstOffset, firstTimestamp, logAppendTime, fetchOffset, body, count })
  }
  const lastStable = Number(data.lastStableOffset)
  return {
    topic,
    partition,
    records: [],
    ...(batches.length === 0 ? {} : { undecoded: new UndecodedRecords(batches) }),
    highWatermark: readCommitted && lastStable >= 0 ? lastStable : Number(data.highWatermark),
    nextOffset,
    logStartOffset: Number(data.logStartOffset)
  }
}

/** One record batch of the answer, with the records left to read. */
interface BatchContext {
  readonly topic: string
  readonly partition: number
  readonly firstOffset: number
  readonly firstTimestamp: number
  readonly logAppendTime: boolean
  readonly fetchOffset: number
  /** The records' bytes (decompressed). */
  readonly body: Buffer
  readonly count: number
}

/** The records of a fetched partition's record batches, read as the polls hand them out. */
class UndecodedRecords implements RecordDecoder {
  readonly #batches: BatchContext[]
  #index = 0
  #cursor: Cursor | undefined
  /** Records of the current batch not read yet. */
  #left = 0
  /** What reading failed with: the cursor is lost, so every later call throws it too. */
  #failure: unknown

  constructor(batches: BatchContext[]) {
    this.#batches = batches
  }

  next(max: number): FetchedRecord[] {
    if (this.#failure !== undefined) throw this.#failure
    try {
      return this.#read(max)
    } catch (err) {
      this.#failure = err
      throw err
    }
  }

  #read(max: number): FetchedRecord[] {
    const out: FetchedRecord[] = []
    while (out.length < max && this.#index < this.#batches.length) {
      const batch = this.#batches[this.#index]!
      if (this.#cursor === undefined) {
        this.#cursor = new Cursor(batch.body)
        this.#left = batch.count
      }
      this.#left = readRecords(this.#cursor, this.#left, max - out.length, batch, out)
      if (this.#left === 0) {
        this.#cursor = undefined
        this.#index++
      }
    }
    return out
  }
}

/**
 * Appends up to `max` records at or past the fetch offset from the batch's next `left` records
 * to `out`; returns how many of its records are left.
 */
function readRecords(cursor: Cursor, left: number, max: number, batch: BatchContext, out: FetchedRecord[]): number {
  const body = cursor.buffer
  let added = 0
  while (left > 0 && added < max) {
    left--
    const length = cursor.varint()
    const next = cursor.at + length
    cursor.at++ // attributes
    const timestampDelta = cursor.varlong()
    const offset = batch.firstOffset + cursor.varint()
    if (offset < batch.fetchOffset) {
      cursor.at = next
      continue
    }
    const key = cursor.bytes()
    const value = cursor.bytes()
    const headers = new Headers()
    const headerCount = cursor.varint()
    for (let h = 0; h < headerCount; h++) {
      const keyLength = cursor.varint()
      const headerKey = body.toString('utf8', cursor.at, cursor.at + keyLength)
      cursor.at += keyLength
      headers.add(headerKey, cursor.bytes())
    }
    cursor.at = next
    out.push({
      topic: batch.topic,
      partition: batch.partition,
      offset,
      timestamp: batch.logAppendTime ? batch.firstTimestamp : batch.firstTimestamp + timestampDelta,
      key,
      value,
      headers
    })
    added++
  }
  return left
}

/** Reads the varint fields of records (zig-zag, as Kafka writes them). */
class Cursor {
  at = 0
  constructor(readonly buffer: Buffer) {}

  varint(): number {
    const buffer = this.buffer
    let value = 0
    let shift = 0
    let byte: number
    do {
      byte = buffer[this.at++]!
      value |= (byte & 0x7f) << shift
      shift += 7
    } while (byte >= 0x80 && shift < 35)
    return (value >>> 1) ^ -(value & 1)
  }

  /** A varlong as a number (timestamp deltas may pass 32 bits). */
  varlong(): number {
    const buffer = this.buffer
    let value = 0
    let scale = 1
    let byte: number
    do {
      byte = buffer[this.at++]!
      value += (byte & 0x7f) * scale
      scale *= 128
    } while (byte >= 0x80 && scale < 2 ** 70)
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2
  }

  /** A length-prefixed byte string as a view; null for length -1. */
  bytes(): Buffer | null {
    const length = this.varint()
    if (length < 0) return null
    const start = this.at
    this.at += length
    return this.buffer.subarray(start, this.at)
  }
}

/** A big-endian int64 as a number (offsets, timestamps and producer ids stay below 2^53). */
function int64(bytes: Buffer, at: number): number {
  return bytes.readInt32BE(at) * 2 ** 32 + bytes.readUInt32BE(at + 4)
}

function decompress(codec: number, data: Buffer): Buffer {
  const decode = CODECS.get(codec)
  if (decode === undefined) throw new StreamsError('KAFKA', `A record batch uses compression codec ${codec}, which is not known`)
  return decode(data)
}

/** Whether a control batch is an abort marker: its first record's key is (version, type 0). */
function isAbortMarker(bytes: Buffer, batchStart: number, end: number): boolean {
  if (bytes.readInt32BE(batchStart + 57) < 1) return false
  const cursor = new Cursor(bytes.subarray(batchStart + BATCH_HEADER, end))
  cursor.varint() // length
  cursor.at++ // attributes
  cursor.varlong()
  cursor.varint()
  const key = cursor.bytes()
  return key !== null && key.length >= 4 && key.readInt16BE(2) === ABORT_MARKER
}
