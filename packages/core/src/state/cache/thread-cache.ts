/**
 * The record cache of one stream thread (Kafka's ThreadCache): a byte budget
 * (`statestoreCacheMaxBytes`) shared by named caches, one per store of each task, named
 * `<taskId>-<storeName>`. It owns the budget: after a write, while the total exceeds it, the
 * least recently used entries of the cache written to are evicted (a dirty one flushes that
 * cache). Flushing a cache hands its dirty entries to the listener its store registered.
 * @internal
 */
import { StreamsError } from '../../errors.js'
import type { StreamsMetricsRegistry } from '../../metrics/streams-metrics-registry.js'
import type { Sensor } from '../../metrics/sensor.js'
import { bytesToKey, prefixUpperBound } from '../byte-keys.js'
import type { DirtyEntryFlushListener } from './dirty-entry.js'
import type { LRUCacheEntry } from './lru-cache-entry.js'
import { NamedCache, type CacheSizeTracker } from './named-cache.js'
import { NamedCacheIterator } from './named-cache-iterator.js'

export interface ThreadCacheOptions {
  /** The byte budget shared by every named cache; 0 keeps nothing (every write flushes through). */
  readonly maxCacheSizeBytes: number
  /** Where the DEBUG-level hit-ratio metrics (`stream-record-cache-metrics`) go. */
  readonly metrics?: StreamsMetricsRegistry | undefined
}

const CACHE_GROUP = 'stream-record-cache-metrics'

export class ThreadCache {
  readonly #caches = new Map<string, NamedCache>()
  readonly #tracker: CacheSizeTracker = { bytes: 0 }
  readonly #metrics: StreamsMetricsRegistry | undefined
  #maxCacheSizeBytes: number
  #puts = 0
  #gets = 0
  #evicts = 0
  #flushes = 0

  constructor(options: ThreadCacheOptions) {
    this.#maxCacheSizeBytes = checkSize(options.maxCacheSizeBytes)
    this.#metrics = options.metrics
  }

  /** The name of the cache of a store of a task: `<taskId>-<storeName>`. */
  static nameSpaceFromTaskIdAndStore(taskId: string, storeName: string): string {
    return `${taskId}-${storeName}`
  }

  get maxCacheSizeBytes(): number {
    return this.#maxCacheSizeBytes
  }
  get puts(): number {
    return this.#puts
  }
  get gets(): number {
    return this.#gets
  }
  get evicts(): number {
    return this.#evicts
  }
  get flushes(): number {
    return this.#flushes
  }

  /** Total bytes of every named cache. */
  sizeBytes(): number {
    return this.#tracker.bytes
  }

