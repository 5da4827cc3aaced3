/**
 * Store type checks for the driver's typed getters, and the facade that shows a timestamped
 * key-value store as a plain key-value store (values without their timestamps), as Kafka
 * Streams' TopologyTestDriver does.
 */
import {
  KeyValue, type KeyValueIterator, type KeyValueStore, type Serializer, type StateStore, type StateStoreContext,
  type TimestampedKeyValueStore, ValueAndTimestamp
} from '@kstreams/core'
import { MeteredKeyValueStore, MeteredTimestampedKeyValueStore } from '@kstreams/core/internal'

/** Timestamp written by a plain put through the facade (Kafka's NO_TIMESTAMP). */
const NO_TIMESTAMP = -1

export function isTimestampedKeyValueStore (store: StateStore): boolean {
  return store instanceof MeteredTimestampedKeyValueStore
}

export function isKeyValueStore (store: StateStore): boolean {
  return store instanceof MeteredKeyValueStore
}

export function plainValueView<K, V> (store: TimestampedKeyValueStore<K, V>): KeyValueStore<K, V> {
  return new KeyValueStoreFacade(store)
}

class KeyValueStoreFacade<K, V> implements KeyValueStore<K, V> {
  readonly #inner: TimestampedKeyValueStore<K, V>
  constructor (inner: TimestampedKeyValueStore<K, V>) { this.#inner = inner }

  get name (): string { return this.#inner.name }
  get persistent (): boolean { return this.#inner.persistent }
  init (context: StateStoreContext, root: StateStore): void | Promise<void> { return this.#inner.init(context, root) }
  flush (): void { this.#inner.flush() }
  close (): void { this.#inner.close() }
  isOpen (): boolean { return this.#inner.isOpen() }

  get (key: K): V | null { return ValueAndTimestamp.getValueOrNull(this.#inner.get(key)) }
  put (key: K, value: V | null): void { this.#inner.put(key, ValueAndTimestamp.make(value, NO_TIMESTAMP)) }
  putIfAbsent (key: K, value: V | null): V | null {
    return ValueAndTimestamp.getValueOrNull(this.#inner.putIfAbsent(key, ValueAndTimestamp.make(value, NO_TIMESTAMP)))
  }

  putAll (entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    this.#inner.putAll(entries.map(e => KeyValue.pair(e.key, ValueAndTimestamp.make(e.value, NO_TIMESTAMP))))
  }

  delete (key: K): V | null { return ValueAndTimestamp.getValueOrNull(this.#inner.delete(key)) }
  range (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> { return plainValues(this.#inner.range(from, to)) }
  reverseRange (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> { return plainValues(this.#inner.reverseRange(from, to)) }
  all (): KeyValueIterator<K, V> { return plainValues(this.#inner.all()) }
  reverseAll (): KeyValueIterator<K, V> { return plainValues(this.#inner.reverseAll()) }
  prefixScan<P> (prefix: P, serializer: Serializer<P>): KeyValueIterator<K, V> { return plainValues(this.#inner.prefixScan(prefix, serializer)) }
  approximateNumEntries (): number { return this.#inner.approximateNumEntries() }
}

function plainValues<K, V> (inner: KeyValueIterator<K, ValueAndTimestamp<V>>): KeyValueIterator<K, V> {
  const it: KeyValueIterator<K, V> = {
    next (): IteratorResult<KeyValue<K, V>> {
      const r = inner.next()
      return r.done === true ? { done: true, value: undefined } : { done: false, value: KeyValue.pair(r.value.key, r.value.value.value) }
    },
    peekNextKey: () => inner.peekNextKey(),
    close: () => inner.close(),
    [Symbol.dispose]: () => inner.close(),
    [Symbol.iterator]: () => it
  }
  return it
}
