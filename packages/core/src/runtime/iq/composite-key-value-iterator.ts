/**
 * Concatenates the iterators of several local stores (Kafka Streams' CompositeKeyValueIterator):
 * each store's iterator is opened only when the previous one is exhausted, so the order is the
 * store's own order within each partition, partition after partition. Closing it closes the
 * iterator currently open.
 */
import type { KeyValue } from '../../key-value.js'
import type { KeyValueIterator } from '../../state/key-value-store.js'
import { guardStoreCall } from './state-store-provider.js'

export class CompositeKeyValueIterator<S, K, V> implements KeyValueIterator<K, V> {
  readonly #storeName: string
  readonly #stores: S[]
  readonly #open: (store: S) => KeyValueIterator<K, V>
  #index = 0
  #current: KeyValueIterator<K, V> | undefined
  #closed = false

  constructor(storeName: string, stores: readonly S[], open: (store: S) => KeyValueIterator<K, V>) {
    this.#storeName = storeName
    this.#stores = [...stores]
    this.#open = open
  }

  /** The current iterator if it has a next entry, opening the next stores' iterators as needed. */
  #advance(): KeyValueIterator<K, V> | undefined {
    if (this.#closed) return undefined
    for (;;) {
      if (this.#current !== undefined) {
        const current = this.#current
        if (guardStoreCall(this.#storeName, () => current.peekNextKey()) !== undefined) return current
        current.close()
        this.#current = undefined
      }
      const store = this.#stores[this.#index++]
      if (store === undefined) return undefined
      this.#current = guardStoreCall(this.#storeName, () => this.#open(store))
    }
  }

  next(): IteratorResult<KeyValue<K, V>, undefined> {
    const current = this.#advance()
    if (current === undefined) return { done: true, value: undefined }
    return guardStoreCall(this.#storeName, () => current.next())
  }

  peekNextKey(): K | undefined {
    const current = this.#advance()
    return current === undefined ? undefined : guardStoreCall(this.#storeName, () => current.peekNextKey())
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#current?.close()
    this.#current = undefined
  }

  [Symbol.dispose](): void {
    this.close()
  }

  [Symbol.iterator](): this {
    return this
  }
}
