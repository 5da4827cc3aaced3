/**
 * The RocksDB window bytes store (Kafka's RocksDBWindowStore): store keys
 * `[key][8-byte window start][4-byte seqnum]` in a time-segmented RocksDB store. With
 * `retainDuplicates` every put gets the next sequence number (so nothing is overwritten) and a
 * null put is a no-op. Time bounds are on the window start, inclusive, and clamped to the
 * retention period. Iteration order is Kafka's: segment by segment, then by store-key bytes.
 */
import { StreamsError } from '@kstreams/core'
import type { KeyValueIterator, StateStore, StateStoreContext, WindowBytesStore, Windowed, WindowStoreIterator } from '@kstreams/core'
import { WindowKeySchema } from '@kstreams/core/internal'
import { MappedKeyValueIterator } from './mapped-key-value-iterator.js'
import { RocksDBSegmentedStore } from './rocksdb-segmented-store.js'
import type { RocksDBSegmentedStoreOptions } from './rocksdb-segmented-store.js'
import { windowSegmentedKeySchema } from './segmented-key-schema.js'

/** The options of a RocksDBWindowStore. */
export interface RocksDBWindowStoreOptions extends RocksDBSegmentedStoreOptions {
  /** The window size (ms). */
  readonly windowSize: number
  /** Whether every put is kept, even for the same key and window. */
  readonly retainDuplicates: boolean
}

/** @inline */
type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type FetchArgs = [Buffer, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type RangeArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]

/** The RocksDB window bytes store (Kafka's RocksDBWindowStore): windows in a time-segmented RocksDB store. */
export class RocksDBWindowStore extends RocksDBSegmentedStore implements WindowBytesStore {
  /** The window size (ms). */
  readonly windowSize: number
  /** Whether every put is kept, even for the same key and window. */
  readonly retainDuplicates: boolean
  #seqnum = 0

  /** Arguments are validated by the supplier. */
  constructor(options: RocksDBWindowStoreOptions) {
    super(options, windowSegmentedKeySchema)
    this.windowSize = options.windowSize
    this.retainDuplicates = options.retainDuplicates
  }

  /** Opens the store's segments (asynchronously) and registers its restore callback. */
  override init(context: StateStoreContext, root: StateStore): Promise<void> {
    this.#seqnum = 0
    return super.init(context, root)
  }

  put(key: Buffer, value: Buffer | null, windowStartTime: number): void {
    this.segments.checkOpen()
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    // A null put with duplicates retained would delete nothing: it is skipped, as in Kafka.
    if ((value === null || value === undefined) && this.retainDuplicates) return
    if (this.retainDuplicates) this.#seqnum = (this.#seqnum + 1) & 0x7fffffff
    this.segments.put(WindowKeySchema.toStoreKeyBinary(key, windowStartTime, this.#seqnum), value ?? null)
  }

  fetch(key: Buffer, windowStartTime: number): Buffer | null
  fetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  fetch(...args: FetchArgs): Buffer | null | WindowStoreIterator<Buffer> | Iter {
    if (args.length !== 2) return this.#range(args, true)
    const [key, windowStartTime] = args
    // With retainDuplicates this looks up the current seqnum only, as in Kafka.
    return this.segments.get(WindowKeySchema.toStoreKeyBinary(key, windowStartTime, this.#seqnum))
  }

  backwardFetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  backwardFetch(...args: RangeArgs): WindowStoreIterator<Buffer> | Iter {
    return this.#range(args, false)
  }

  fetchAll(timeFrom: number, timeTo: number): Iter {
    return this.#windowed(this.segments.fetchRange(undefined, undefined, timeFrom, timeTo, true))
  }

  backwardFetchAll(timeFrom: number, timeTo: number): Iter {
    return this.#windowed(this.segments.fetchRange(undefined, undefined, timeFrom, timeTo, false))
  }

  all(): Iter {
    return this.#windowed(this.segments.fetchRange(undefined, undefined, 0, Number.MAX_SAFE_INTEGER, true))
  }

  backwardAll(): Iter {
    return this.#windowed(this.segments.fetchRange(undefined, undefined, 0, Number.MAX_SAFE_INTEGER, false))
  }

  #range(args: RangeArgs, forward: boolean): WindowStoreIterator<Buffer> | Iter {
    if (args.length === 4) {
      const [keyFrom, keyTo, timeFrom, timeTo] = args
      return this.#windowed(this.segments.fetchRange(keyFrom ?? undefined, keyTo ?? undefined, timeFrom, timeTo, forward))
    }
    const [key, timeFrom, timeTo] = args
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    return new MappedKeyValueIterator(this.segments.fetchKey(key, timeFrom, timeTo, forward), storeKey =>
      WindowKeySchema.extractStoreTimestamp(storeKey)
    )
  }

  #windowed(iterator: KeyValueIterator<Buffer, Buffer>): Iter {
    const windowSize = this.windowSize
    return new MappedKeyValueIterator(iterator, storeKey => WindowKeySchema.fromStoreKey(storeKey, windowSize))
  }
}
