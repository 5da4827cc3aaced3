/**
 * The in-memory key-value bytes store (Kafka's InMemoryKeyValueStore): keys ordered by unsigned
 * byte order, nothing persisted, restored from its changelog on every start. Its lifecycle and
 * iterators are InMemoryStoreLifecycle's (a re-init of an open store keeps the data, used when a
 * standby task is recycled into an active one). Values are kept as given, not copied.
 */
import { StreamsError } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import type { KeyValue, KeyValueBytesStore, KeyValueIterator, Serializer, StateStore, StateStoreContext } from '@kstreams/core'
import { boundToKey, bytesToKey, keyToBytes, prefixUpperBound } from '@kstreams/core/internal'
import type { SnapshotChunk } from './in-memory-snapshot-iterator.js'
import { InMemoryStoreLifecycle } from './in-memory-store-lifecycle.js'
import { OrderedBytesMap } from './ordered-bytes-map.js'

/** The in-memory key-value bytes store (Kafka's InMemoryKeyValueStore): nothing persisted, restored from its changelog on every start. */
export class InMemoryKeyValueStore implements KeyValueBytesStore {
  readonly name: string
  readonly persistent = false
  readonly #map = new OrderedBytesMap()
  readonly #lifecycle: InMemoryStoreLifecycle
  #prefixTopic: string

  constructor(name: string) {
    this.name = validateStoreName(name)
    this.#prefixTopic = name
    this.#lifecycle = new InMemoryStoreLifecycle(this.name)
  }

  /**
   * Opens the store and registers its restore callback. On a store that is already open (a
   * standby task recycled into an active task) it only registers with the new context: the data,
   * the position restored so far and the open iterators stay.
   */
  init(context: StateStoreContext, root: StateStore): void {
    this.#lifecycle.init(() => {
      context.register(root, records => {
        for (const record of records) this.#put(bytesToKey(record.key), record.value)
      })
      this.#prefixTopic = `${context.applicationId}-${this.name}-changelog`
    })
  }

  flush(): void {
    // Nothing to write: the changelog is the durable copy.
  }

  /** Closes every open iterator and drops the data. Idempotent. */
  close(): void {
    this.#lifecycle.close(() => {
      this.#map.clear()
    })
  }

  isOpen(): boolean {
    return this.#lifecycle.isOpen()
  }

  get(key: Buffer): Buffer | null {
    this.#lifecycle.checkOpen()
    return this.#map.get(bytesToKey(key)) ?? null
  }

  /** `put(key, null)` deletes. */
  put(key: Buffer, value: Buffer | null): void {
    this.#lifecycle.checkOpen()
    this.#put(bytesToKey(key), value)
  }

  putIfAbsent(key: Buffer, value: Buffer | null): Buffer | null {
    this.#lifecycle.checkOpen()
    const k = bytesToKey(key)
    const old = this.#map.get(k)
    if (old !== undefined) return old
    this.#put(k, value)
    return null
  }

  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.#lifecycle.checkOpen()
    for (const entry of entries) this.#put(bytesToKey(entry.key), entry.value)
  }

  delete(key: Buffer): Buffer | null {
    this.#lifecycle.checkOpen()
    return this.#map.delete(bytesToKey(key)) ?? null
  }

  /** Keys in [from, to]; empty when from > to (by bytes). Undefined bounds are open. */
  range(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, true)
  }

  reverseRange(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, false)
  }

  all(): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, true)
  }

  reverseAll(): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, false)
  }

  /** Keys that start with the serialized prefix, ascending. */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    this.#lifecycle.checkOpen()
    const raw = prefixKeySerializer.serialize(this.#prefixTopic, prefix)
    if (raw === null || raw === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": the prefix serialized to null`)
    }
    const from = bytesToKey(raw)
    return this.#iterator(this.#map.keys(from, prefixUpperBound(from), true), true)
  }

  approximateNumEntries(): number {
    this.#lifecycle.checkOpen()
    return this.#map.size
  }

  #put(key: string, value: Buffer | null): void {
    if (value === null || value === undefined) this.#map.delete(key)
    else this.#map.set(key, value)
  }

  #range(from: Buffer | undefined, to: Buffer | undefined, forward: boolean): KeyValueIterator<Buffer, Buffer> {
    this.#lifecycle.checkOpen()
    const lower = boundToKey(from)
    const upper = boundToKey(to)
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (lower !== undefined && upper !== undefined && lower > upper) return this.#iterator([], forward)
    return this.#iterator(this.#map.keys(lower, upper), forward)
  }

  /** An iterator over a snapshot of `keys` (sorted ascending, owned by the iterator). */
  #iterator(keys: string[], forward: boolean): KeyValueIterator<Buffer, Buffer> {
    if (!forward) keys.reverse()
    return this.#lifecycle.iterator([new KeyChunk(this.#map, keys)])
  }
}

/** The keys of a range scan: the iterator key is the key's bytes. */
class KeyChunk implements SnapshotChunk<Buffer, string> {
  constructor(
    readonly source: OrderedBytesMap,
    readonly lookups: readonly string[]
  ) {}
  key(lookup: string): Buffer {
    return keyToBytes(lookup)
  }
}
