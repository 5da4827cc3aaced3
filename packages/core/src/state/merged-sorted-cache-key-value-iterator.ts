/**
 * Merges a record-cache iterator with the iterator of the store below it (Kafka's
 * MergedSortedCacheKeyValueBytesStoreIterator), in key order, ascending or descending: where both
 * have a key the cache wins, and a cached delete hides the store's entry. A cached delete is
 * dropped as soon as the store iterator has moved past its key; until then it may still hide a
 * store key, so store entries before it are returned first. Closing closes both. @internal
 */
import { InvalidStateStoreError } from '../errors.js'
import { KeyValue } from '../key-value.js'
import type { NamedCacheIterator } from './cache/named-cache-iterator.js'
import { KeyValueIteratorBase } from './key-value-iterator-base.js'
import type { KeyValueIterator } from './key-value-store.js'

export class MergedSortedCacheKeyValueIterator extends KeyValueIteratorBase<Buffer, Buffer> {
  readonly #cache: NamedCacheIterator
  readonly #store: KeyValueIterator<Buffer, Buffer>
  readonly #forward: boolean
  readonly #storeName: string
  #closed = false

  constructor(storeName: string, cache: NamedCacheIterator, store: KeyValueIterator<Buffer, Buffer>, forward: boolean) {
    super()
    this.#storeName = storeName
    this.#cache = cache
    this.#store = store
    this.#forward = forward
  }

  next(): IteratorResult<KeyValue<Buffer, Buffer>, undefined> {
    this.#checkOpen()
    this.#skipDeletes()
    const row = this.#cache.peek()
    const storeKey = this.#store.peekNextKey()
    if (row === undefined) return this.#store.next()
    if (storeKey !== undefined) {
      const cmp = Buffer.compare(row.key, storeKey)
      if (cmp === 0) this.#store.next()
      else if (this.#forward ? cmp > 0 : cmp < 0) return this.#store.next()
    }
    this.#cache.next()
    return { done: false, value: new KeyValue(row.key, row.entry.value!) }
  }

  /** The next key, or undefined at the end. A store entry hidden by the next cache entry is dropped. */
  peekNextKey(): Buffer | undefined {
    this.#checkOpen()
    this.#skipDeletes()
    const row = this.#cache.peek()
    const storeKey = this.#store.peekNextKey()
    if (row === undefined) return storeKey
    if (storeKey !== undefined) {
      const cmp = Buffer.compare(row.key, storeKey)
      if (cmp === 0) this.#store.next()
      else if (this.#forward ? cmp > 0 : cmp < 0) return storeKey
    }
    return row.key
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#cache.close()
    this.#store.close()
  }

  /** Drops cached deletes that cannot hide a store entry (any more), with the entry they hide. */
  #skipDeletes(): void {
    const cache = this.#cache
    const store = this.#store
    for (let row = cache.peek(); row !== undefined && row.entry.value === null; row = cache.peek()) {
      const storeKey = store.peekNextKey()
      if (storeKey === undefined) {
        cache.next()
        continue
      }
      const cmp = Buffer.compare(row.key, storeKey)
      if (cmp === 0) {
        store.next()
        cache.next()
      } else if (this.#forward ? cmp < 0 : cmp > 0) {
        cache.next()
      } else {
        return
      }
    }
  }

  #checkOpen(): void {
    if (this.#closed)
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `An iterator of store "${this.#storeName}" was used after it was closed`)
  }
}
