/**
 * The versions a multi-version lookup found (Kafka Streams' VersionedRecordIterator): an iterator of
 * VersionedRecord that holds resources until closed. Iterable; `using` closes it. The built-in
 * stores collect a key's versions when the lookup runs, so the iterator sees that moment's state.
 */
import type { VersionedRecord } from './versioned-record.js'

/** An iterator over versions of one key; close it when done (or use `using`). */
export interface VersionedRecordIterator<V> extends IterableIterator<VersionedRecord<V>> {
  /** Releases the iterator's resources. */
  close(): void
  /** Closes the iterator (for `using`). */
  [Symbol.dispose](): void
}

/** A VersionedRecordIterator over versions already read. @internal */
export class ListVersionedRecordIterator<V> implements VersionedRecordIterator<V> {
  readonly #records: ReadonlyArray<VersionedRecord<V>>
  #index = 0
  #closed = false

  constructor(records: ReadonlyArray<VersionedRecord<V>>) {
    this.#records = records
  }

  next(): IteratorResult<VersionedRecord<V>, undefined> {
    if (this.#closed || this.#index >= this.#records.length) return { done: true, value: undefined }
    const record = this.#records[this.#index++] as VersionedRecord<V>
    return { done: false, value: record }
  }

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return(): IteratorResult<VersionedRecord<V>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  close(): void {
    this.#closed = true
  }

  [Symbol.iterator](): this {
    return this
  }

  [Symbol.dispose](): void {
    this.close()
  }
}

/** Maps the records of `inner` (the metered layer deserializes values with it). @internal */
export class MappedVersionedRecordIterator<A, B> implements VersionedRecordIterator<B> {
  readonly #inner: VersionedRecordIterator<A>
  readonly #map: (record: VersionedRecord<A>) => VersionedRecord<B>

  constructor(inner: VersionedRecordIterator<A>, map: (record: VersionedRecord<A>) => VersionedRecord<B>) {
    this.#inner = inner
    this.#map = map
  }

  next(): IteratorResult<VersionedRecord<B>, undefined> {
    const step = this.#inner.next()
    return step.done === true ? { done: true, value: undefined } : { done: false, value: this.#map(step.value) }
  }

  return(): IteratorResult<VersionedRecord<B>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  close(): void {
    this.#inner.close()
  }

  [Symbol.iterator](): this {
    return this
  }

  [Symbol.dispose](): void {
    this.close()
  }
}
