/**
 * The time-segmented bytes store under RocksDB window and session stores (Kafka's
 * AbstractRocksDBSegmentedBytesStore + KeyValueSegments). Keys are Kafka's store keys; each goes
 * to segment `segmentTimestamp / segmentInterval`, kept while that segment is live for the stream
 * time observed so far (segment id >= id of `observedStreamTime - retentionPeriod`); records of
 * expired segments are skipped, and expired segments are dropped as the stream time moves on.
 *
 * All segments of a store live in one RocksDB instance (`<taskDir>/rocksdb/<name>`), each as the
 * key range prefixed by its 8-byte big-endian segment id, and dropping a segment is one range
 * tombstone. (A RocksDB instance per segment, as Kafka has, would need a synchronous open on the
 * put path when a new segment starts, which the binding does not offer; one instance also keeps
 * the memory budget per store.) Reads clamp their time range to the retention period as Kafka's do.
 */
import { InvalidStateStoreError, StreamsError } from '@kstreams/core'
import type { KeyValueIterator, StateRestoreCallback, StateStore, StateStoreContext } from '@kstreams/core'
import { RocksDBStore } from './rocksdb-store.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'
import { keyRangeUpperBound } from './segmented-key-schema.js'
import type { SegmentedKeySchema } from './segmented-key-schema.js'
import { SEGMENT_PREFIX_SIZE, SegmentIterator } from './segment-iterator.js'
import type { SegmentIteratorOwner } from './segment-iterator.js'

const TWO_POW_32 = 2 ** 32

/** What one scan returns: keys (raw bounds), times, and the walk direction. */
export interface SegmentedScan {
  /** The store-key range to read in every segment; undefined bounds are open. */
  readonly lower: Buffer | undefined
  readonly upper: Buffer | undefined
  /** The segment timestamps to visit, inclusive. */
  readonly segmentTimeFrom: number
  readonly segmentTimeTo: number
  readonly filter: (storeKey: Buffer) => boolean
  readonly forward: boolean
}

export class RocksDBSegmentedBytesStore {
  readonly name: string
  readonly retentionPeriod: number
  readonly segmentInterval: number
  readonly #schema: SegmentedKeySchema
  readonly #db: RocksDBStore
  /** Live segment ids, ascending. */
  #segments: number[] = []
  #observedStreamTime = -1
  #lease = { open: false }
  readonly #openIterators = new Set<SegmentIterator>()
  #owner: SegmentIteratorOwner

  constructor(name: string, retentionPeriod: number, segmentInterval: number, schema: SegmentedKeySchema, options: RocksDBStoreOptions) {
    this.name = name
    this.retentionPeriod = retentionPeriod
    this.segmentInterval = segmentInterval
    this.#schema = schema
    this.#db = new RocksDBStore(name, options)
    this.#owner = this.#newOwner()
  }

  get observedStreamTime(): number {
    return this.#observedStreamTime
  }

  /** Opens the RocksDB instance, finds its segments, registers `root` for restore. */
  async init(context: StateStoreContext, root: StateStore): Promise<void> {
    let restoreSegments: StateRestoreCallback | undefined
    const innerContext: StateStoreContext = {
      applicationId: context.applicationId,
      taskId: context.taskId,
      appConfigs: context.appConfigs,
      stateDir: context.stateDir,
      appConfigsWithPrefix: prefix => context.appConfigsWithPrefix(prefix),
      keySerde: () => context.keySerde(),
      valueSerde: () => context.valueSerde(),
      metrics: () => context.metrics(),
      recordMetadata: () => context.recordMetadata(),
      register: (_store, restore) => {
        restoreSegments = restore
      },
      changelogWriter: storeName => context.changelogWriter(storeName),
      recordContext: () => context.recordContext?.(),
      cache: context.cache,
      metricsRegistry: context.metricsRegistry
    }
    context.register(root, records => {
      this.#restore(records, restoreSegments!)
    })
    await this.#db.init(innerContext, root)
    this.#observedStreamTime = -1
    this.#segments = this.#findSegments()
    this.#lease = { open: true }
    this.#owner = this.#newOwner()
  }

  flush(): void {
    this.#db.flush()
  }

