/**
 * The typed iterator of a window store fetch for one key (Kafka's MeteredWindowStoreIterator):
 * keys are window start timestamps and pass through; each value is deserialized when it is read.
 * Closing it closes the inner iterator.
 */
import { KeyValue } from '../key-value.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { StateSerdes } from './state-serdes.js'
import type { WindowStoreIterator } from './window-store.js'

/** @internal */
export class MeteredWindowStoreIterator<V> implements WindowStoreIterator<V> {
  readonly #inner: KeyValueIterator<number, Buffer>
  readonly #serdes: StateSerdes<unknown, V>

  constructor (inner: KeyValueIterator<number, Buffer>, serdes: StateSerdes<unknown, V>) {
    this.#inner = inner
    this.#serdes = serdes
  }

  next (): IteratorResult<KeyValue<number, V>, undefined> {
    const result = this.#inner.next()
    if (result.done === true) return { done: true, value: undefined }
    return { done: false, value: new KeyValue(result.value.key, this.#serdes.valueFrom(result.value.value) as V) }
  }

  peekNextKey (): number | undefined {
    return this.#inner.peekNextKey()
  }

  close (): void {
    this.#inner.close()
  }

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return (): IteratorResult<KeyValue<number, V>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  [Symbol.iterator] (): this {
    return this
  }

  [Symbol.dispose] (): void {
    this.close()
  }
}
