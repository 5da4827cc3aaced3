/**
 * The in-memory window bytes store (Kafka's InMemoryWindowStore): one ordered key map per window
 * start, kept while the window is within the retention period of the stream time the store has
 * observed (the greatest window start put). Records whose window start is at or before
 * `observedStreamTime - retentionPeriod` are dropped on put and never returned. With
 * `retainDuplicates` every put is kept under its own sequence number (`[key][4-byte seqnum]`) and
 * null puts are ignored. Time bounds are on the window start, inclusive. Its lifecycle and
 * iterators are InMemoryStoreLifecycle's (a re-init of an open store keeps the data, used when a
 * standby task is recycled into an active one); its segments and observed stream time are
 * RetainedSegments'.
 */
import { StreamsError, Windowed } from '@kstreams/core'
import { validateStoreName, WindowKeySchema } from '@kstreams/core/internal'
import type { KeyValueIterator, StateStore, StateStoreContext, TimeWindow, WindowBytesStore, WindowStoreIterator } from '@kstreams/core'
import { boundToKey, bytesToKey, keyToBytes } from '@kstreams/core/internal'
import type { SnapshotChunk } from './in-memory-snapshot-iterator.js'
import { InMemoryStoreLifecycle } from './in-memory-store-lifecycle.js'
import { OrderedBytesMap } from './ordered-bytes-map.js'
import { RetainedSegments } from './retained-segments.js'

/** The smallest and greatest 4-byte seqnum suffixes, as latin1 strings. */
const MIN_SEQNUM = '\x00\x00\x00\x00'
const MAX_SEQNUM = '\x7f\xff\xff\xff'
const SEQNUM_SIZE = 4

/**
 * The options of an InMemoryWindowStore.
 * @inline
 */
export interface InMemoryWindowStoreOptions {
  /** The store's name. */
  name: string
  /** How long (ms) windows are kept, from their start. */
  retentionPeriod: number
  /** The window size (ms). */
  windowSize: number
  /** Whether every put is kept, even for the same key and window. */
  retainDuplicates: boolean
}

type FetchArgs = [Buffer, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type RangeArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]

/** The in-memory window bytes store (Kafka's InMemoryWindowStore): one ordered key map per window start, within the retention period. */
export class InMemoryWindowStore implements WindowBytesStore {
  readonly name: string
  readonly persistent = false
  /** How long (ms) windows are kept, from their start. */
  readonly retentionPeriod: number
  /** The window size (ms). */
  readonly windowSize: number
  /** Whether every put is kept, even for the same key and window. */
  readonly retainDuplicates: boolean
  /** Window start -> (latin1 key, with the seqnum suffix when retaining duplicates) -> value. */
  readonly #segments: RetainedSegments<OrderedBytesMap>
  readonly #lifecycle: InMemoryStoreLifecycle
  #seqnum = 0

  /** Arguments are validated by the supplier (InMemoryWindowBytesStoreSupplier). */
  constructor(options: InMemoryWindowStoreOptions) {
    this.name = validateStoreName(options.name)
    this.retentionPeriod = options.retentionPeriod
    this.windowSize = options.windowSize
    this.retainDuplicates = options.retainDuplicates
    this.#segments = new RetainedSegments(options.retentionPeriod, () => new OrderedBytesMap())
    this.#lifecycle = new InMemoryStoreLifecycle(this.name)
  }

