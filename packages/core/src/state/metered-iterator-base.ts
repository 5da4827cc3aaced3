/**
 * What the typed iterators of the metered layers share (Kafka's MeteredKeyValueIterator,
 * MeteredWindowStoreIterator and MeteredWindowedKeyValueIterator): a bytes-valued iterator from
 * the layer below whose keys and values are turned typed only when they are read, and closing
 * it. @internal
 */
import { KeyValue } from '../key-value.js'
import { KeyValueIteratorBase } from './key-value-iterator-base.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { StateSerdes } from './state-serdes.js'

/** `RK` is the key type below, `K` the typed key, `SK` the key type of the serdes. */
export abstract class MeteredIteratorBase<RK, K, SK, V> extends KeyValueIteratorBase<K, V> {
  readonly #inner: KeyValueIterator<RK, Buffer>
  readonly #serdes: StateSerdes<SK, V>

  constructor(inner: KeyValueIterator<RK, Buffer>, serdes: StateSerdes<SK, V>) {
    super()
    this.#inner = inner
    this.#serdes = serdes
  }

  next(): IteratorResult<KeyValue<K, V>, undefined> {
    const result = this.#inner.next()
    if (result.done === true) return { done: true, value: undefined }
    const entry = result.value
    return { done: false, value: new KeyValue(this.typedKey(entry.key, this.#serdes), this.#serdes.valueFrom(entry.value) as V) }
  }

  peekNextKey(): K | undefined {
    const raw = this.#inner.peekNextKey()
    return raw === undefined ? undefined : this.typedKey(raw, this.#serdes)
  }

  close(): void {
    this.#inner.close()
  }

  /** The typed key of a key read below. */
  protected abstract typedKey(raw: RK, serdes: StateSerdes<SK, V>): K
}
