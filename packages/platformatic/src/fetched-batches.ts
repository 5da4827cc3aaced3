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
 * offsets and timestamps plain numbers (no BigInt per record). A batch that cannot be decoded (a
 * codec that fails on its bytes, a compression or record format not known here, records that
 * cannot be read) is never skipped: the records before it go out and the next fetch starts at
 * it; when it is the first, the records' decoder throws a RecordBatchDecodeError naming its
 * codec, partition and offset, which fails the consumer's poll.
 */
import type { FetchedBatch, FetchedRecord, RecordDecoder } from '@kstreams/core'
import { Headers, RecordBatchDecodeError } from '@kstreams/core'
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
  /** The first batch that could not be decoded. */
  let failure: { offset: number; attributes: number; cause: unknown } | undefined
  let at = 0
  while (bytes !== null && bytes.length - at >= BATCH_HEADER) {
    const end = at + 12 + bytes.readInt32BE(at + 8)
    if (end > bytes.length) break
    const firstOffset = int64(bytes, at)
    const magic = bytes.readInt8(at + 16)
    if (magic !== 2) {
      const cause = new Error(`it has magic ${magic}; only the v2 record format (Kafka 0.11+) is read`)
      failure = { offset: firstOffset, attributes: 0, cause }
      break
    }
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
    let body = bytes.subarray(batchStart + BATCH_HEADER, end)
    try {
      if (codec !== 0) body = decompress(codec, body)
    } catch (cause) {
      failure = { offset: firstOffset, attributes, cause }
      break
    }
    batches.push({ topic, partition, firstOffset, firstTimestamp, logAppendTime, attributes, fetchOffset, body, count })
  }
  const lastStable = Number(data.lastStableOffset)
  const highWatermark = readCommitted && lastStable >= 0 ? lastStable : Number(data.highWatermark)
  const logStartOffset = Number(data.logStartOffset)
  if (failure !== undefined) {
    const error = new RecordBatchDecodeError({ topic, partition, ...failure })
    // The batches before it go out and the next fetch starts at it; when it is the first, the polls fail with it.
    if (batches.length === 0)
      return { topic, partition, records: [], undecoded: failing(error), highWatermark, nextOffset: fetchOffset, logStartOffset }
    nextOffset = failure.offset
  }
  return {
    topic,
    partition,
    records: [],
    ...(batches.length === 0 ? {} : { undecoded: new UndecodedRecords(batches) }),
    highWatermark,
    nextOffset,
    logStartOffset
  }
}

/** A decoder that fails with `error` at every call. */
function failing(error: RecordBatchDecodeError): RecordDecoder {
  return {
    next: () => {
      throw error
    }
  }
}

/** One record batch of the answer, with the records left to read. */
interface BatchContext {
  readonly topic: string
  readonly partition: number
  readonly firstOffset: number
  readonly firstTimestamp: number
  readonly logAppendTime: boolean
  /** The batch's attributes (for the error of records that cannot be read). */
  readonly attributes: number
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
      const batch = this.#batches[this.#index]
      this.#failure =
        batch === undefined
          ? err
          : new RecordBatchDecodeError({
              topic: batch.topic,
              partition: batch.partition,
              offset: batch.firstOffset,
              attributes: batch.attributes,
              cause: err
            })
      throw this.#failure
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
    if (length <= 0 || next > body.length) throw new RangeError(`a record of ${length} bytes at byte ${cursor.at} of ${body.length}`)
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
  if (decode === undefined) throw new Error(`compression codec ${codec} is not one Kafka defines`)
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
