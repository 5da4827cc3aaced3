/**
 * The record cache of one store of one task (Kafka's NamedCache): entries by key with an LRU list
 * (most recently used at the head) and a list of the dirty entries in the order they were last
 * written (both lists run through the entries' nodes, so no write hashes a key twice). It
 * owns its size in bytes (reported to the thread cache's shared total), eviction (the LRU entry;
 * evicting a dirty entry flushes every dirty entry, the evicted one first), and flushing (dirty
 * entries in write order to the listener; flushed deletes leave the cache).
 *
 * Keys are Buffers, indexed by their latin1 string (one code unit per byte, so strings compare in
 * unsigned byte order); ranges read a lazily maintained SortedKeyIndex. @internal
 */
import { StreamsError } from '../../errors.js'
import type { Sensor } from '../../metrics/sensor.js'
import type { DirtyEntry, DirtyEntryFlushListener } from './dirty-entry.js'
import type { LRUCacheEntry } from './lru-cache-entry.js'
import { SortedKeyIndex, lowerBound, upperBound } from './sorted-key-index.js'

/** Kafka's per-node overhead estimate: the entry, previous and next references (8 bytes each). */
const NODE_OVERHEAD = 24

/** A cached key with its entry, as range iterators see it. */
export interface CacheRow {
  readonly key: Buffer
  readonly entry: LRUCacheEntry
}

class LRUNode implements CacheRow {
  readonly key: Buffer
  readonly id: string
  entry: LRUCacheEntry
  previous: LRUNode | undefined
  next: LRUNode | undefined
  /** Links of the dirty list; `dirty` says whether the node is on it. */
  dirty = false
  previousDirty: LRUNode | undefined
  nextDirty: LRUNode | undefined

  constructor(key: Buffer, id: string, entry: LRUCacheEntry) {
    this.key = key
    this.id = id
    this.entry = entry
  }

  get size(): number {
    return this.key.length + NODE_OVERHEAD + this.entry.size
  }
}

/** Shared by the named caches of one thread cache: their total size in bytes. */
export interface CacheSizeTracker {
  bytes: number
}

export class NamedCache {
  readonly name: string
  readonly #nodes = new Map<string, LRUNode>()
  readonly #tracker: CacheSizeTracker
  readonly #hitRatio: Sensor | undefined
  #listener: DirtyEntryFlushListener | undefined
  #head: LRUNode | undefined
  #tail: LRUNode | undefined
  /** Dirty entries in write order (a rewrite moves the entry to the end). */
  #dirtyHead: LRUNode | undefined
  #dirtyTail: LRUNode | undefined
  #dirtyCount = 0
  #sizeBytes = 0
  readonly #index = new SortedKeyIndex()
  // Stats
  #hits = 0
  #misses = 0
  #overwrites = 0
  #flushes = 0

  constructor(name: string, tracker: CacheSizeTracker, hitRatio?: Sensor) {
    this.name = name
    this.#tracker = tracker
    this.#hitRatio = hitRatio
  }

