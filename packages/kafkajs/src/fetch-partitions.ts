/**
 * A raw Fetch response body (after the correlation id; versions 4 to 11, the ones kafkajs can send
 * to a Kafka 4 broker) read without kafkajs' decoder: each partition's header and its record set
 * as the broker sent it. kafkajs decodes a whole response at once, so one record batch it cannot
 * decode (a codec it has none for, a codec that fails on the bytes) rejects the whole response,
 * every partition of it, at every fetch again. `decodeEachPartition` is what the fetcher falls
 * back to then: kafkajs' own record decoder, batch by batch, so that the batch fails only its own
 * partition, after the batches before it, naming its offset and attributes.
 */
import type { FetchPartitionResponse, FetchResponse, RawMessage } from './kafkajs-internals.js'

/** One partition of a Fetch response, its records still bytes (64-bit numbers as strings, as kafkajs gives them). */
export interface RawFetchPartition extends Omit<FetchPartitionResponse, 'messages'> {
  readonly topic: string
  /** The record set as sent (the last batch may be cut short by max bytes); null when the broker sent none. */
  readonly records: Buffer | null
}

/** Base offset (8) and length (4): a record batch (or legacy message) is BATCH_HEAD + length bytes. */
const BATCH_HEAD = 12
/** + partition leader epoch (4): the magic byte, at the same place in legacy messages (after their crc). */
const MAGIC_AT = 16
/** + magic (1), crc (4): a record batch's attributes (int16); a legacy message's (int8) follow its magic. */
const ATTRIBUTES_AT = 21
const LEGACY_ATTRIBUTES_AT = 17

/** The partitions of a Fetch response, in order; throws (a RangeError) for bytes it cannot read or a version other than 4 to 11. */
export function readFetchPartitions(raw: Buffer, apiVersion: number): { errorCode: number; partitions: RawFetchPartition[] } {
  if (apiVersion < 4 || apiVersion > 11) throw new RangeError(`Fetch v${apiVersion} responses are not read here (v4 to v11 are)`)
  const reader = new ByteReader(raw)
  reader.skip(4) // throttle_time_ms
  let errorCode = 0
  if (apiVersion >= 7) {
    errorCode = reader.int16()
    reader.skip(4) // session_id
  }
  const partitions: RawFetchPartition[] = []
  const topics = reader.int32()
  for (let t = 0; t < topics; t++) {
    const topic = reader.string()
    const count = reader.int32()
    for (let p = 0; p < count; p++) {
      const partition = reader.int32()
      const partitionError = reader.int16()
      const highWatermark = reader.int64()
      const lastStableOffset = reader.int64()
      const lastStartOffset = apiVersion >= 5 ? reader.int64() : undefined
      const aborted = reader.int32()
      const abortedTransactions: Array<{ producerId: string; firstOffset: string }> = []
      for (let a = 0; a < aborted; a++) abortedTransactions.push({ producerId: reader.int64(), firstOffset: reader.int64() })
      if (apiVersion >= 11) reader.skip(4) // preferred_read_replica
      const size = reader.int32()
      partitions.push({
        topic,
        partition,
        errorCode: partitionError,
        highWatermark,
        lastStableOffset,
        ...(lastStartOffset === undefined ? {} : { lastStartOffset }),
        abortedTransactions,
        records: size < 0 ? null : reader.bytes(size)
      })
    }
  }
  return { errorCode, partitions }
}

/** The complete record batches (or legacy messages) of a record set, each as its own bytes; a batch cut short at the end is left out. */
export function recordBatches(records: Buffer): Buffer[] {
  const batches: Buffer[] = []
  let at = 0
  while (at + BATCH_HEAD <= records.length) {
    const length = records.readInt32BE(at + 8)
    if (length < 0 || at + BATCH_HEAD + length > records.length) break
    batches.push(records.subarray(at, at + BATCH_HEAD + length))
    at += BATCH_HEAD + length
  }
  return batches
}

/** The record batch's attributes (a legacy message's for magic 0 and 1). */
function attributesOf(batch: Buffer): number {
  if (batch.length <= ATTRIBUTES_AT + 1) return 0
  return batch.readInt8(MAGIC_AT) === 2 ? batch.readInt16BE(ATTRIBUTES_AT) : batch.readInt8(LEGACY_ATTRIBUTES_AT)
}

/** The first record batch of a partition that could not be decoded, and why. */
export interface UndecodableBatch {
  /** Its base offset. */
  readonly offset: number
  /** Its attributes (the compression codec is in the low three bits). */
  readonly attributes: number
  readonly cause: unknown
}

/** A partition decoded batch by batch: the records of the batches before `undecodable`. */
export type PartitionDecoded = FetchPartitionResponse & { readonly undecodable?: UndecodableBatch }

/**
 * The response kafkajs' decoder rejected, decoded partition by partition and batch by batch with
 * `decodeRecords` (kafkajs' decoder of a record set): a partition whose batch fails keeps the
 * records before it and names it as `undecodable`. Throws when the response itself cannot be read.
 */
export async function decodeEachPartition(
  raw: Buffer,
  apiVersion: number,
  decodeRecords: (recordSet: Buffer) => Promise<RawMessage[]>
): Promise<FetchResponse & { readonly responses: ReadonlyArray<{ topicName: string; partitions: PartitionDecoded[] }> }> {
  const { errorCode, partitions } = readFetchPartitions(raw, apiVersion)
  const responses: Array<{ topicName: string; partitions: PartitionDecoded[] }> = []
  for (const { topic, records, ...header } of partitions) {
    let last = responses.at(-1)
    if (last?.topicName !== topic) responses.push((last = { topicName: topic, partitions: [] }))
    const messages: RawMessage[] = []
    let undecodable: UndecodableBatch | undefined
    for (const batch of records === null ? [] : recordBatches(records)) {
      try {
        messages.push(...(await decodeRecords(batch)))
      } catch (cause) {
        undecodable = { offset: Number(batch.readBigInt64BE(0)), attributes: attributesOf(batch), cause }
        break
      }
    }
    last.partitions.push({ ...header, messages, ...(undecodable === undefined ? {} : { undecodable }) })
  }
  return { errorCode, responses }
}

/** Big-endian reads over a Buffer, failing with a RangeError past its end. */
class ByteReader {
  readonly #buffer: Buffer
  #at = 0

  constructor(buffer: Buffer) {
    this.#buffer = buffer
  }

  int16(): number {
    const value = this.#buffer.readInt16BE(this.#at)
    this.#at += 2
    return value
  }

  int32(): number {
    const value = this.#buffer.readInt32BE(this.#at)
    this.#at += 4
    return value
  }

  int64(): string {
    const value = this.#buffer.readBigInt64BE(this.#at)
    this.#at += 8
    return value.toString()
  }

  string(): string {
    const length = this.int16()
    if (length < 0) return ''
    if (this.#at + length > this.#buffer.length) throw new RangeError('a string past the end of the response')
    const value = this.#buffer.toString('utf8', this.#at, this.#at + length)
    this.#at += length
    return value
  }

  bytes(length: number): Buffer {
    if (this.#at + length > this.#buffer.length) throw new RangeError('a record set past the end of the response')
    const bytes = this.#buffer.subarray(this.#at, this.#at + length)
    this.#at += length
    return bytes
  }

  skip(length: number): void {
    this.#at += length
  }
}
