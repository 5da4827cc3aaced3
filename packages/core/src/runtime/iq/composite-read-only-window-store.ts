/**
 * A read-only window view over every local window store of one name (Kafka Streams'
 * CompositeReadOnlyWindowStore): a single-key fetch returns the first store that has the key's
 * windows (a key lives in one partition); key ranges and full scans concatenate the stores'
 * iterators. The stores are looked up again on every call. It has no write methods.
 */
import type { KeyValueIterator } from '../../state/key-value-store.js'
import type { ReadOnlyWindowStore, WindowStoreIterator } from '../../state/window-store.js'
import type { Windowed } from '../../state/windowed.js'
import { CompositeKeyValueIterator } from './composite-key-value-iterator.js'
import { guardStoreCall, type StateStoreProvider } from './state-store-provider.js'

type Store<K, V> = ReadOnlyWindowStore<K, V>

export class CompositeReadOnlyWindowStore<K, V> implements ReadOnlyWindowStore<K, V> {
  readonly #provider: StateStoreProvider<Store<K, V>>

  constructor(provider: StateStoreProvider<Store<K, V>>) {
    this.#provider = provider
  }

  fetch(key: K, windowStartTime: number): V | null
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  fetch(...args: unknown[]): V | null | WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 2) {
      const [key, time] = args as [K, number]
      for (const store of this.#provider.stores()) {
        const value = guardStoreCall(this.#provider.storeName, () => store.fetch(key, time))
        if (value !== null && value !== undefined) return value
      }
      return null
    }
    if (args.length === 3) {
      const [key, from, to] = args as [K, number, number]
      return this.#firstNonEmpty(store => store.fetch(key, from, to))
    }
    const [keyFrom, keyTo, from, to] = args as [K | undefined, K | undefined, number, number]
    return this.#concat(store => store.fetch(keyFrom, keyTo, from, to))
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  backwardFetch(...args: unknown[]): WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 3) {
      const [key, from, to] = args as [K, number, number]
      return this.#firstNonEmpty(store => store.backwardFetch(key, from, to))
    }
    const [keyFrom, keyTo, from, to] = args as [K | undefined, K | undefined, number, number]
    return this.#concat(store => store.backwardFetch(keyFrom, keyTo, from, to))
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.#concat(store => store.fetchAll(timeFrom, timeTo))
  }

  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.#concat(store => store.backwardFetchAll(timeFrom, timeTo))
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    return this.#concat(store => store.all())
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    return this.#concat(store => store.backwardAll())
  }

  /** The iterator of the first store that has entries (the key's partition); an empty one otherwise. */
  #firstNonEmpty(open: (store: Store<K, V>) => WindowStoreIterator<V>): WindowStoreIterator<V> {
    const stores = this.#provider.stores()
    for (const store of stores) {
      const it = guardStoreCall(this.#provider.storeName, () => open(store))
      if (it.peekNextKey() !== undefined) return it
      it.close()
    }
    return new CompositeKeyValueIterator<Store<K, V>, number, V>(this.#provider.storeName, [], open)
  }

  #concat(open: (store: Store<K, V>) => KeyValueIterator<Windowed<K>, V>): KeyValueIterator<Windowed<K>, V> {
    return new CompositeKeyValueIterator(this.#provider.storeName, this.#provider.stores(), open)
  }
}
