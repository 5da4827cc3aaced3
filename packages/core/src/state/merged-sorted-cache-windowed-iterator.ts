/**
 * Merges the record-cache rows of a window or session store with an iterator of the store below
 * (Kafka's MergedSortedCacheWindowStoreIterator, MergedSortedCacheWindowStoreKeyValueIterator and
 * MergedSortedCacheSessionStoreIterator), ascending or descending. Cache rows come in cache-key
 * order (segment, then store-key bytes); each store entry is placed by the cache key it would
 * have, so the two interleave as a segmented backend orders them. A consumed cache row shadows
 * the store entry of the same key wherever that entry comes (a cached delete only shadows), so
 * no entry is returned twice or stale, even from a backend that orders the entries of a segment
 * otherwise (the in-memory session store returns the sessions of one key and end newest start
 * first). Store entries the caching layer holds expired are skipped. Closing closes both sides
 * and tells the owner, which closes its open iterators when the store closes. @internal
 */
import { InvalidStateStoreError } from '../errors.js'
import { KeyValue } from '../key-value.js'
import { bytesToKey } from './byte-keys.js'
import type { NamedCacheIterator } from './cache/named-cache-iterator.js'
import { KeyValueIteratorBase } from './key-value-iterator-base.js'
import type { KeyValueIterator } from './key-value-store.js'

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined })

export interface WindowedCacheMergeOptions<K> {
  readonly storeName: string
  /** Cache rows in cache-key order (ascending when `forward`). */
  readonly cache: NamedCacheIterator
  readonly store: KeyValueIterator<K, Buffer>
  readonly forward: boolean
  /** The iterator key of a cached row, by its cache key; undefined when the query excludes the row. */
  readonly cachedKey: (cacheKey: Buffer) => K | undefined
  /** The cache key a store entry with this iterator key would have. */
  readonly storeCacheKey: (key: K) => Buffer
  /** Whether a store entry is live for the caching layer (not expired by the stream time it saw). */
  readonly live: (key: K) => boolean
  /** Called once, when the iterator closes. */
  readonly onClose?: (iterator: MergedSortedCacheWindowedIterator<K>) => void
}

interface CachedHead<K> {
  readonly id: string
  readonly cacheKey: Buffer
  readonly key: K
  readonly value: Buffer | null
}

export class MergedSortedCacheWindowedIterator<K> extends KeyValueIteratorBase<K, Buffer> {
  readonly #options: WindowedCacheMergeOptions<K>
  /** Ids (latin1 cache keys) of the cache rows consumed so far. */
  readonly #shadowed = new Set<string>()
  #cacheHead: CachedHead<K> | undefined
  /** The last store key placed, with its cache key (store iterators may peek the same key object). */
  #placedKey: K | undefined
  #placedCacheKey: Buffer | undefined
  #pending: KeyValue<K, Buffer> | undefined
  #closed = false

  constructor(options: WindowedCacheMergeOptions<K>) {
    super()
    this.#options = options
  }

  next(): IteratorResult<KeyValue<K, Buffer>, undefined> {
    this.#checkOpen()
    const next = this.#pending ?? this.#advance()
    this.#pending = undefined
    return next === undefined ? DONE : { done: false, value: next }
  }

  peekNextKey(): K | undefined {
    this.#checkOpen()
    this.#pending ??= this.#advance()
    return this.#pending?.key
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#pending = undefined
    this.#cacheHead = undefined
    try {
      this.#options.cache.close()
      this.#options.store.close()
    } finally {
      this.#options.onClose?.(this)
    }
  }

  /** The next entry to return, consuming what it passes; undefined at the end. */
  #advance(): KeyValue<K, Buffer> | undefined {
    const { store, forward } = this.#options
    for (;;) {
      const cached = this.#peekCache()
      const storeKey = this.#peekStore()
      if (cached === undefined && storeKey === undefined) return undefined
      if (cached !== undefined) {
        const cmp = storeKey === undefined ? 0 : Buffer.compare(cached.cacheKey, this.#cacheKeyOf(storeKey))
        // Ties go to the cache: the store entry it replaces is shadowed once the row is consumed.
        if (storeKey === undefined || (forward ? cmp <= 0 : cmp >= 0)) {
          this.#cacheHead = undefined
          this.#options.cache.next()
          this.#shadowed.add(cached.id)
          if (cached.value === null) continue
          return new KeyValue(cached.key, cached.value)
        }
      }
      const result = store.next()
      if (result.done === true) return undefined
      return result.value
    }
  }

  /** The next cache row the query includes, without consuming it. */
  #peekCache(): CachedHead<K> | undefined {
    if (this.#cacheHead !== undefined) return this.#cacheHead
    const cache = this.#options.cache
    for (let row = cache.peek(); row !== undefined; row = cache.peek()) {
      const key = this.#options.cachedKey(row.key)
      if (key !== undefined) {
        this.#cacheHead = { id: bytesToKey(row.key), cacheKey: row.key, key, value: row.entry.value }
        return this.#cacheHead
      }
      cache.next()
    }
    return undefined
  }

  /** The key of the next live, unshadowed store entry, dropping the others. */
  #peekStore(): K | undefined {
    const { store, live } = this.#options
    const shadowed = this.#shadowed
    for (let key = store.peekNextKey(); key !== undefined; key = store.peekNextKey()) {
      if (live(key) && (shadowed.size === 0 || !shadowed.has(bytesToKey(this.#cacheKeyOf(key))))) return key
      store.next()
    }
    return undefined
  }

  #cacheKeyOf(key: K): Buffer {
    if (this.#placedKey !== key || this.#placedCacheKey === undefined) {
      this.#placedKey = key
      this.#placedCacheKey = this.#options.storeCacheKey(key)
    }
    return this.#placedCacheKey
  }

  #checkOpen(): void {
    if (this.#closed) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `An iterator of store "${this.#options.storeName}" was used after it was closed`)
    }
  }
}