  /**
   * Opens the store and registers its restore callback. On a store that is already open (a
   * standby task recycled into an active task) it only registers with the new context: the data,
   * the observed stream time and the open iterators stay.
   */
  init(context: StateStoreContext, root: StateStore): void {
    this.#lifecycle.init(
      () => {
        context.register(root, records => {
          for (const record of records) {
            this.#put(WindowKeySchema.extractStoreKeyBytes(record.key), record.value, WindowKeySchema.extractStoreTimestamp(record.key))
          }
        })
      },
      () => {
        this.#segments.reset()
        this.#seqnum = 0
      }
    )
  }

  flush(): void {
    // Nothing to write: the changelog is the durable copy.
  }

  /** Closes every open iterator and drops the data. Idempotent. */
  close(): void {
    this.#lifecycle.close(() => {
      this.#segments.reset()
    })
  }

  isOpen(): boolean {
    return this.#lifecycle.isOpen()
  }

  /** Puts `value` into the window of `key` starting at `windowStartTime`; null deletes. */
  put(key: Buffer, value: Buffer | null, windowStartTime: number): void {
    this.#lifecycle.checkOpen()
    this.#requireKey(key)
    this.#put(key, value, windowStartTime)
  }

  fetch(key: Buffer, windowStartTime: number): Buffer | null
  fetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  fetch(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    timeFrom: number,
    timeTo: number
  ): KeyValueIterator<Windowed<Buffer>, Buffer>
  fetch(...args: FetchArgs): Buffer | null | WindowStoreIterator<Buffer> | KeyValueIterator<Windowed<Buffer>, Buffer> {
    if (args.length !== 2) return this.#range(args, true)
    this.#lifecycle.checkOpen()
    const [key, windowStartTime] = args
    const lookup = this.#requireKey(key)
    this.#segments.removeExpired()
    if (this.#segments.isExpired(windowStartTime)) return null
    // With retainDuplicates the keys carry a seqnum, so this finds nothing, as in Kafka.
    return this.#segments.get(windowStartTime)?.get(lookup) ?? null
  }

  backwardFetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  backwardFetch(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    timeFrom: number,
    timeTo: number
  ): KeyValueIterator<Windowed<Buffer>, Buffer>
  backwardFetch(...args: RangeArgs): WindowStoreIterator<Buffer> | KeyValueIterator<Windowed<Buffer>, Buffer> {
    return this.#range(args, false)
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return this.#keyRange(undefined, undefined, timeFrom, timeTo, true)
  }

  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return this.#keyRange(undefined, undefined, timeFrom, timeTo, false)
  }

  all(): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return this.#keyRange(undefined, undefined, -Infinity, Infinity, true)
  }

  backwardAll(): KeyValueIterator<Windowed<Buffer>, Buffer> {
    return this.#keyRange(undefined, undefined, -Infinity, Infinity, false)
  }

  #requireKey(key: Buffer): string {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    return bytesToKey(key)
  }

  #put(key: Buffer, value: Buffer | null, windowStartTime: number): void {
    // Kafka counts the record as dropped (expired window) here; metrics arrive later.
    if (!this.#segments.admit(windowStartTime)) return
    if (value !== null && value !== undefined) {
      let lookup = bytesToKey(key)
      if (this.retainDuplicates) {
        this.#seqnum = (this.#seqnum + 1) & 0x7fffffff
        lookup += seqnumSuffix(this.#seqnum)
      }
      this.#segments.getOrCreate(windowStartTime).set(lookup, value)
    } else if (!this.retainDuplicates) {
      // A null put with retainDuplicates would delete nothing: it is skipped.
      const segment = this.#segments.get(windowStartTime)
      if (segment === undefined) return
      segment.delete(bytesToKey(key))
      if (segment.size === 0) this.#segments.delete(windowStartTime)
    }
  }

  #range(args: RangeArgs, forward: boolean): WindowStoreIterator<Buffer> | KeyValueIterator<Windowed<Buffer>, Buffer> {
    if (args.length === 4) return this.#keyRange(args[0], args[1], args[2], args[3], forward)
    this.#lifecycle.checkOpen()
    const [key, timeFrom, timeTo] = args
    const lookup = this.#requireKey(key)
    this.#segments.removeExpired()
    const chunks: Array<SnapshotChunk<number, string>> = []
    for (const time of this.#liveTimes(timeFrom, timeTo, forward)) {
      const segment = this.#segments.get(time)!
      let lookups: string[]
      if (this.retainDuplicates) {
        lookups = segment.keys(lookup + MIN_SEQNUM, lookup + MAX_SEQNUM).filter(k => k.length === lookup.length + SEQNUM_SIZE)
        if (!forward) lookups.reverse()
      } else {
        lookups = segment.get(lookup) === undefined ? [] : [lookup]
      }
      if (lookups.length > 0) chunks.push(new StartTimeChunk(segment, lookups, time))
    }
    return this.#lifecycle.iterator(chunks)
  }

  #keyRange(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    timeFrom: number,
    timeTo: number,
    forward: boolean
  ): KeyValueIterator<Windowed<Buffer>, Buffer> {
    this.#lifecycle.checkOpen()
    this.#segments.removeExpired()
    const from = boundToKey(keyFrom)
    const to = boundToKey(keyTo)
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (from !== undefined && to !== undefined && from > to) return this.#lifecycle.iterator([])
    const dups = this.retainDuplicates
    const lower = from === undefined || !dups ? from : from + MIN_SEQNUM
    const upper = to === undefined || !dups ? to : to + MAX_SEQNUM
    const chunks: Array<SnapshotChunk<Windowed<Buffer>, string>> = []
    for (const time of this.#liveTimes(timeFrom, timeTo, forward)) {
      const segment = this.#segments.get(time)!
      let lookups = segment.keys(lower, upper)
      if (dups && (from !== undefined || to !== undefined)) {
        lookups = lookups.filter(k => {
          const unwrapped = k.slice(0, -SEQNUM_SIZE)
          return (from === undefined || unwrapped >= from) && (to === undefined || unwrapped <= to)
        })
      }
      if (!forward) lookups.reverse()
      if (lookups.length > 0) chunks.push(new WindowedChunk(segment, lookups, time, this.windowSize, dups))
    }
    return this.#lifecycle.iterator(chunks)
  }

  /** The window starts in [max(timeFrom, observedStreamTime - retentionPeriod + 1), timeTo]. */
  #liveTimes(timeFrom: number, timeTo: number, forward: boolean): number[] {
    const minTime = Math.max(timeFrom, this.#segments.observedStreamTime - this.retentionPeriod + 1)
    return this.#segments.times(minTime, timeTo, forward)
  }
}

/** Entries of one window of one key: the iterator key is the window start. */
class StartTimeChunk implements SnapshotChunk<number, string> {
  constructor(
    readonly source: OrderedBytesMap,
    readonly lookups: readonly string[],
    readonly time: number
  ) {}
  key(): number {
    return this.time
  }
}

/** Entries of one window: the iterator key is the windowed key, without any seqnum suffix. */
class WindowedChunk implements SnapshotChunk<Windowed<Buffer>, string> {
  #window: TimeWindow | undefined

  constructor(
    readonly source: OrderedBytesMap,
    readonly lookups: readonly string[],
    readonly time: number,
    readonly windowSize: number,
    readonly hasSeqnum: boolean
  ) {}

  key(lookup: string): Windowed<Buffer> {
    // Built on first use, so a window Kafka cannot represent fails on read, as there.
    this.#window ??= WindowKeySchema.timeWindowForSize(this.time, this.windowSize)
    return new Windowed(keyToBytes(this.hasSeqnum ? lookup.slice(0, -SEQNUM_SIZE) : lookup), this.#window)
  }
}

function seqnumSuffix(seqnum: number): string {
  return String.fromCharCode((seqnum >>> 24) & 0xff, (seqnum >>> 16) & 0xff, (seqnum >>> 8) & 0xff, seqnum & 0xff)
}
