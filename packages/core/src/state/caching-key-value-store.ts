/**
 * The caching layer of key-value stores (Kafka's CachingKeyValueStore), over bytes. Writes go to
 * the thread's record cache only (dirty, with the record context of the write); reads look in
 * the cache first and cache what they read from below; ranges merge the cache with the store
 * below. On flush (commit), on eviction and on close the dirty entries go to the store below in
 * write order, each under its own record context, and to the flush listener. A key written and
 * deleted between two flushes is neither written below nor forwarded when a listener is set.
 * Without a record cache in its context (MockProcessorContext, global stores) it writes through.
 */
import type { KeyValue } from '../key-value.js'
import type { Serializer } from '../serialization/serde.js'
import { bytesToKey } from './byte-keys.js'
import { LRUCacheEntry } from './cache/lru-cache-entry.js'
import type { ThreadCache } from './cache/thread-cache.js'
import { CachingStoreBase } from './caching-store-base.js'
import type { KeyValueBytesStore, KeyValueIterator } from './key-value-store.js'
import { MergedSortedCacheKeyValueIterator } from './merged-sorted-cache-key-value-iterator.js'

export class CachingKeyValueStore extends CachingStoreBase<KeyValueBytesStore> implements KeyValueBytesStore {
  get(key: Buffer): Buffer | null {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.get(key)
    return this.#getInternal(cache, key, bytesToKey(key))
  }

  /** The value in the store below the cache: what was last flushed (IQv2 `skipCache()`). */
  getSkippingCache(key: Buffer): Buffer | null {
    this.checkOpen()
    return this.inner.get(key)
  }

  put(key: Buffer, value: Buffer | null): void {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) this.inner.put(key, value)
    else this.#putInternal(cache, key, value, bytesToKey(key))
  }

  putIfAbsent(key: Buffer, value: Buffer | null): Buffer | null {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.putIfAbsent(key, value)
    const id = bytesToKey(key)
    const previous = this.#getInternal(cache, key, id)
    if (previous === null) this.#putInternal(cache, key, value, id)
    return previous
  }

  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) {
      this.inner.putAll(entries)
      return
    }
    for (const entry of entries) this.#putInternal(cache, entry.key, entry.value, bytesToKey(entry.key))
  }

  delete(key: Buffer): Buffer | null {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.delete(key)
    const id = bytesToKey(key)
    const previous = this.#getInternal(cache, key, id)
    this.#putInternal(cache, key, null, id)
    return previous
  }

  range(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.range(from, to)
    return new MergedSortedCacheKeyValueIterator(this.name, cache.range(this.cacheName, from, to), this.inner.range(from, to), true)
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.reverseRange(from, to)
    return new MergedSortedCacheKeyValueIterator(
      this.name,
      cache.reverseRange(this.cacheName, from, to),
      this.inner.reverseRange(from, to),
      false
    )
  }

  all(): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.all()
    return new MergedSortedCacheKeyValueIterator(this.name, cache.all(this.cacheName), this.inner.all(), true)
  }

  reverseAll(): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.reverseAll()
    return new MergedSortedCacheKeyValueIterator(this.name, cache.reverseAll(this.cacheName), this.inner.reverseAll(), false)
  }

  /** The metered layer hands the prefix down already serialized (an identity serializer). */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    this.checkOpen()
    const cache = this.recordCache
    const storeIterator = this.inner.prefixScan(prefix, prefixKeySerializer)
    if (cache === undefined) return storeIterator
    const raw = prefixKeySerializer.serialize(`${this.context.applicationId}-${this.name}-changelog`, prefix)
    if (raw === null || raw === undefined) return storeIterator
    return new MergedSortedCacheKeyValueIterator(this.name, cache.prefixScan(this.cacheName, raw), storeIterator, true)
  }

  /** The entries of the store below; cached writes are not counted until flushed (as in Kafka). */
  approximateNumEntries(): number {
    this.checkOpen()
    return this.inner.approximateNumEntries()
  }

  #getInternal(cache: ThreadCache, key: Buffer, id: string): Buffer | null {
    const entry = cache.get(this.cacheName, key, id)
    if (entry !== undefined) return entry.value
    const raw = this.inner.get(key)
    if (raw === null) return null
    cache.put(this.cacheName, key, LRUCacheEntry.clean(raw), id)
    return raw
  }

  #putInternal(cache: ThreadCache, key: Buffer, value: Buffer | null, id: string): void {
    cache.put(this.cacheName, key, this.dirtyEntry(value), id)
  }

  protected fetchBelow(key: Buffer): Buffer | null {
    return this.inner.get(key)
  }

  protected putBelow(key: Buffer, value: Buffer | null): void {
    this.inner.put(key, value)
  }
}
