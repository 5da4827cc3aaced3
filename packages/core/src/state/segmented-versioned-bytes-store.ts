/**
 * The versioned store of kstreams' backends (Kafka's RocksDBVersionedStore, over any key-value
 * bytes store): the latest version of each key in a "latest value" key space, older versions in
 * segments by their validTo timestamp, dropped a segment at a time once the segment is older than
 * the history retention (which doubles as the grace period: writes older than the observed stream
 * time minus it are not put). @kstreams/rocksdb runs it over a RocksDBStore, @kstreams/stores over
 * an in-memory store; the physical store is opened with this store's context but registers
 * nothing: restore replays the changelog as put(key, value, timestamp) here (Kafka's
 * restoreBatch: records older than the grace period are skipped, expiry is judged against the
 * stream time at the end of the batch). The observed stream time starts unknown at every open,
 * as in Kafka Streams.
 */
import { InvalidStateStoreError, StreamsError } from '../errors.js'
import type { ResultOrder } from '../runtime/iq/v2/range-query.js'
import type { Serializer } from '../serialization/serde.js'
import type { KeyValueBytesStore } from './key-value-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import { PUT_RETURN_CODE_NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED } from './versioned-key-value-store.js'
import type { VersionedBytesStore } from './versioned-key-value-store.js'
import { VersionedRecord } from './versioned-record.js'
import { ListVersionedRecordIterator, type VersionedRecordIterator } from './versioned-record-iterator.js'
import { type HistoryEntry, VersionedStoreLayout as Layout } from './versioned-store-layout.js'

/** Kafka's ConsumerRecord.NO_TIMESTAMP: the observed stream time before any write. */
const NO_TIMESTAMP = -1
const RAW: Serializer<Buffer> = { serialize: (_topic, data) => data }

/** The options of a SegmentedVersionedBytesStore. */
export interface SegmentedVersionedBytesStoreOptions {
  /** The key-value bytes store holding latest values, the segment index and the segments. */
  readonly physical: KeyValueBytesStore
  /** How long (ms) old versions stay queryable, not negative; also the grace period. */
  readonly historyRetentionMs: number
  /** The span (ms) of one segment, at least 1. */
  readonly segmentIntervalMs: number
}

/** Throws ILLEGAL_ARGUMENT, naming the store, for a negative history retention or a segment interval below 1 ms. */
export function checkVersionedStoreArguments(name: string, historyRetentionMs: number, segmentIntervalMs: number): void {
  if (!Number.isSafeInteger(historyRetentionMs) || historyRetentionMs < 0) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Versioned store "${name}": historyRetentionMs must be a non-negative integer, got ${String(historyRetentionMs)}`
    )
  }
  if (!Number.isSafeInteger(segmentIntervalMs) || segmentIntervalMs < 1) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Versioned store "${name}": segmentIntervalMs must be an integer of at least 1, got ${String(segmentIntervalMs)}`
    )
  }
}

interface LatestVersion {
  readonly timestamp: number
  readonly value: Buffer
}

/** A versioned bytes store over one key-value bytes store (see the file header). */
export class SegmentedVersionedBytesStore implements VersionedBytesStore {
  readonly #physical: KeyValueBytesStore
  readonly #historyRetention: number
  readonly #gracePeriod: number
  readonly #segmentInterval: number
  /** The ids of the segments that exist, ascending. */
  #segments: number[] = []
  #observedStreamTime = NO_TIMESTAMP
  #open = false

  constructor(options: SegmentedVersionedBytesStoreOptions) {
    checkVersionedStoreArguments(options.physical.name, options.historyRetentionMs, options.segmentIntervalMs)
    this.#physical = options.physical
    this.#historyRetention = options.historyRetentionMs
    this.#gracePeriod = options.historyRetentionMs
    this.#segmentInterval = options.segmentIntervalMs
  }

  get name(): string {
    return this.#physical.name
  }
  get persistent(): boolean {
    return this.#physical.persistent
  }

  /** Opens the physical store (registering this store's restore, not the physical store's), then reads the segment index. */
  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    const physicalContext = new StateStoreContextOverlay(context, { register: () => {} })
    const opened = this.#physical.init(physicalContext, this)
    context.register(root, records => {
      this.#restoreBatch(records)
    })
    if (opened instanceof Promise) return opened.then(() => this.#opened())
    this.#opened()
  }

  flush(): void {
    this.#physical.flush()
  }

  close(): void {
    this.#open = false
    this.#physical.close()
  }

  isOpen(): boolean {
    return this.#open && this.#physical.isOpen()
  }

