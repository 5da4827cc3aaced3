/**
 * The caching layer of key-value stores (Kafka's CachingKeyValueStore), over bytes. Writes go to
 * the thread's record cache only (dirty, with the record context of the write); reads look in
 * the cache first and cache what they read from below; ranges merge the cache with the store
 * below. On flush (commit), on eviction and on close the dirty entries go to the store below in
 * write order, each under its own record context, and to the flush listener. A key written and
 * deleted between two flushes is neither written below nor forwarded when a listener is set.
 * Without a record cache in its context (MockProcessorContext, global stores) it writes through.
 */
import { InvalidStateStoreError } from '../errors.js'
import type { KeyValue } from '../key-value.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import { Headers } from '../record.js'
import type { Serializer } from '../serialization/serde.js'
import { toCacheKey } from './cache/cache-key.js'
import type { DirtyEntry } from './cache/dirty-entry.js'
import { LRUCacheEntry } from './cache/lru-cache-entry.js'
import { ThreadCache } from './cache/thread-cache.js'
import type { CacheFlushListener, CachedStateStore } from './cached-state-store.js'
import type { KeyValueBytesStore, KeyValueIterator } from './key-value-store.js'
import { MergedSortedCacheKeyValueIterator } from './merged-sorted-cache-key-value-iterator.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'

/** The record context of a write made outside record processing (a context without one). */
const NO_RECORD: ProcessorRecordContext = Object.freeze({ topic: undefined, partition: -1, offset: -1, timestamp: 0, headers: new Headers() })

export class CachingKeyValueStore implements KeyValueBytesStore, CachedStateStore<Buffer, Buffer> {
  readonly #inner: KeyValueBytesStore
  #context: StateStoreContext | undefined
  #cache: ThreadCache | undefined
  #cacheName = ''
  #initialized = false
  #flushListener: CacheFlushListener<Buffer, Buffer> | undefined
  #sendOldValues = false
  /** The record context of the entry being flushed, shown to the layers below. */
  #flushing: ProcessorRecordContext | undefined

  constructor (inner: KeyValueBytesStore) {
    this.#inner = inner
  }

