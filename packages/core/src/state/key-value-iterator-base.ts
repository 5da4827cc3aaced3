/**
 * The iterator protocol the typed and merged iterators of the store layers share, built on
 * close(): `return()` (a `for...of` loop exiting early closes the iterator), `[Symbol.iterator]`
 * and `[Symbol.dispose]` (`using` closes it). Concrete iterators implement next, peekNextKey and
 * close. @internal
 */
import type { KeyValue } from '../key-value.js'
import type { KeyValueIterator } from './key-value-store.js'

export abstract class KeyValueIteratorBase<K, V> implements KeyValueIterator<K, V> {
  abstract next(): IteratorResult<KeyValue<K, V>, undefined>
  abstract peekNextKey(): K | undefined
  abstract close(): void

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return(): IteratorResult<KeyValue<K, V>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  [Symbol.iterator](): this {
    return this
  }

  [Symbol.dispose](): void {
    this.close()
  }
}
