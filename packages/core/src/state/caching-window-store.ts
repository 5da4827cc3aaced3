/**
 * The caching layer of window stores (Kafka's CachingWindowStore), over bytes. A put goes to the
 * thread's record cache only, under the store key `[key][window start][seqnum 0]` prefixed with
 * its segment; a single-window fetch looks in the cache first; range reads merge the cache with
 * the store below in the backend's order (segment by segment). Windows the layer holds expired
 * (start at or before the stream time it saw minus the retention period) are never returned.
 * Dirty windows go below on flush, eviction and close, and to the flush listener with their store
 * key. Stores that retain duplicates are never cached (the builders do not wrap them). Without a
 * record cache in its context it writes straight through.
 */
import { NamedCacheIterator } from './cache/named-cache-iterator.js'
import { CachingWindowedStoreBase, inKeyRange } from './caching-windowed-store-base.js'
import type { CachingWindowedStoreOptions } from './caching-windowed-store-base.js'
import type { KeyValueIterator } from './key-value-store.js'
import { WindowKeySchema } from './window-key-schema.js'
import type { WindowBytesStore, WindowStoreIterator } from './window-store.js'
import type { Windowed } from './windowed.js'

const SUFFIX_SIZE = 12
const INT32_MAX = 0x7fffffff

export interface CachingWindowStoreOptions extends CachingWindowedStoreOptions {
  /** The window size of the store (ms): a window is [start, start + windowSize). */
  readonly windowSize: number
}