  close(): void {
    this.#lease.open = false
    for (const iterator of [...this.#openIterators]) iterator.close()
    this.#openIterators.clear()
    this.#segments = []
    this.#db.close()
  }

  whenClosed(): Promise<void> {
    return this.#db.whenClosed()
  }

  isOpen(): boolean {
    return this.#db.isOpen()
  }

  /** Puts a store key into its segment when that is live; null deletes. */
  put(storeKey: Buffer, value: Buffer | null): void {
    this.checkOpen()
    const time = this.#schema.segmentTimestamp(storeKey)
    this.#observedStreamTime = Math.max(this.#observedStreamTime, time)
    const segmentId = this.segmentId(time)
    const minLive = this.#minLiveSegment()
    // Kafka counts the record as dropped (expired segment) and logs a warning; metrics arrive later.
    if (segmentId >= minLive) {
      this.#addSegment(segmentId)
      this.#db.put(prefixed(segmentId, storeKey), value)
    }
    this.#dropExpiredSegments(minLive)
  }

  /** The value of a store key, or null when it is absent or older than the retention period. */
  get(storeKey: Buffer): Buffer | null {
    this.checkOpen()
    const time = this.#schema.segmentTimestamp(storeKey)
    if (time < this.#observedStreamTime - this.retentionPeriod + 1) return null
    const segmentId = this.segmentId(time)
    if (!this.#segments.includes(segmentId)) return null
    return this.#db.get(prefixed(segmentId, storeKey))
  }

  /** Kafka's segment id of a timestamp (Java long division, never below 0 here). */
  segmentId(timestamp: number): number {
    return Math.max(0, Math.trunc(Math.min(timestamp, Number.MAX_SAFE_INTEGER) / this.segmentInterval))
  }

  /** The earliest time a read returns (Kafka's getActualFrom). */
  actualFrom(from: number): number {
    return Math.max(from, this.#observedStreamTime - this.retentionPeriod + 1)
  }

  /** Entries of one key with times in [from, to] (fixed-size key range). */
  fetchKey(key: Buffer, from: number, to: number, forward: boolean): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const schema = this.#schema
    const actualFrom = this.actualFrom(from)
    const until = Math.min(to, Number.MAX_SAFE_INTEGER)
    if (schema.emptyWhenInverted && until < actualFrom) return this.#empty()
    const [segmentTimeFrom, segmentTimeTo] = schema.searchTimes(actualFrom, until)
    return this.scan({
      lower: schema.lowerRangeFixedSize(key, Math.max(0, actualFrom)),
      upper: schema.upperRangeFixedSize(key, until),
      segmentTimeFrom,
      segmentTimeTo,
      filter: storeKey => schema.matches(storeKey, key, key, actualFrom, until),
      forward
    })
  }

  /** Entries with keys in [keyFrom, keyTo] (undefined = open) and times in [from, to]. */
  fetchRange(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    from: number,
    to: number,
    forward: boolean
  ): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (keyFrom !== undefined && keyTo !== undefined && Buffer.compare(keyFrom, keyTo) > 0) return this.#empty()
    const schema = this.#schema
    const actualFrom = this.actualFrom(from)
    const until = Math.min(to, Number.MAX_SAFE_INTEGER)
    if (schema.emptyWhenInverted && until < actualFrom) return this.#empty()
    const [segmentTimeFrom, segmentTimeTo] = schema.searchTimes(actualFrom, until)
    return this.scan({
      lower: keyFrom,
      upper: keyTo === undefined ? undefined : keyRangeUpperBound(keyTo, schema.maxSuffix),
      segmentTimeFrom,
      segmentTimeTo,
      filter: storeKey => schema.matches(storeKey, keyFrom, keyTo, actualFrom, until),
      forward
    })
  }

  /** Walks the live segments of the scan, in its direction. */
  scan(scan: SegmentedScan): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const first = this.segmentId(Math.max(0, scan.segmentTimeFrom))
    const last = this.segmentId(scan.segmentTimeTo)
    const segments = this.#segments.filter(id => id >= first && id <= last)
    if (!scan.forward) segments.reverse()
    const db = this.#db
    const iterator = new SegmentIterator(this.#owner, {
      segments,
      filter: scan.filter,
      open: segmentId => {
        const from = scan.lower === undefined ? segmentPrefix(segmentId) : prefixed(segmentId, scan.lower)
        // No stored key equals the bare prefix of the next segment, so the inclusive bound is exact.
        const to = scan.upper === undefined ? segmentPrefix(segmentId + 1) : prefixed(segmentId, scan.upper)
        return scan.forward ? db.range(from, to) : db.reverseRange(from, to)
      }
    })
    this.#openIterators.add(iterator)
    return iterator
  }

  #empty(): KeyValueIterator<Buffer, Buffer> {
    return this.scan({ lower: undefined, upper: undefined, segmentTimeFrom: 1, segmentTimeTo: 0, filter: () => false, forward: true })
  }