  get size(): number {
    return this.#nodes.size
  }
  get sizeInBytes(): number {
    return this.#sizeBytes
  }
  get hits(): number {
    return this.#hits
  }
  get misses(): number {
    return this.#misses
  }
  get overwrites(): number {
    return this.#overwrites
  }
  get flushes(): number {
    return this.#flushes
  }
  /** Dirty keys as latin1 strings, in flush order. */
  get dirtyKeys(): string[] {
    const keys: string[] = []
    for (let node = this.#dirtyHead; node !== undefined; node = node.nextDirty) keys.push(node.id)
    return keys
  }
  /** Keys from least to most recently used, as latin1 strings. */
  get lruKeys(): string[] {
    const keys: string[] = []
    for (let node = this.#tail; node !== undefined; node = node.previous) keys.push(node.id)
    return keys
  }

  setListener(listener: DirtyEntryFlushListener): void {
    this.#listener = listener
  }

  /** The entry of a key, marking it most recently used; undefined on a miss. */
  get(id: string): LRUCacheEntry | undefined {
    return this.getRow(id)?.entry
  }

  /** Like get(), with the key bytes. */
  getRow(id: string): CacheRow | undefined {
    const node = this.#lookup(id)
    if (node === undefined) return undefined
    this.#moveToHead(node)
    return node
  }

  put(key: Buffer, id: string, entry: LRUCacheEntry): void {
    let node = this.#nodes.get(id)
    if (!entry.isDirty && node !== undefined && node.dirty) {
      throw new StreamsError(
        'ILLEGAL_STATE',
        `Attempting to put a clean entry for a key into NamedCache [${this.name}] when it already contains a dirty entry for the same key`
      )
    }
    if (node !== undefined) {
      this.#overwrites++
      this.#resize(-node.size)
      node.entry = entry
      this.#moveToHead(node)
    } else {
      node = new LRUNode(key, id, entry)
      this.#putHead(node)
      this.#nodes.set(id, node)
      this.#index.noteAdded(id, this.#nodes.size)
    }
    if (entry.isDirty) {
      if (node.dirty) this.#unlinkDirty(node)
      this.#appendDirty(node)
    }
    this.#resize(node.size)
  }

  /** Puts only when the key is not cached; returns the cached entry, if any. */
  putIfAbsent(key: Buffer, id: string, entry: LRUCacheEntry): LRUCacheEntry | undefined {
    const existing = this.get(id)
    if (existing === undefined) this.put(key, id, entry)
    return existing
  }

  /** Removes a key (without flushing it) and returns its entry. */
  delete(id: string): LRUCacheEntry | undefined {
    const node = this.#nodes.get(id)
    if (node === undefined) return undefined
    this.#remove(node)
    if (node.dirty) this.#unlinkDirty(node)
    return node.entry
  }

  /** Evicts the least recently used entry; a dirty one is flushed first, with every other dirty entry. */
  evict(): void {
    const eldest = this.#tail
    if (eldest === undefined) return
    this.#remove(eldest)
    if (eldest.entry.isDirty) this.#flush(eldest)
  }

  /** Hands every dirty entry to the listener in write order, marks them clean and drops flushed deletes. */
  flush(): void {
    this.#flush(undefined)
  }

  /**
   * The cached keys in [from, to] (to exclusive when `toInclusive` is false; undefined bounds are
   * open), ascending, as latin1 strings: a snapshot, so later writes do not change it.
   */
  keyRange(from: string | undefined, to: string | undefined, toInclusive = true): string[] {
    const nodes = this.#nodes
    const sorted = this.#index.sorted(
      id => nodes.has(id),
      () => nodes.keys()
    )
    const start = from === undefined ? 0 : lowerBound(sorted, from)
    const end = to === undefined ? sorted.length : toInclusive ? upperBound(sorted, to) : lowerBound(sorted, to)
    return start >= end ? [] : sorted.slice(start, end)
  }

  /** Drops everything (the store closed); the size leaves the thread total. */
  close(): void {
    this.#tracker.bytes -= this.#sizeBytes
    this.#sizeBytes = 0
    this.#nodes.clear()
    this.#dirtyHead = this.#dirtyTail = undefined
    this.#dirtyCount = 0
    this.#head = this.#tail = undefined
    this.#listener = undefined
    this.#index.clear()
  }

  #flush(evicted: LRUNode | undefined): void {
    this.#flushes++
    const listener = this.#listener
    if (listener === undefined) {
      throw new StreamsError('ILLEGAL_STATE', `No listener for namespace ${this.name} registered with cache`)
    }
    if (this.#dirtyCount === 0) return
    const entries: DirtyEntry[] = []
    const deleted: LRUNode[] = []
    if (evicted !== undefined) {
      entries.push({ key: evicted.key, newValue: evicted.entry.value, entry: evicted.entry })
      if (evicted.dirty) this.#unlinkDirty(evicted)
    }
    // The list is emptied before the listener runs: it may write to this cache again.
    let node = this.#dirtyHead
    this.#dirtyHead = this.#dirtyTail = undefined
    this.#dirtyCount = 0
    while (node !== undefined) {
      const next = node.nextDirty
      node.dirty = false
      node.previousDirty = node.nextDirty = undefined
      this.#countHit()
      const entry = node.entry
      entries.push({ key: node.key, newValue: entry.value, entry })
      entry.markClean()
      if (entry.value === null) deleted.push(node)
      node = next
    }
    listener(entries)
    for (const node of deleted) {
      // Unless a write during the flush replaced the flushed delete.
      const current = this.#nodes.get(node.id)
      if (current !== undefined && current.entry === node.entry) this.#remove(current)
    }
  }

  #lookup(id: string): LRUNode | undefined {
    const node = this.#nodes.get(id)
    if (node === undefined) {
      this.#misses++
      return undefined
    }
    this.#countHit()
    return node
  }

  /** Kafka counts reading a dirty entry to flush it as a hit, too. */
  #countHit(): void {
    this.#hits++
    const sensor = this.#hitRatio
    if (sensor !== undefined && sensor.recording) sensor.record(this.#hits / (this.#hits + this.#misses))
  }

  #appendDirty(node: LRUNode): void {
    node.dirty = true
    node.nextDirty = undefined
    node.previousDirty = this.#dirtyTail
    if (this.#dirtyTail !== undefined) this.#dirtyTail.nextDirty = node
    else this.#dirtyHead = node
    this.#dirtyTail = node
    this.#dirtyCount++
  }

  #unlinkDirty(node: LRUNode): void {
    if (node.previousDirty !== undefined) node.previousDirty.nextDirty = node.nextDirty
    else this.#dirtyHead = node.nextDirty
    if (node.nextDirty !== undefined) node.nextDirty.previousDirty = node.previousDirty
    else this.#dirtyTail = node.previousDirty
    node.dirty = false
    node.previousDirty = node.nextDirty = undefined
    this.#dirtyCount--
  }

  #resize(delta: number): void {
    this.#sizeBytes += delta
    this.#tracker.bytes += delta
  }

  #remove(node: LRUNode): void {
    this.#unlink(node)
    this.#nodes.delete(node.id)
    this.#resize(-node.size)
    this.#index.noteRemoved(this.#nodes.size)
  }

  #unlink(node: LRUNode): void {
    if (node.previous !== undefined) node.previous.next = node.next
    else this.#head = node.next
    if (node.next !== undefined) node.next.previous = node.previous
    else this.#tail = node.previous
    node.previous = node.next = undefined
  }

  #putHead(node: LRUNode): void {
    node.next = this.#head
    node.previous = undefined
    if (this.#head !== undefined) this.#head.previous = node
    this.#head = node
    if (this.#tail === undefined) this.#tail = node
  }

  #moveToHead(node: LRUNode): void {
    if (this.#head === node) return
    this.#unlink(node)
    this.#putHead(node)
  }
}
