/**
 * The in-memory key-value bytes store (Kafka's InMemoryKeyValueStore): keys ordered by unsigned
 * byte order, nothing persisted, restored from its changelog on every start. Owns its lifecycle
 * (created -> open -> closed, reopenable; open -> open is a re-init that keeps the data, used
 * when a standby task is recycled into an active one) and the iterators it handed out, which it
 * closes when it closes. Values are kept as given, not copied.
 */
import { IllegalStateError, InvalidStateStoreError, StreamsError } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import type { KeyValue, KeyValueBytesStore, KeyValueIterator, Serializer, StateStore, StateStoreContext } from '@kstreams/core'
import { bytesToKey, prefixUpperBound } from './byte-keys.js'
import { InMemoryKeyValueIterator } from './in-memory-key-value-iterator.js'
import type { InMemoryIteratorSource } from './in-memory-key-value-iterator.js'
import { OrderedBytesMap } from './ordered-bytes-map.js'

type StoreState = 'created' | 'open' | 'closed'

/**
 * The valid lifecycle transitions; close() on a store that is not open is a no-op. open -> open
 * is a re-init: the store keeps its data and registers with the new context.
 */
const TRANSITIONS: Readonly<Record<StoreState, readonly StoreState[]>> = {
  created: ['open', 'closed'],
  open: ['open', 'closed'],
  closed: ['open']
}

export class InMemoryKeyValueStore implements KeyValueBytesStore {
  readonly name: string
  readonly persistent = false
  readonly #map = new OrderedBytesMap()
  readonly #openIterators = new Set<InMemoryKeyValueIterator>()
  #state: StoreState = 'created'
  /** Shared with the iterators of the current open period; flipped to false on close. */
  #lease = { open: false }
  #iteratorSource: InMemoryIteratorSource
  #prefixTopic: string

  constructor (name: string) {
    this.name = validateStoreName(name)
    this.#prefixTopic = name
    this.#iteratorSource = this.#newIteratorSource()
  }

  /**
   * Opens the store and registers its restore callback. On a store that is already open (a
   * standby task recycled into an active task) it only registers with the new context: the data,
   * the position restored so far and the open iterators stay.
   */
  init (context: StateStoreContext, root: StateStore): void {
    this.#checkTransition('open')
    context.register(root, records => {
      for (const record of records) this.#put(bytesToKey(record.key), record.value)
    })
    this.#prefixTopic = `${context.applicationId}-${this.name}-changelog`
    if (this.#state === 'open') return
    this.#lease = { open: true }
    this.#iteratorSource = this.#newIteratorSource()
    this.#state = 'open'
  }

  flush (): void {
    // Nothing to write: the changelog is the durable copy.
  }

  /** Closes every open iterator and drops the data. Idempotent. */
  close (): void {
    if (this.#state !== 'open') {
      if (this.#state === 'created') this.#state = 'closed'
      return
    }
    this.#lease.open = false
    for (const iterator of [...this.#openIterators]) iterator.close()
    this.#openIterators.clear()
    this.#map.clear()
    this.#state = 'closed'
  }

  isOpen (): boolean {
    return this.#state === 'open'
  }

  get (key: Buffer): Buffer | null {
    if (this.#state !== 'open') throw this.#notOpen()
    return this.#map.get(bytesToKey(key)) ?? null
  }

  /** `put(key, null)` deletes. */
  put (key: Buffer, value: Buffer | null): void {
    if (this.#state !== 'open') throw this.#notOpen()
    this.#put(bytesToKey(key), value)
  }

  putIfAbsent (key: Buffer, value: Buffer | null): Buffer | null {
    if (this.#state !== 'open') throw this.#notOpen()
    const k = bytesToKey(key)
    const old = this.#map.get(k)
    if (old !== undefined) return old
    this.#put(k, value)
    return null
  }

  putAll (entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    if (this.#state !== 'open') throw this.#notOpen()
    for (const entry of entries) this.#put(bytesToKey(entry.key), entry.value)
  }

  delete (key: Buffer): Buffer | null {
    if (this.#state !== 'open') throw this.#notOpen()
    return this.#map.delete(bytesToKey(key)) ?? null
  }

  /** Keys in [from, to]; empty when from > to (by bytes). Undefined bounds are open. */
  range (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, true)
  }

  reverseRange (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.#range(from, to, false)
  }

  all (): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, true)
  }

  reverseAll (): KeyValueIterator<Buffer, Buffer> {
    return this.#range(undefined, undefined, false)
  }

  /** Keys that start with the serialized prefix, ascending. */
  prefixScan<P> (prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    if (this.#state !== 'open') throw this.#notOpen()
    const raw = prefixKeySerializer.serialize(this.#prefixTopic, prefix)
    if (raw === null || raw === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": the prefix serialized to null`)
    }
    const from = bytesToKey(raw)
    return this.#iterator(this.#map.keys(from, prefixUpperBound(from), true), true)
  }

  approximateNumEntries (): number {
    if (this.#state !== 'open') throw this.#notOpen()
    return this.#map.size
  }

  #put (key: string, value: Buffer | null): void {
    if (value === null || value === undefined) this.#map.delete(key)
    else this.#map.set(key, value)
  }

  #range (from: Buffer | undefined, to: Buffer | undefined, forward: boolean): KeyValueIterator<Buffer, Buffer> {
    if (this.#state !== 'open') throw this.#notOpen()
    const lower = from === undefined || from === null ? undefined : bytesToKey(from)
    const upper = to === undefined || to === null ? undefined : bytesToKey(to)
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (lower !== undefined && upper !== undefined && lower > upper) return this.#iterator([], forward)
    return this.#iterator(this.#map.keys(lower, upper), forward)
  }

  #iterator (keys: string[], forward: boolean): InMemoryKeyValueIterator {
    const iterator = new InMemoryKeyValueIterator(this.#iteratorSource, keys, forward)
    this.#openIterators.add(iterator)
    return iterator
  }

  #newIteratorSource (): InMemoryIteratorSource {
    const openIterators = this.#openIterators
    return {
      storeName: this.name,
      entries: this.#map,
      lease: this.#lease,
      release: iterator => { openIterators.delete(iterator) }
    }
  }

  #checkTransition (next: StoreState): void {
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new IllegalStateError(`Store "${this.name}" cannot move from ${this.#state} to ${next}`)
    }
  }

  #notOpen (): InvalidStateStoreError {
    return new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open (${this.#state})`)
  }
}
