/**
 * What the caching layers of window and session stores share (Kafka's CachingWindowStore and
 * CachingSessionStore, over bytes), beyond CachingStoreBase: the record cache keyed by segmented
 * cache keys; the stream time the layer has seen (the greatest window start or session end
 * written through it or restored below it), beyond whose retention period cached and stored
 * entries are expired and never returned; the open merged iterators, closed with the store.
 * @internal
 */
import { StreamsError } from '../errors.js'
import type { LRUCacheEntry } from './cache/lru-cache-entry.js'
import type { NamedCacheIterator } from './cache/named-cache-iterator.js'
import type { ThreadCache } from './cache/thread-cache.js'
import { CachingStoreBase } from './caching-store-base.js'
import { MergedSortedCacheWindowedIterator } from './merged-sorted-cache-windowed-iterator.js'
import type { WindowedCacheMergeOptions } from './merged-sorted-cache-windowed-iterator.js'
import { SegmentedCacheFunction } from './segmented-cache-function.js'
import type { StateRestoreCallback, StateStore, StateStoreContext } from './state-store.js'

export interface CachingWindowedStoreOptions {
  /** The segment interval of the backend (its supplier's; 1 for the in-memory stores). */
  readonly segmentInterval: number
  /** Entries whose segment time is at or before `stream time - retentionPeriod` are expired. */
  readonly retentionPeriod: number
}

/** The merged iterator's options, with `cachedKey` reading store keys. */
type MergeOptions<K> = Omit<WindowedCacheMergeOptions<K>, 'storeName' | 'onClose' | 'cachedKey'> & {
  readonly cachedKey: (storeKey: Buffer) => K | undefined
}

export abstract class CachingWindowedStoreBase<S extends StateStore> extends CachingStoreBase<S> {
  protected readonly cacheFunction: SegmentedCacheFunction
  readonly #retentionPeriod: number
  readonly #openIterators = new Set<{ close(): void }>()
  #observedStreamTime = -1

  constructor(inner: S, options: CachingWindowedStoreOptions) {
    super(inner)
    this.cacheFunction = new SegmentedCacheFunction(options.segmentInterval)
    this.#retentionPeriod = options.retentionPeriod
  }

  override init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#observedStreamTime = -1
    return super.init(context, root)
  }

  /** Closes its iterators, then as CachingStoreBase; reports the first failure. */
  override close(): void {
    for (const iterator of [...this.#openIterators]) iterator.close()
    super.close()
  }

  /** The first segment time that is not expired (may be negative). */
  protected get firstLiveTime(): number {
    return this.#observedStreamTime - this.#retentionPeriod + 1
  }

  /** The segment time of a store key (window start or session end). */
  protected abstract segmentTime(storeKey: Buffer): number

  /** Caches a write as dirty, with the record context of the write. */
  protected putCached(cache: ThreadCache, storeKey: Buffer, value: Buffer | null): void {
    const segmentTime = this.segmentTime(storeKey)
    cache.put(this.cacheName, this.cacheFunction.cacheKey(storeKey, segmentTime), this.dirtyEntry(value))
    this.#observe(segmentTime)
  }

  /** The cached entry of a store key, if any. */
  protected getCached(cache: ThreadCache, storeKey: Buffer): LRUCacheEntry | undefined {
    return cache.get(this.cacheName, this.cacheFunction.cacheKey(storeKey, this.segmentTime(storeKey)))
  }

  /** Cached rows in [from, to] (undefined bounds are open), in cache-key order. */
  protected cachedRange(cache: ThreadCache, from: Buffer | undefined, to: Buffer | undefined, forward: boolean): NamedCacheIterator {
    return forward ? cache.range(this.cacheName, from, to) : cache.reverseRange(this.cacheName, from, to)
  }

  /**
   * A merged iterator over the cache and the store below, closed with this store. `cachedKey`
   * gets the store key of each cached row (undefined skips the row).
   */
  protected merge<K>(options: MergeOptions<K>): MergedSortedCacheWindowedIterator<K> {
    const cf = this.cacheFunction
    const cachedKey = options.cachedKey
    const iterator = new MergedSortedCacheWindowedIterator<K>({
      ...options,
      cachedKey: cacheKey => cachedKey(cf.storeKey(cacheKey)),
      storeName: this.name,
      onClose: closed => {
        this.#openIterators.delete(closed)
      }
    })
    this.#openIterators.add(iterator)
    return iterator
  }

  /** Throws ILLEGAL_ARGUMENT for a null key. */
  protected checkKey(key: Buffer): void {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
  }

  protected override storeKeyOf(cacheKey: Buffer): Buffer {
    return this.cacheFunction.storeKey(cacheKey)
  }

  /** Restored changelog records (store keys) move the stream time as writes do. */
  protected override restoreCallback(restore: StateRestoreCallback): StateRestoreCallback {
    return records => {
      for (const record of records) this.#observe(this.segmentTime(record.key))
      restore(records)
    }
  }

  #observe(segmentTime: number): void {
    if (segmentTime > this.#observedStreamTime) this.#observedStreamTime = segmentTime
  }
}

/** @internal Whether `keyBytes` is in [keyFrom, keyTo] (undefined bounds are open). */
export function inKeyRange(keyBytes: Buffer, keyFrom: Buffer | undefined, keyTo: Buffer | undefined): boolean {
  return (keyFrom === undefined || Buffer.compare(keyBytes, keyFrom) >= 0) && (keyTo === undefined || Buffer.compare(keyBytes, keyTo) <= 0)
}