  /** Total entries of every named cache. */
  size(): number {
    let size = 0
    for (const cache of this.#caches.values()) size += cache.size
    return size
  }

  /** The named cache, if it exists (for inspection). */
  namedCache(namespace: string): NamedCache | undefined {
    return this.#caches.get(namespace)
  }

  /** Registers the listener that receives the dirty entries of `namespace` on flush and eviction. */
  addDirtyEntryFlushListener(namespace: string, listener: DirtyEntryFlushListener): void {
    this.#getOrCreate(namespace).setListener(listener)
  }

  flush(namespace: string): void {
    this.#flushes++
    this.#caches.get(namespace)?.flush()
  }

  /** `id` is the key's latin1 form when the caller already has it. */
  get(namespace: string, key: Buffer, id = bytesToKey(key)): LRUCacheEntry | undefined {
    this.#gets++
    return this.#caches.get(namespace)?.get(id)
  }

  put(namespace: string, key: Buffer, entry: LRUCacheEntry, id = bytesToKey(key)): void {
    this.#puts++
    this.#getOrCreate(namespace).put(key, id, entry)
    this.#maybeEvict(namespace)
  }

  putIfAbsent(namespace: string, key: Buffer, entry: LRUCacheEntry, id = bytesToKey(key)): LRUCacheEntry | undefined {
    const result = this.#getOrCreate(namespace).putIfAbsent(key, id, entry)
    this.#maybeEvict(namespace)
    if (result === undefined) this.#puts++
    return result
  }

  putAll(namespace: string, entries: ReadonlyArray<{ key: Buffer; value: LRUCacheEntry }>): void {
    for (const e of entries) this.put(namespace, e.key, e.value)
  }

  delete(namespace: string, key: Buffer, id = bytesToKey(key)): LRUCacheEntry | undefined {
    return this.#caches.get(namespace)?.delete(id)
  }

  /** Cached keys in [from, to] (undefined bounds are open), ascending; `to` exclusive when `toInclusive` is false. */
  range(namespace: string, from: Buffer | undefined, to: Buffer | undefined, toInclusive = true): NamedCacheIterator {
    return this.#iterator(namespace, from, to, toInclusive, true)
  }

  reverseRange(namespace: string, from: Buffer | undefined, to: Buffer | undefined): NamedCacheIterator {
    return this.#iterator(namespace, from, to, true, false)
  }

  all(namespace: string): NamedCacheIterator {
    return this.#iterator(namespace, undefined, undefined, true, true)
  }

  reverseAll(namespace: string): NamedCacheIterator {
    return this.#iterator(namespace, undefined, undefined, true, false)
  }

  /** Cached keys that start with `prefix`, ascending. */
  prefixScan(namespace: string, prefix: Buffer): NamedCacheIterator {
    const cache = this.#caches.get(namespace)
    if (cache === undefined) return NamedCacheIterator.empty()
    const from = bytesToKey(prefix)
    return new NamedCacheIterator(cache.keyRange(from, prefixUpperBound(from), false), cache, true)
  }

  /** Drops a named cache without flushing it (its store closed). */
  close(namespace: string): void {
    const cache = this.#caches.get(namespace)
    if (cache === undefined) return
    this.#caches.delete(namespace)
    cache.close()
    this.#metrics?.removeScope(cacheScope(namespace))
  }

  /** Changes the budget; when it shrinks, caches are evicted round-robin until the total fits. */
  resize(maxCacheSizeBytes: number): void {
    const shrink = checkSize(maxCacheSizeBytes) < this.#maxCacheSizeBytes
    this.#maxCacheSizeBytes = maxCacheSizeBytes
    if (!shrink || this.#caches.size === 0) return
    let evicted = true
    while (evicted && this.#tracker.bytes > this.#maxCacheSizeBytes) {
      evicted = false
      for (const cache of [...this.#caches.values()]) {
        if (this.#tracker.bytes <= this.#maxCacheSizeBytes) break
        if (cache.size === 0) continue
        cache.evict()
        this.#evicts++
        evicted = true
      }
    }
  }

  #maybeEvict(namespace: string): void {
    while (this.#tracker.bytes > this.#maxCacheSizeBytes) {
      const cache = this.#getOrCreate(namespace)
      // The write may have filled other caches (a flush is re-entrant): nothing left to evict here.
      if (cache.size === 0) return
      cache.evict()
      this.#evicts++
    }
  }

  #iterator(
    namespace: string,
    from: Buffer | undefined,
    to: Buffer | undefined,
    toInclusive: boolean,
    forward: boolean
  ): NamedCacheIterator {
    const cache = this.#caches.get(namespace)
    if (cache === undefined) return NamedCacheIterator.empty()
    const keys = cache.keyRange(
      from === undefined ? undefined : bytesToKey(from),
      to === undefined ? undefined : bytesToKey(to),
      toInclusive
    )
    return new NamedCacheIterator(keys, cache, forward)
  }

  #getOrCreate(namespace: string): NamedCache {
    let cache = this.#caches.get(namespace)
    if (cache === undefined) {
      cache = new NamedCache(namespace, this.#tracker, this.#hitRatioSensor(namespace))
      this.#caches.set(namespace, cache)
    }
    return cache
  }

  /** Kafka's `hit-ratio-{avg,min,max}` of `stream-record-cache-metrics`, DEBUG level. */
  #hitRatioSensor(namespace: string): Sensor | undefined {
    const metrics = this.#metrics
    if (metrics === undefined) return undefined
    const scope = cacheScope(namespace)
    const dash = namespace.indexOf('-')
    const taskId = dash < 0 ? namespace : namespace.slice(0, dash)
    const storeName = dash < 0 ? namespace : namespace.slice(dash + 1)
    const sensor = metrics.sensor(scope, 'hit-ratio', 'DEBUG')
    const tags = Object.freeze(metrics.tags('task-id', taskId, 'record-cache-id', storeName))
    metrics.addMetric(scope, { name: 'hit-ratio-avg', group: CACHE_GROUP, description: 'The average cache hit ratio.', tags }, now =>
      sensor.avg(now)
    )
    metrics.addMetric(scope, { name: 'hit-ratio-min', group: CACHE_GROUP, description: 'The minimum cache hit ratio.', tags }, now =>
      sensor.min(now)
    )
    metrics.addMetric(scope, { name: 'hit-ratio-max', group: CACHE_GROUP, description: 'The maximum cache hit ratio.', tags }, now =>
      sensor.max(now)
    )
    return sensor
  }
}

function cacheScope(namespace: string): string {
  return `cache:${namespace}`
}

function checkSize(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The cache size must be a non-negative integer, got ${String(bytes)}`)
  }
  return bytes
}
