/**
 * A read-only key-value view over every local store of one name (Kafka Streams'
 * CompositeReadOnlyKeyValueStore): `get` asks each store and returns the first value found;
 * ranges and scans concatenate the stores' iterators (ordered within each partition);
 * `approximateNumEntries` sums. The stores are looked up again on every call. It has no write
 * methods.
 */
import type { Serializer } from '../../serialization/serde.js'
import type { KeyValueIterator, ReadOnlyKeyValueStore } from '../../state/key-value-store.js'
import { CompositeKeyValueIterator } from './composite-key-value-iterator.js'
import { guardStoreCall, type StateStoreProvider } from './state-store-provider.js'

export class CompositeReadOnlyKeyValueStore<K, V> implements ReadOnlyKeyValueStore<K, V> {
  readonly #provider: StateStoreProvider<ReadOnlyKeyValueStore<K, V>>

  constructor(provider: StateStoreProvider<ReadOnlyKeyValueStore<K, V>>) {
    this.#provider = provider
  }

  get(key: K): V | null {
    if (key === null || key === undefined) throw new TypeError('key cannot be null')
    for (const store of this.#provider.stores()) {
      const value = guardStoreCall(this.#provider.storeName, () => store.get(key))
      if (value !== null && value !== undefined) return value
    }
    return null
  }

  range(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    return this.#concat(store => store.range(from, to))
  }

  reverseRange(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    return this.#concat(store => store.reverseRange(from, to))
  }

  all(): KeyValueIterator<K, V> {
    return this.#concat(store => store.all())
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.#concat(store => store.reverseAll())
  }

  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<K, V> {
    return this.#concat(store => store.prefixScan(prefix, prefixKeySerializer))
  }

  /** The sum over the local stores, capped at Number.MAX_SAFE_INTEGER. */
  approximateNumEntries(): number {
    let total = 0
    for (const store of this.#provider.stores()) {
      total += guardStoreCall(this.#provider.storeName, () => store.approximateNumEntries())
      if (total >= Number.MAX_SAFE_INTEGER) return Number.MAX_SAFE_INTEGER
    }
    return total
  }

  #concat(open: (store: ReadOnlyKeyValueStore<K, V>) => KeyValueIterator<K, V>): KeyValueIterator<K, V> {
    return new CompositeKeyValueIterator(this.#provider.storeName, this.#provider.stores(), open)
  }
}
