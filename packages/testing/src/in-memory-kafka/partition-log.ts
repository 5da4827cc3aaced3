/**
 * One partition's log: data records and transaction markers at consecutive offsets from the
 * log-start offset to the high watermark (one replica, so high watermark = log end), the last
 * stable offset (the first offset of the oldest open transaction), and reads with Kafka's
 * isolation levels and byte limits.
 * @internal
 */
import { Headers } from '@kstreams/core'
import type { IsolationLevel } from '@kstreams/core'
import { kafkaError } from './request-errors.js'

/** The state of one transaction, shared by every record it wrote. */
export interface TransactionMark {
  readonly producerId: number
  status: 'ongoing' | 'committed' | 'aborted'
}

/** A record as the log stores it. */
export interface LogEntry {
  readonly offset: number
  readonly timestamp: number
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  /** Approximate size in a record batch, for fetch byte limits. */
  readonly size: number
  /** The transaction that wrote the record, if any. */
  readonly transaction: TransactionMark | undefined
  /** Set for a transaction marker (a control record): never returned to consumers. */
  readonly control: 'COMMIT' | 'ABORT' | undefined
}

export interface AppendedRecord {
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}

export interface LogRead {
  readonly records: readonly LogEntry[]
  /** Past the last entry the read covered: records, markers and aborted data alike. */
  readonly nextOffset: number
  readonly bytes: number
}

const copy = (b: Buffer | null): Buffer | null => (b === null ? null : Buffer.from(b))

/** Roughly Kafka's DefaultRecord size: a few varint fields, key, value and headers (batch headers ignored). */
export function recordSize(r: AppendedRecord): number {
  let size = 8 + (r.key?.length ?? 0) + (r.value?.length ?? 0)
  for (const h of r.headers) size += 2 + Buffer.byteLength(h.key) + (h.value?.length ?? 0)
  return size
}

export class PartitionLog {
  readonly topic: string
  readonly partition: number
  #entries: LogEntry[] = []
  #logStart = 0
  #end = 0
  /** Open transactions on this partition, with the offset of their first record. */
  readonly #open = new Map<TransactionMark, number>()

  constructor(topic: string, partition: number) {
    this.topic = topic
    this.partition = partition
  }

  get logStartOffset(): number {
    return this.#logStart
  }

  /** The offset the next record gets (with one replica, also the high watermark). */
  get highWatermark(): number {
    return this.#end
  }

  /** The first offset of the oldest open transaction, or the high watermark. */
  get lastStableOffset(): number {
    let lso = this.#end
    for (const first of this.#open.values()) lso = Math.min(lso, first)
    return lso
  }

  /** Where a consumer at this isolation level sees the partition end. */
  endOffset(isolationLevel: IsolationLevel): number {
    return isolationLevel === 'READ_COMMITTED' ? this.lastStableOffset : this.highWatermark
  }

  /** Appends records (copies of keys, values and headers); returns the offset of the last one. */
  append(records: readonly AppendedRecord[], transaction?: TransactionMark): number {
    if (transaction !== undefined && !this.#open.has(transaction) && records.length > 0) {
      this.#open.set(transaction, this.#end)
    }
    for (const r of records) {
      this.#entries.push({
        offset: this.#end,
        timestamp: r.timestamp,
        key: copy(r.key),
        value: copy(r.value),
        headers: new Headers(r.headers.toArray().map(h => ({ key: h.key, value: copy(h.value) }))),
        size: recordSize(r),
        transaction,
        control: undefined
      })
      this.#end++
    }
    return this.#end - 1
  }

  /** Whether `transaction` wrote to this partition and is still open. */
  hasOpen(transaction: TransactionMark): boolean {
    return this.#open.has(transaction)
  }

  /** Writes the transaction's marker (a control record taking one offset) if it wrote here. */
  writeMarker(transaction: TransactionMark, result: 'COMMIT' | 'ABORT', timestamp: number): void {
    if (!this.#open.delete(transaction)) return
    this.#entries.push({
      offset: this.#end,
      timestamp,
      key: null,
      value: null,
      headers: new Headers(),
      size: 0,
      transaction,
      control: result
    })
    this.#end++
  }

  /** DeleteRecords: moves the log start to `offset` (-1: the high watermark). */
  deleteBefore(offset: number): void {
    const target = offset === -1 ? this.#end : offset
    if (target < 0 || target > this.#end) {
      throw kafkaError(
        'OFFSET_OUT_OF_RANGE',
        `cannot delete ${this.topic}-${this.partition} before ${offset}: high watermark is ${this.#end}`
      )
    }
    if (target <= this.#logStart) return
    this.#entries.splice(0, target - this.#baseOffset())
    this.#logStart = target
  }

  /**
   * Truncates the log to `offset` (an unclean leader election: the new leader never had the
   * records from `offset` on); open transactions that began there are forgotten.
   */
  truncateTo(offset: number): void {
    if (offset < this.#logStart || offset > this.#end) {
      throw kafkaError(
        'OFFSET_OUT_OF_RANGE',
        `cannot truncate ${this.topic}-${this.partition} to ${offset}: the log holds [${this.#logStart}, ${this.#end})`
      )
    }
    this.#entries.splice(offset - this.#baseOffset())
    this.#end = offset
    for (const [transaction, first] of [...this.#open]) if (first >= offset) this.#open.delete(transaction)
  }

  /**
   * Reads from `offset` up to the isolation level's end, within `maxBytes`. Under READ_COMMITTED
   * aborted records are skipped; markers are always skipped. The first record is taken even when
   * larger than `maxBytes` if `takeOversized` (Kafka returns the first batch of a fetch whole).
   */
  read(offset: number, isolationLevel: IsolationLevel, maxBytes: number, takeOversized: boolean): LogRead {
    const end = this.endOffset(isolationLevel)
    const records: LogEntry[] = []
    let bytes = 0
    let next = offset
    for (let i = offset - this.#baseOffset(); i >= 0 && i < this.#entries.length; i++) {
      const entry = this.#entries[i]!
      if (entry.offset >= end) break
      if (entry.control === undefined && !(isolationLevel === 'READ_COMMITTED' && entry.transaction?.status === 'aborted')) {
        if (bytes + entry.size > maxBytes && !(takeOversized && records.length === 0)) break
        records.push(entry)
        bytes += entry.size
      }
      next = entry.offset + 1
    }
    return { records, nextOffset: next, bytes }
  }

  /**
   * ListOffsets by timestamp: the offset of the first data record whose timestamp is at or after
   * `timestamp`, below the end `isolationLevel` sees (a record of an aborted transaction counts,
   * as Kafka's time index does); undefined when there is none.
   */
  offsetForTimestamp(timestamp: number, isolationLevel: IsolationLevel): number | undefined {
    const end = this.endOffset(isolationLevel)
    for (const entry of this.#entries) {
      if (entry.offset >= end) return undefined
      if (entry.control === undefined && entry.timestamp >= timestamp) return entry.offset
    }
    return undefined
  }

  /** The data records (no markers) from the log start; READ_COMMITTED leaves out aborted and open transactions. */
  entries(isolationLevel: IsolationLevel = 'READ_UNCOMMITTED'): LogEntry[] {
    return [...this.read(this.#logStart, isolationLevel, Number.POSITIVE_INFINITY, true).records]
  }

  #baseOffset(): number {
    return this.#end - this.#entries.length
  }
}
