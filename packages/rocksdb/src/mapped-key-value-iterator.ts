/**
 * A key-value iterator with its keys mapped (store keys -> window starts or windowed keys, as
 * Kafka's WindowStoreIteratorWrapper and WrappedSessionStoreIterator do). Closing it closes the
 * iterator it wraps.
 * @internal
 */
import { KeyValue } from '@kstreams/core'
import { KeyValueIteratorBase } from '@kstreams/core/internal'
import type { KeyValueIterator } from '@kstreams/core'

export class MappedKeyValueIterator<K> extends KeyValueIteratorBase<K, Buffer> {
  readonly #inner: KeyValueIterator<Buffer, Buffer>
  readonly #mapKey: (storeKey: Buffer) => K

  constructor(inner: KeyValueIterator<Buffer, Buffer>, mapKey: (storeKey: Buffer) => K) {
    super()
    this.#inner = inner
    this.#mapKey = mapKey
  }

  next(): IteratorResult<KeyValue<K, Buffer>, undefined> {
    const result = this.#inner.next()
    if (result.done === true) return { done: true, value: undefined }
    return { done: false, value: new KeyValue(this.#mapKey(result.value.key), result.value.value) }
  }

  peekNextKey(): K | undefined {
    const key = this.#inner.peekNextKey()
    return key === undefined ? undefined : this.#mapKey(key)
  }

  close(): void {
    this.#inner.close()
  }
}
