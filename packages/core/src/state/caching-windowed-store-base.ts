/**
 * What the caching layers of window and session stores share (Kafka's CachingWindowStore and
 * CachingSessionStore, over bytes): the thread's record cache, keyed by segmented cache keys;
 * the stream time the layer has seen (the greatest window start or session end written through
 * it or restored below it), beyond whose retention period cached and stored entries are expired
 * and never returned; flushing dirty entries below in write order, each under its own record
 * context, and to the flush listener; the open merged iterators, closed with the store. Without
 * a record cache in its context the layer writes straight through. @internal
 */
import { InvalidStateStoreError } from '../errors.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import { Headers } from '../record.js'
import type { DirtyEntry } from './cache/dirty-entry.js'
import { LRUCacheEntry } from './cache/lru-cache-entry.js'
import type { NamedCacheIterator } from './cache/named-cache-iterator.js'
import { ThreadCache } from './cache/thread-cache.js'
import type { CacheFlushListener, CachedStateStore } from './cached-state-store.js'
import { MergedSortedCacheWindowedIterator } from './merged-sorted-cache-windowed-iterator.js'
import type { WindowedCacheMergeOptions } from './merged-sorted-cache-windowed-iterator.js'
import { SegmentedCacheFunction } from './segmented-cache-function.js'
import type { StateRestoreCallback, StateStore, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'

/** The record context of a write made outside record processing (a context without one). */
const NO_RECORD: ProcessorRecordContext = Object.freeze({ topic: undefined, partition: -1, offset: -1, timestamp: 0, headers: new Headers() })

export interface CachingWindowedStoreOptions {
  /** The segment interval of the backend (its supplier's; 1 for the in-memory stores). */
  readonly segmentInterval: number
  /** Entries whose segment time is at or before `stream time - retentionPeriod` are expired. */
  readonly retentionPeriod: number
}

export abstract class CachingWindowedStoreBase<S extends StateStore> implements CachedStateStore<Buffer, Buffer> {
  protected readonly inner: S
  protected readonly cacheFunction: SegmentedCacheFunction
  readonly #retentionPeriod: number
  readonly #openIterators = new Set<{ close(): void }>()
  #context: StateStoreContext | undefined
  #cache: ThreadCache | undefined
  #cacheName = ''
  #initialized = false
  #observedStreamTime = -1
  #flushListener: CacheFlushListener<Buffer, Buffer> | undefined
  #sendOldValues = false
  /** The record context of the entry being flushed, shown to the layers below. */
  #flushing: ProcessorRecordContext | undefined

  constructor (inner: S, options: CachingWindowedStoreOptions) {
    this.inner = inner
    this.cacheFunction = new SegmentedCacheFunction(options.segmentInterval)
    this.#retentionPeriod = options.retentionPeriod
  }

  get name (): string { return this.inner.name }
  get persistent (): boolean { return this.inner.persistent }

  /** The layer below (change-logging or the backend). */
  get wrapped (): S { return this.inner }

  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    this.#cache = context.cache
    this.#cacheName = ThreadCache.nameSpaceFromTaskIdAndStore(context.taskId.toString(), this.name)
    this.#cache?.addDirtyEntryFlushListener(this.#cacheName, entries => { this.#flushEntries(entries) })
    this.#observedStreamTime = -1
    this.#initialized = true
    return this.inner.init(new StateStoreContextOverlay(context, {
      recordContext: () => this.#flushing,
      register: (store, restore) => { context.register(store, this.#observingRestore(restore)) }
    }), root)
  }

  setFlushListener (listener: CacheFlushListener<Buffer, Buffer>, sendOldValues: boolean): boolean {
    this.#flushListener = listener
    this.#sendOldValues = sendOldValues
    return !this.#initialized || this.#cache !== undefined
  }

  flush (): void {
    this.checkOpen()
    this.#cache?.flush(this.#cacheName)
    this.inner.flush()
  }

  /** Closes its iterators, flushes the cache, drops it and closes the store below; reports the first failure. */
  close (): void {
    for (const iterator of [...this.#openIterators]) iterator.close()
    const cache = this.#cache
    if (cache === undefined || !this.inner.isOpen()) {
      this.inner.close()
      return
    }
    let first: unknown
    try { cache.flush(this.#cacheName) } catch (err) { first ??= err }
    try { cache.close(this.#cacheName) } catch (err) { first ??= err }
    try { this.inner.close() } catch (err) { first ??= err }
    if (first !== undefined) throw first
  }

  isOpen (): boolean {
    return this.inner.isOpen()
  }

  /** The record cache, or undefined when the layer writes straight through. */
  protected get recordCache (): ThreadCache | undefined {
    return this.#cache
  }

  /** The first segment time that is not expired (may be negative). */
  protected get firstLiveTime (): number {
    return this.#observedStreamTime - this.#retentionPeriod + 1
  }

  /** The segment time of a store key (window start or session end). */
  protected abstract segmentTime (storeKey: Buffer): number

  /** Reads the value of a store key from the layer below (the old value of a flushed entry). */
  protected abstract fetchBelow (storeKey: Buffer): Buffer | null

  /** Writes a flushed entry to the layer below. */
  protected abstract putBelow (storeKey: Buffer, value: Buffer | null): void

  /** Caches a write as dirty, with the record context of the write. */
  protected putCached (cache: ThreadCache, storeKey: Buffer, value: Buffer | null): void {
    const segmentTime = this.segmentTime(storeKey)
    const recordContext = this.#context!.recordContext?.() ?? NO_RECORD
    cache.put(this.#cacheName, this.cacheFunction.cacheKey(storeKey, segmentTime), LRUCacheEntry.dirty(value, recordContext))
    this.#observe(segmentTime)
  }

  /** The cached entry of a store key, if any. */
  protected getCached (cache: ThreadCache, storeKey: Buffer): LRUCacheEntry | undefined {
    return cache.get(this.#cacheName, this.cacheFunction.cacheKey(storeKey, this.segmentTime(storeKey)))
  }

  /** Cached rows in [from, to] (undefined bounds are open), in cache-key order. */
  protected cachedRange (cache: ThreadCache, from: Buffer | undefined, to: Buffer | undefined, forward: boolean): NamedCacheIterator {
    return forward ? cache.range(this.#cacheName, from, to) : cache.reverseRange(this.#cacheName, from, to)
  }

  /** A merged iterator over the cache and the store below, closed with this store. */
  protected merge<K> (options: Omit<WindowedCacheMergeOptions<K>, 'storeName' | 'onClose'>): MergedSortedCacheWindowedIterator<K> {
    const iterator = new MergedSortedCacheWindowedIterator<K>({
      ...options,
      storeName: this.name,
      onClose: closed => { this.#openIterators.delete(closed) }
    })
    this.#openIterators.add(iterator)
    return iterator
  }

  protected checkOpen (): void {
    if (!this.inner.isOpen()) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is currently closed`)
    }
  }

  #observe (segmentTime: number): void {
    if (segmentTime > this.#observedStreamTime) this.#observedStreamTime = segmentTime
  }

  /** Restored changelog records (store keys) move the stream time as writes do. */
  #observingRestore (restore: StateRestoreCallback): StateRestoreCallback {
    return records => {
      for (const record of records) this.#observe(this.segmentTime(record.key))
      restore(records)
    }
  }

  /** Writes flushed entries below, each under its own record context, and forwards them. */
  #flushEntries (entries: DirtyEntry[]): void {
    for (const dirty of entries) {
      const previous = this.#flushing
      const recordContext = dirty.entry.recordContext
      const storeKey = this.cacheFunction.storeKey(dirty.key)
      const newValue = dirty.newValue
      this.#flushing = recordContext
      try {
        const listener = this.#flushListener
        if (listener === undefined) {
          this.putBelow(storeKey, newValue)
          continue
        }
        const sendOldValues = this.#sendOldValues
        const oldValue = newValue === null || sendOldValues ? this.fetchBelow(storeKey) : null
        // Neither in the store below nor cached before: nothing to write, nothing to forward.
        if (newValue === null && oldValue === null) continue
        this.putBelow(storeKey, newValue)
        listener(storeKey, newValue, sendOldValues ? oldValue : null, recordContext.timestamp, recordContext)
      } finally {
        this.#flushing = previous
      }
    }
  }
}