  /** Applies changelog records: live ones are written, then expired segments dropped (Kafka's restoreAllInternal). */
  #restore(records: Parameters<StateRestoreCallback>[0], restoreSegments: StateRestoreCallback): void {
    const live: Array<{ key: Buffer; value: Buffer | null; timestamp: number }> = []
    for (const record of records) {
      const time = this.#schema.segmentTimestamp(record.key)
      this.#observedStreamTime = Math.max(this.#observedStreamTime, time)
      const segmentId = this.segmentId(time)
      if (segmentId < this.#minLiveSegment()) continue
      this.#addSegment(segmentId)
      live.push({ key: prefixed(segmentId, record.key), value: record.value, timestamp: record.timestamp })
    }
    if (live.length > 0) restoreSegments(live)
    this.#dropExpiredSegments(this.#minLiveSegment())
  }

  #minLiveSegment(): number {
    return this.segmentId(this.#observedStreamTime - this.retentionPeriod)
  }

  #addSegment(segmentId: number): void {
    const segments = this.#segments
    if (segments.length > 0 && segments[segments.length - 1]! === segmentId) return
    if (segments.includes(segmentId)) return
    segments.push(segmentId)
    if (segments.length > 1 && segments[segments.length - 2]! > segmentId) segments.sort((a, b) => a - b)
  }

  /** Drops every segment below `minLive` with one range delete. */
  #dropExpiredSegments(minLive: number): void {
    const segments = this.#segments
    if (segments.length === 0 || segments[0]! >= minLive) return
    let keep = 0
    while (keep < segments.length && segments[keep]! < minLive) keep++
    this.#db.deleteRange(segmentPrefix(segments[0]!), segmentPrefix(minLive))
    this.#segments = segments.slice(keep)
  }

  /** The segment ids present in the DB, found by seeking from one segment to the next. */
  #findSegments(): number[] {
    const found: number[] = []
    let from = segmentPrefix(0)
    for (;;) {
      const iterator = this.#db.range(from, undefined)
      const key = iterator.peekNextKey()
      iterator.close()
      if (key === undefined) return found
      if (key.length < SEGMENT_PREFIX_SIZE) {
        throw new StreamsError('STORE_CORRUPTED', `Store "${this.name}": a key without a segment prefix was found`)
      }
      const segmentId = readSegmentId(key)
      found.push(segmentId)
      from = segmentPrefix(segmentId + 1)
    }
  }

  /** Throws STORE_NOT_OPEN unless the store is open. */
  checkOpen(): void {
    if (!this.#lease.open || !this.#db.isOpen()) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open`)
    }
  }

  #newOwner(): SegmentIteratorOwner {
    const openIterators = this.#openIterators
    return {
      storeName: this.name,
      lease: this.#lease,
      release: iterator => {
        openIterators.delete(iterator)
      }
    }
  }
}

function segmentPrefix(segmentId: number): Buffer {
  const prefix = Buffer.allocUnsafe(SEGMENT_PREFIX_SIZE)
  const high = Math.floor(segmentId / TWO_POW_32)
  prefix.writeUInt32BE(high, 0)
  prefix.writeUInt32BE(segmentId - high * TWO_POW_32, 4)
  return prefix
}

function readSegmentId(key: Buffer): number {
  return key.readUInt32BE(0) * TWO_POW_32 + key.readUInt32BE(4)
}

function prefixed(segmentId: number, storeKey: Buffer): Buffer {
  const out = Buffer.allocUnsafe(SEGMENT_PREFIX_SIZE + storeKey.length)
  const high = Math.floor(segmentId / TWO_POW_32)
  out.writeUInt32BE(high, 0)
  out.writeUInt32BE(segmentId - high * TWO_POW_32, 4)
  storeKey.copy(out, SEGMENT_PREFIX_SIZE)
  return out
}