  get name (): string { return this.#inner.name }
  get persistent (): boolean { return this.#inner.persistent }

  /** The layer below (change-logging or the backend). */
  get wrapped (): KeyValueBytesStore { return this.#inner }

  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    this.#cache = context.cache
    this.#cacheName = ThreadCache.nameSpaceFromTaskIdAndStore(context.taskId.toString(), this.name)
    this.#cache?.addDirtyEntryFlushListener(this.#cacheName, entries => { this.#flushEntries(entries) })
    this.#initialized = true
    return this.#inner.init(new StateStoreContextOverlay(context, { recordContext: () => this.#flushing }), root)
  }

  setFlushListener (listener: CacheFlushListener<Buffer, Buffer>, sendOldValues: boolean): boolean {
    this.#flushListener = listener
    this.#sendOldValues = sendOldValues
    return !this.#initialized || this.#cache !== undefined
  }

  flush (): void {
    this.#checkOpen()
    this.#cache?.flush(this.#cacheName)
    this.#inner.flush()
  }

  /** Flushes the cache, drops it and closes the store below; reports the first failure after all three. */
  close (): void {
    const cache = this.#cache
    if (cache === undefined || !this.#inner.isOpen()) {
      this.#inner.close()
      return
    }
    let first: unknown
    try { cache.flush(this.#cacheName) } catch (err) { first ??= err }
    try { cache.close(this.#cacheName) } catch (err) { first ??= err }
    try { this.#inner.close() } catch (err) { first ??= err }
    if (first !== undefined) throw first
  }

  isOpen (): boolean {
    return this.#inner.isOpen()
  }

  get (key: Buffer): Buffer | null {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.get(key)
    return this.#getInternal(cache, key, toCacheKey(key))
  }

  put (key: Buffer, value: Buffer | null): void {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) this.#inner.put(key, value)
    else this.#putInternal(cache, key, value, toCacheKey(key))
  }

  putIfAbsent (key: Buffer, value: Buffer | null): Buffer | null {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.putIfAbsent(key, value)
    const id = toCacheKey(key)
    const previous = this.#getInternal(cache, key, id)
    if (previous === null) this.#putInternal(cache, key, value, id)
    return previous
  }

  putAll (entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) {
      this.#inner.putAll(entries)
      return
    }
    for (const entry of entries) this.#putInternal(cache, entry.key, entry.value, toCacheKey(entry.key))
  }

  delete (key: Buffer): Buffer | null {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.delete(key)
    const id = toCacheKey(key)
    const previous = this.#getInternal(cache, key, id)
    this.#putInternal(cache, key, null, id)
    return previous
  }

  range (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.range(from, to)
    return new MergedSortedCacheKeyValueIterator(this.name, cache.range(this.#cacheName, from, to), this.#inner.range(from, to), true)
  }

  reverseRange (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.reverseRange(from, to)
    return new MergedSortedCacheKeyValueIterator(this.name, cache.reverseRange(this.#cacheName, from, to), this.#inner.reverseRange(from, to), false)
  }

  all (): KeyValueIterator<Buffer, Buffer> {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.all()
    return new MergedSortedCacheKeyValueIterator(this.name, cache.all(this.#cacheName), this.#inner.all(), true)
  }

  reverseAll (): KeyValueIterator<Buffer, Buffer> {
    this.#checkOpen()
    const cache = this.#cache
    if (cache === undefined) return this.#inner.reverseAll()
    return new MergedSortedCacheKeyValueIterator(this.name, cache.reverseAll(this.#cacheName), this.#inner.reverseAll(), false)
  }

  /** The metered layer hands the prefix down already serialized (an identity serializer). */
  prefixScan<P> (prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    this.#checkOpen()
    const cache = this.#cache
    const storeIterator = this.#inner.prefixScan(prefix, prefixKeySerializer)
    if (cache === undefined) return storeIterator
    const raw = prefixKeySerializer.serialize(`${this.#context!.applicationId}-${this.name}-changelog`, prefix)
    if (raw === null || raw === undefined) return storeIterator
    return new MergedSortedCacheKeyValueIterator(this.name, cache.prefixScan(this.#cacheName, raw), storeIterator, true)
  }

  /** The entries of the store below; cached writes are not counted until flushed (as in Kafka). */
  approximateNumEntries (): number {
    this.#checkOpen()
    return this.#inner.approximateNumEntries()
  }

  #getInternal (cache: ThreadCache, key: Buffer, id: string): Buffer | null {
    const entry = cache.get(this.#cacheName, key, id)
    if (entry !== undefined) return entry.value
    const raw = this.#inner.get(key)
    if (raw === null) return null
    cache.put(this.#cacheName, key, LRUCacheEntry.clean(raw), id)
    return raw
  }

  #putInternal (cache: ThreadCache, key: Buffer, value: Buffer | null, id: string): void {
    const recordContext = this.#context!.recordContext?.() ?? NO_RECORD
    cache.put(this.#cacheName, key, LRUCacheEntry.dirty(value, recordContext), id)
  }

  /** Writes flushed entries below, each under its own record context, and forwards them. */
  #flushEntries (entries: DirtyEntry[]): void {
    for (const dirty of entries) {
      const previous = this.#flushing
      const recordContext = dirty.entry.recordContext
      this.#flushing = recordContext
      try {
        const listener = this.#flushListener
        if (listener === undefined) {
          this.#inner.put(dirty.key, dirty.newValue)
          continue
        }
        const newValue = dirty.newValue
        const oldValue = newValue === null || this.#sendOldValues ? this.#inner.get(dirty.key) : null
        // Neither in the store below nor cached before: nothing to write, nothing to forward.
        if (newValue === null && oldValue === null) continue
        this.#inner.put(dirty.key, newValue)
        listener(dirty.key, newValue, this.#sendOldValues ? oldValue : null, recordContext.timestamp, recordContext)
      } finally {
        this.#flushing = previous
      }
    }
  }

  #checkOpen (): void {
    if (!this.#inner.isOpen()) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is currently closed`)
    }
  }
}
