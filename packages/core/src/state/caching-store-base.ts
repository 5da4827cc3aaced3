/**
 * What the caching layers of key-value, window and session stores share (Kafka's
 * CachingKeyValueStore, CachingWindowStore and CachingSessionStore), over bytes: the thread's
 * record cache and the store's namespace in it; the record context of a write, kept with its
 * dirty entry; flushing dirty entries below in write order, each under its own record context
 * (shown to the layers below), and to the flush listener, skipping a key written and deleted
 * between two flushes; flushing, dropping the cache and closing the store below on close,
 * reporting the first failure after all three. Without a record cache in its context the layer
 * writes straight through. @internal
 */
import { InvalidStateStoreError } from '../errors.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import { Headers } from '../record.js'
import type { DirtyEntry } from './cache/dirty-entry.js'
import { LRUCacheEntry } from './cache/lru-cache-entry.js'
import { ThreadCache } from './cache/thread-cache.js'
import type { CacheFlushListener, CachedStateStore } from './cached-state-store.js'
import type { StateRestoreCallback, StateStore, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'
import { WrappedStoreLayer } from './wrapped-store-layer.js'

/** The record context of a write made outside record processing (a context without one). */
const NO_RECORD: ProcessorRecordContext = Object.freeze({
  topic: undefined,
  partition: -1,
  offset: -1,
  timestamp: 0,
  headers: new Headers()
})

export abstract class CachingStoreBase<S extends StateStore> extends WrappedStoreLayer<S> implements CachedStateStore<Buffer, Buffer> {
  #context: StateStoreContext | undefined
  #cache: ThreadCache | undefined
  #cacheName = ''
  #initialized = false
  #flushListener: CacheFlushListener<Buffer, Buffer> | undefined
  #sendOldValues = false
  /** The record context of the entry being flushed, shown to the layers below. */
  #flushing: ProcessorRecordContext | undefined

  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    this.#cache = context.cache
    this.#cacheName = ThreadCache.nameSpaceFromTaskIdAndStore(context.taskId.toString(), this.name)
    this.#cache?.addDirtyEntryFlushListener(this.#cacheName, entries => {
      this.#flushEntries(entries)
    })
    this.#initialized = true
    return this.inner.init(
      new StateStoreContextOverlay(context, {
        recordContext: () => this.#flushing,
        register: (store, restore) => {
          context.register(store, this.restoreCallback(restore))
        }
      }),
      root
    )
  }

  setFlushListener(listener: CacheFlushListener<Buffer, Buffer>, sendOldValues: boolean): boolean {
    this.#flushListener = listener
    this.#sendOldValues = sendOldValues
    return !this.#initialized || this.#cache !== undefined
  }

  flush(): void {
    this.checkOpen()
    this.#cache?.flush(this.#cacheName)
    this.inner.flush()
  }

  /** Flushes the cache, drops it and closes the store below; reports the first failure after all three. */
  close(): void {
    const cache = this.#cache
    if (cache === undefined || !this.inner.isOpen()) {
      this.inner.close()
      return
    }
    let first: unknown
    try {
      cache.flush(this.#cacheName)
    } catch (err) {
      first ??= err
    }
    try {
      cache.close(this.#cacheName)
    } catch (err) {
      first ??= err
    }
    try {
      this.inner.close()
    } catch (err) {
      first ??= err
    }
    if (first !== undefined) throw first
  }

  /** The record cache, or undefined when the layer writes straight through. */
  protected get recordCache(): ThreadCache | undefined {
    return this.#cache
  }

  /** The store's namespace in the record cache. */
  protected get cacheName(): string {
    return this.#cacheName
  }

  /** The context of the last init (only read once the store is open). */
  protected get context(): StateStoreContext {
    return this.#context!
  }

  /** A dirty cache entry for a write of `value`, with the record context of the write. */
  protected dirtyEntry(value: Buffer | null): LRUCacheEntry {
    return LRUCacheEntry.dirty(value, this.#context!.recordContext?.() ?? NO_RECORD)
  }

  /** The restore callback registered for the store below; the windowed layers watch it. */
  protected restoreCallback(restore: StateRestoreCallback): StateRestoreCallback {
    return restore
  }

  /** The store key of a cache key (the windowed layers prefix store keys with their segment). */
  protected storeKeyOf(cacheKey: Buffer): Buffer {
    return cacheKey
  }

  /** Reads the value of a store key from the layer below (the old value of a flushed entry). */
  protected abstract fetchBelow(storeKey: Buffer): Buffer | null

  /** Writes a flushed entry to the layer below. */
  protected abstract putBelow(storeKey: Buffer, value: Buffer | null): void

  protected checkOpen(): void {
    if (!this.inner.isOpen()) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is currently closed`)
    }
  }

  /** Writes flushed entries below, each under its own record context, and forwards them. */
  #flushEntries(entries: DirtyEntry[]): void {
    for (const dirty of entries) {
      const previous = this.#flushing
      const recordContext = dirty.entry.recordContext
      const storeKey = this.storeKeyOf(dirty.key)
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