  async whenClosed(): Promise<void> {
    await this.#physical.whenClosed?.()
  }

  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    this.#checkOpen()
    if (timestamp < this.#observedStreamTime - this.#gracePeriod) return PUT_RETURN_CODE_NOT_PUT
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp)
    return this.#doPut(this.#observedStreamTime, key, value, timestamp)
  }

  delete(key: Buffer, timestamp: number): VersionedRecord<Buffer> | null {
    this.#checkOpen()
    if (timestamp < this.#observedStreamTime - this.#gracePeriod) return null
    const existing = this.get(key, timestamp)
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp)
    this.#doPut(this.#observedStreamTime, key, null, timestamp)
    return existing
  }

  get(key: Buffer): VersionedRecord<Buffer> | null
  get(key: Buffer, asOfTimestamp: number): VersionedRecord<Buffer> | null
  get(key: Buffer, fromTime: number, toTime: number, order?: ResultOrder): VersionedRecordIterator<Buffer>
  get(
    key: Buffer,
    asOfOrFrom?: number,
    toTime?: number,
    order: ResultOrder = 'ANY'
  ): VersionedRecord<Buffer> | null | VersionedRecordIterator<Buffer> {
    this.#checkOpen()
    if (toTime !== undefined) return this.#versions(key, asOfOrFrom ?? Number.MIN_SAFE_INTEGER, toTime, order)
    const latest = this.#latest(key)
    if (asOfOrFrom === undefined) return latest === null ? null : new VersionedRecord(latest.value, latest.timestamp)
    if (latest !== null && latest.timestamp <= asOfOrFrom) return new VersionedRecord(latest.value, latest.timestamp)
    // Past the history retention only the latest version (which never expires) answers.
    if (asOfOrFrom < this.#observedStreamTime - this.#historyRetention) return null
    const found = this.#history(key, asOfOrFrom).find(e => e.validFrom <= asOfOrFrom && asOfOrFrom < e.validTo)
    return found === undefined || found.value === null ? null : new VersionedRecord(found.value, found.validFrom, found.validTo)
  }

  #versions(key: Buffer, fromTime: number, toTime: number, order: ResultOrder): VersionedRecordIterator<Buffer> {
    const found: VersionedRecord<Buffer>[] = []
    if (toTime >= this.#observedStreamTime - this.#historyRetention) {
      for (const e of this.#history(key, Number.MIN_SAFE_INTEGER)) {
        if (e.value !== null && e.validFrom <= toTime && e.validTo > fromTime)
          found.push(new VersionedRecord(e.value, e.validFrom, e.validTo))
      }
    }
    const latest = this.#latest(key)
    if (latest !== null && latest.timestamp <= toTime) found.push(new VersionedRecord(latest.value, latest.timestamp))
    found.sort((a, b) => (order === 'ASCENDING' ? a.timestamp - b.timestamp : b.timestamp - a.timestamp))
    return new ListVersionedRecordIterator(found)
  }

  /**
   * Puts one version (Kafka's doPut, shared by put and restore). `streamTime` decides which
   * segments are live; a version whose segment has expired is not kept.
   */
  #doPut(streamTime: number, key: Buffer, value: Buffer | null, timestamp: number): number {
    this.#dropExpiredSegments(streamTime)
    const latest = this.#latest(key)
    if (latest !== null && timestamp >= latest.timestamp) {
      // The new version is the latest: the old latest becomes history, valid up to it.
      if (timestamp > latest.timestamp)
        this.#writeHistory(streamTime, key, { validFrom: latest.timestamp, validTo: timestamp, value: latest.value })
      this.#putLatest(key, value, timestamp)
      return PUT_RETURN_CODE_VALID_TO_UNDEFINED
    }
    const history = this.#history(key, timestamp)
    const same = history.find(e => e.validFrom === timestamp)
    if (same !== undefined && same.validTo > same.validFrom) {
      // Replaces a version of the same timestamp: its validTo stays.
      this.#writeHistory(streamTime, key, { ...same, value })
      return same.validTo
    }
    if (same !== undefined) this.#physical.delete(this.#historyKey(key, same))
    const covering = history.find(e => e.validFrom < timestamp && timestamp < e.validTo)
    if (covering !== undefined) {
      // Splits the version valid at `timestamp`: its earlier part moves to the segment of its new validTo.
      const earlier = { ...covering, validTo: timestamp }
      const coveringKey = this.#historyKey(key, covering)
      if (!coveringKey.equals(this.#historyKey(key, earlier))) this.#physical.delete(coveringKey)
      this.#writeHistory(streamTime, key, earlier)
      this.#writeHistory(streamTime, key, { validFrom: timestamp, validTo: covering.validTo, value })
      return covering.validTo
    }
    // Between versions (or before all): valid up to the next version.
    const nextInHistory = history.find(e => e.validFrom > timestamp)?.validFrom
    const next = latest === null ? nextInHistory : Math.min(latest.timestamp, nextInHistory ?? latest.timestamp)
    if (next === undefined) {
      if (value !== null) {
        this.#putLatest(key, value, timestamp)
        return PUT_RETURN_CODE_VALID_TO_UNDEFINED
      }
      // A delete after every version: kept as a zero-length version, so older writes end at it.
      return this.#writeHistory(streamTime, key, { validFrom: timestamp, validTo: timestamp, value: null })
        ? PUT_RETURN_CODE_VALID_TO_UNDEFINED
        : PUT_RETURN_CODE_NOT_PUT
    }
    // While restoring, stream time is that of the batch's end: the version may already be expired.
    if (next === nextInHistory && next < streamTime - this.#historyRetention) return PUT_RETURN_CODE_NOT_PUT
    return this.#writeHistory(streamTime, key, { validFrom: timestamp, validTo: next, value }) ? next : PUT_RETURN_CODE_NOT_PUT
  }

  #restoreBatch(records: ReadonlyArray<{ key: Buffer; value: Buffer | null; timestamp: number }>): void {
    let endOfBatchStreamTime = this.#observedStreamTime
    for (const record of records) endOfBatchStreamTime = Math.max(endOfBatchStreamTime, record.timestamp)
    for (const record of records) {
      // Older than the grace period: never written to the store.
      if (record.timestamp < this.#observedStreamTime - this.#gracePeriod) continue
      this.#observedStreamTime = Math.max(this.#observedStreamTime, record.timestamp)
      this.#doPut(endOfBatchStreamTime, record.key, record.value, record.timestamp)
    }
  }

  #latest(key: Buffer): LatestVersion | null {
    const stored = this.#physical.get(Layout.latestKey(key))
    return stored === null ? null : { timestamp: Layout.latestTimestamp(stored), value: Buffer.from(Layout.latestPayload(stored)) }
  }

  #putLatest(key: Buffer, value: Buffer | null, timestamp: number): void {
    if (value === null) this.#physical.delete(Layout.latestKey(key))
    else this.#physical.put(Layout.latestKey(key), Layout.latestValue(value, timestamp))
  }

  /** The older versions of `key` in the segments that can hold one valid at or after `from`, by validFrom. */
  #history(key: Buffer, from: number): HistoryEntry[] {
    const first = this.#segmentId(from)
    const entries: HistoryEntry[] = []
    for (const segment of this.#segments) {
      if (segment < first) continue
      using iterator = this.#physical.prefixScan(Layout.historyPrefix(segment, key), RAW)
      for (const { key: storedKey, value } of iterator) entries.push(Layout.historyEntry(storedKey, value))
    }
    return entries.sort((a, b) => a.validFrom - b.validFrom)
  }

  #historyKey(key: Buffer, entry: HistoryEntry): Buffer {
    return Layout.historyKey(this.#segmentId(entry.validTo), key, entry.validFrom)
  }

  /** Writes an older version into the segment of its validTo; false when that segment has expired. */
  #writeHistory(streamTime: number, key: Buffer, entry: HistoryEntry): boolean {
    const segment = this.#segmentId(entry.validTo)
    if (segment < this.#minLiveSegment(streamTime)) return false
    if (!this.#segments.includes(segment)) {
      this.#physical.put(Layout.segmentIndexKey(segment), Buffer.alloc(0))
      this.#segments.push(segment)
      this.#segments.sort((a, b) => a - b)
    }
    this.#physical.put(Layout.historyKey(segment, key, entry.validFrom), Layout.historyValue(entry))
    return true
  }

  #dropExpiredSegments(streamTime: number): void {
    const minLive = this.#minLiveSegment(streamTime)
    while (this.#segments.length > 0 && (this.#segments[0] as number) < minLive) {
      const segment = this.#segments.shift() as number
      this.#deleteSegment(segment)
    }
  }

  #deleteSegment(segment: number): void {
    const [from, to] = Layout.segmentRange(segment)
    const physical = this.#physical as KeyValueBytesStore & { deleteRange?: (from: Buffer, to: Buffer) => void }
    if (typeof physical.deleteRange === 'function') physical.deleteRange(from, to)
    else {
      const keys: Buffer[] = []
      using iterator = physical.range(from, to)
      for (const { key } of iterator) if (!key.equals(to)) keys.push(key)
      for (const key of keys) physical.delete(key)
    }
    physical.delete(Layout.segmentIndexKey(segment))
  }

  #segmentId(timestamp: number): number {
    return Math.trunc(timestamp / this.#segmentInterval) + 0
  }

  #minLiveSegment(streamTime: number): number {
    return this.#segmentId(streamTime - this.#historyRetention)
  }

  #opened(): void {
    const [from, to] = Layout.segmentIndexBounds()
    const segments: number[] = []
    using iterator = this.#physical.range(from, to)
    for (const { key } of iterator) segments.push(Layout.segmentIdFromIndexKey(key))
    this.#segments = segments.sort((a, b) => a - b)
    this.#observedStreamTime = NO_TIMESTAMP
    this.#open = true
  }

  #checkOpen(): void {
    if (!this.#open) throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open`)
  }
}
