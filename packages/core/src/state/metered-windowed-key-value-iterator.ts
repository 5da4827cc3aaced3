/**
 * The typed iterator over windowed keys (Kafka's MeteredWindowedKeyValueIterator), shared by
 * window and session stores: turns `Windowed<Buffer>` keys into `Windowed<K>` (same window) and
 * deserializes values, each only when it is read. Closing it closes the inner iterator.
 */
import { KeyValue } from '../key-value.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { StateSerdes } from './state-serdes.js'
import { Windowed } from './windowed.js'

/** @internal */
export class MeteredWindowedKeyValueIterator<K, V> implements KeyValueIterator<Windowed<K>, V> {
  readonly #inner: KeyValueIterator<Windowed<Buffer>, Buffer>
  readonly #serdes: StateSerdes<K, V>

  constructor (inner: KeyValueIterator<Windowed<Buffer>, Buffer>, serdes: StateSerdes<K, V>) {
    this.#inner = inner
    this.#serdes = serdes
  }

  next (): IteratorResult<KeyValue<Windowed<K>, V>, undefined> {
    const result = this.#inner.next()
    if (result.done === true) return { done: true, value: undefined }
    const entry = result.value
    return { done: false, value: new KeyValue(this.#windowedKey(entry.key), this.#serdes.valueFrom(entry.value) as V) }
  }

  peekNextKey (): Windowed<K> | undefined {
    const raw = this.#inner.peekNextKey()
    return raw === undefined ? undefined : this.#windowedKey(raw)
  }

  close (): void {
    this.#inner.close()
  }

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return (): IteratorResult<KeyValue<Windowed<K>, V>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  [Symbol.iterator] (): this {
    return this
  }

  [Symbol.dispose] (): void {
    this.close()
  }

  #windowedKey (raw: Windowed<Buffer>): Windowed<K> {
    return new Windowed(this.#serdes.keyFrom(raw.key), raw.window)
  }
}