type FetchArgs = [Buffer, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type RangeArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type RangeKind = 'fetch' | 'fetchAll' | 'all'

export class CachingWindowStore extends CachingWindowedStoreBase<WindowBytesStore> implements WindowBytesStore {
  readonly #windowSize: number

  constructor(inner: WindowBytesStore, options: CachingWindowStoreOptions) {
    super(inner, options)
    this.#windowSize = options.windowSize
  }

  put(key: Buffer, value: Buffer | null, windowStartTime: number): void {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) {
      this.inner.put(key, value, windowStartTime)
      return
    }
    this.checkKey(key)
    this.putCached(cache, WindowKeySchema.toStoreKeyBinary(key, windowStartTime, 0), value ?? null)
  }

  fetch(key: Buffer, windowStartTime: number): Buffer | null
  fetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  fetch(...args: FetchArgs): Buffer | null | WindowStoreIterator<Buffer> | Iter {
    if (args.length !== 2) return this.#range(args, true)
    this.checkOpen()
    const [key, windowStartTime] = args
    const cache = this.recordCache
    if (cache === undefined) return this.inner.fetch(key, windowStartTime)
    this.checkKey(key)
    if (windowStartTime < this.firstLiveTime) return null
    const entry = this.getCached(cache, WindowKeySchema.toStoreKeyBinary(key, windowStartTime, 0))
    return entry === undefined ? this.inner.fetch(key, windowStartTime) : entry.value
  }

  backwardFetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  backwardFetch(...args: RangeArgs): WindowStoreIterator<Buffer> | Iter {
    return this.#range(args, false)
  }

  fetchAll(timeFrom: number, timeTo: number): Iter {
    return this.#keyRange('fetchAll', undefined, undefined, timeFrom, timeTo, true)
  }

  backwardFetchAll(timeFrom: number, timeTo: number): Iter {
    return this.#keyRange('fetchAll', undefined, undefined, timeFrom, timeTo, false)
  }

  all(): Iter {
    return this.#keyRange('all', undefined, undefined, 0, Number.MAX_SAFE_INTEGER, true)
  }

  backwardAll(): Iter {
    return this.#keyRange('all', undefined, undefined, 0, Number.MAX_SAFE_INTEGER, false)
  }

  protected segmentTime(storeKey: Buffer): number {
    return WindowKeySchema.extractStoreTimestamp(storeKey)
  }

  protected fetchBelow(storeKey: Buffer): Buffer | null {
    return this.inner.fetch(WindowKeySchema.extractStoreKeyBytes(storeKey), WindowKeySchema.extractStoreTimestamp(storeKey))
  }

  protected putBelow(storeKey: Buffer, value: Buffer | null): void {
    this.inner.put(WindowKeySchema.extractStoreKeyBytes(storeKey), value, WindowKeySchema.extractStoreTimestamp(storeKey))
  }

  #range(args: RangeArgs, forward: boolean): WindowStoreIterator<Buffer> | Iter {
    if (args.length === 4) return this.#keyRange('fetch', args[0] ?? undefined, args[1] ?? undefined, args[2], args[3], forward)
    this.checkOpen()
    const [key, timeFrom, timeTo] = args
    const inner = this.inner
    const cache = this.recordCache
    if (cache === undefined) return forward ? inner.fetch(key, timeFrom, timeTo) : inner.backwardFetch(key, timeFrom, timeTo)
    this.checkKey(key)
    const firstLive = this.firstLiveTime
    const from = Math.max(timeFrom, firstLive)
    const store = forward ? inner.fetch(key, from, timeTo) : inner.backwardFetch(key, from, timeTo)
    const cf = this.cacheFunction
    const rows =
      from > timeTo
        ? NamedCacheIterator.empty()
        : this.cachedRange(
            cache,
            cf.cacheKey(WindowKeySchema.toStoreKeyBinary(key, Math.max(from, 0), 0), from),
            cf.cacheKey(WindowKeySchema.toStoreKeyBinary(key, Math.min(timeTo, Number.MAX_SAFE_INTEGER), INT32_MAX), timeTo),
            forward
          )
    return this.merge<number>({
      cache: rows,
      store,
      forward,
      cachedKey: storeKey => {
        if (storeKey.length !== key.length + SUFFIX_SIZE || storeKey.compare(key, 0, key.length, 0, key.length) !== 0) return undefined
        const start = WindowKeySchema.extractStoreTimestamp(storeKey)
        return start >= from && start <= timeTo ? start : undefined
      },
      storeCacheKey: start => cf.cacheKey(WindowKeySchema.toStoreKeyBinary(key, start, 0), start),
      live: start => start >= firstLive
    })
  }

  /** fetch(keyFrom, keyTo, timeFrom, timeTo), fetchAll and all, either way. */
  #keyRange(
    kind: RangeKind,
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    timeFrom: number,
    timeTo: number,
    forward: boolean
  ): Iter {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.#storeRange(kind, keyFrom, keyTo, timeFrom, timeTo, forward)
    const firstLive = this.firstLiveTime
    const from = Math.max(timeFrom, firstLive)
    const store = this.#storeRange(kind, keyFrom, keyTo, from, timeTo, forward)
    const cf = this.cacheFunction
    const windowSize = this.#windowSize
    const rows =
      from > timeTo ? NamedCacheIterator.empty() : this.cachedRange(cache, cf.lowerBound(from, keyFrom), cf.upperBound(timeTo), forward)
    return this.merge<Windowed<Buffer>>({
      cache: rows,
      store,
      forward,
      cachedKey: storeKey => {
        const start = WindowKeySchema.extractStoreTimestamp(storeKey)
        if (start < from || start > timeTo) return undefined
        return inKeyRange(WindowKeySchema.extractStoreKeyBytes(storeKey), keyFrom, keyTo)
          ? WindowKeySchema.fromStoreKey(storeKey, windowSize)
          : undefined
      },
      storeCacheKey: windowed =>
        cf.cacheKey(WindowKeySchema.toStoreKeyBinary(windowed.key, windowed.window.start, 0), windowed.window.start),
      live: windowed => windowed.window.start >= firstLive
    })
  }

  /** The same read on the store below; all() stays all() (its time bounds only apply to the cache). */
  #storeRange(
    kind: RangeKind,
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    timeFrom: number,
    timeTo: number,
    forward: boolean
  ): Iter {
    const inner = this.inner
    if (kind === 'all') return forward ? inner.all() : inner.backwardAll()
    if (kind === 'fetchAll') return forward ? inner.fetchAll(timeFrom, timeTo) : inner.backwardFetchAll(timeFrom, timeTo)
    return forward ? inner.fetch(keyFrom, keyTo, timeFrom, timeTo) : inner.backwardFetch(keyFrom, keyTo, timeFrom, timeTo)
  }
}
