/**
 * A read-only session view over every local session store of one name (Kafka Streams'
 * CompositeReadOnlySessionStore): single-key lookups return the first store that has the key's
 * sessions (a key lives in one partition); key ranges concatenate the stores' iterators. The
 * stores are looked up again on every call. It has no write methods.
 */
import type { KeyValueIterator } from '../../state/key-value-store.js'
import type { ReadOnlySessionStore } from '../../state/session-store.js'
import type { Windowed } from '../../state/windowed.js'
import { CompositeKeyValueIterator } from './composite-key-value-iterator.js'
import { guardStoreCall, type StateStoreProvider } from './state-store-provider.js'

type Store<K, AGG> = ReadOnlySessionStore<K, AGG>
type Iter<K, AGG> = KeyValueIterator<Windowed<K>, AGG>

export class CompositeReadOnlySessionStore<K, AGG> implements ReadOnlySessionStore<K, AGG> {
  readonly #provider: StateStoreProvider<Store<K, AGG>>

  constructor(provider: StateStoreProvider<Store<K, AGG>>) {
    this.#provider = provider
  }

  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  findSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  findSessions(...args: unknown[]): Iter<K, AGG> {
    if (args.length === 3) {
      const [key, end, start] = args as [K, number, number]
      return this.#firstNonEmpty(store => store.findSessions(key, end, start))
    }
    const [from, to, end, start] = args as [K | undefined, K | undefined, number, number]
    return this.#concat(store => store.findSessions(from, to, end, start))
  }

  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  backwardFindSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): Iter<K, AGG>
  backwardFindSessions(...args: unknown[]): Iter<K, AGG> {
    if (args.length === 3) {
      const [key, end, start] = args as [K, number, number]
      return this.#firstNonEmpty(store => store.backwardFindSessions(key, end, start))
    }
    const [from, to, end, start] = args as [K | undefined, K | undefined, number, number]
    return this.#concat(store => store.backwardFindSessions(from, to, end, start))
  }

  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null {
    for (const store of this.#provider.stores()) {
      const value = guardStoreCall(this.#provider.storeName, () => store.fetchSession(key, sessionStartTime, sessionEndTime))
      if (value !== null && value !== undefined) return value
    }
    return null
  }

  fetch(key: K): Iter<K, AGG>
  fetch(keyFrom: K | undefined, keyTo: K | undefined): Iter<K, AGG>
  fetch(...args: unknown[]): Iter<K, AGG> {
    if (args.length === 1) {
      const [key] = args as [K]
      return this.#firstNonEmpty(store => store.fetch(key))
    }
    const [from, to] = args as [K | undefined, K | undefined]
    return this.#concat(store => store.fetch(from, to))
  }

  backwardFetch(key: K): Iter<K, AGG>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): Iter<K, AGG>
  backwardFetch(...args: unknown[]): Iter<K, AGG> {
    if (args.length === 1) {
      const [key] = args as [K]
      return this.#firstNonEmpty(store => store.backwardFetch(key))
    }
    const [from, to] = args as [K | undefined, K | undefined]
    return this.#concat(store => store.backwardFetch(from, to))
  }

  #firstNonEmpty(open: (store: Store<K, AGG>) => Iter<K, AGG>): Iter<K, AGG> {
    for (const store of this.#provider.stores()) {
      const it = guardStoreCall(this.#provider.storeName, () => open(store))
      if (it.peekNextKey() !== undefined) return it
      it.close()
    }
    return this.#concat(open, [])
  }

  #concat(open: (store: Store<K, AGG>) => Iter<K, AGG>, stores = this.#provider.stores()): Iter<K, AGG> {
    return new CompositeKeyValueIterator(this.#provider.storeName, stores, open)
  }
}
