/**
 * The change-logging layer of key-value stores (Kafka's ChangeLoggingKeyValueBytesStore), over
 * bytes: every write goes to the store below and then to the store's ChangelogWriter as
 * (key, value or null for a delete, timestamp of the current record context). putIfAbsent logs
 * only when it wrote. Reads pass straight through. Without a changelog writer in its context
 * (MockProcessorContext, global stores) it only writes below.
 */
import type { KeyValue } from '../key-value.js'
import type { Serializer } from '../serialization/serde.js'
import { ChangeLoggingStoreBase } from './change-logging-store-base.js'
import type { KeyValueBytesStore, KeyValueIterator } from './key-value-store.js'

export class ChangeLoggingKeyValueBytesStore extends ChangeLoggingStoreBase<KeyValueBytesStore> implements KeyValueBytesStore {
  put(key: Buffer, value: Buffer | null): void {
    this.inner.put(key, value)
    this.log(key, value)
  }

  putIfAbsent(key: Buffer, value: Buffer | null): Buffer | null {
    const previous = this.inner.putIfAbsent(key, value)
    if (previous === null) this.log(key, value)
    return previous
  }

  putAll(entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.inner.putAll(entries)
    for (const entry of entries) this.log(entry.key, entry.value)
  }

  delete(key: Buffer): Buffer | null {
    const previous = this.inner.delete(key)
    this.log(key, null)
    return previous
  }

  get(key: Buffer): Buffer | null {
    return this.inner.get(key)
  }
  range(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.inner.range(from, to)
  }
  reverseRange(from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> {
    return this.inner.reverseRange(from, to)
  }
  all(): KeyValueIterator<Buffer, Buffer> {
    return this.inner.all()
  }
  reverseAll(): KeyValueIterator<Buffer, Buffer> {
    return this.inner.reverseAll()
  }
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> {
    return this.inner.prefixScan(prefix, prefixKeySerializer)
  }
  approximateNumEntries(): number {
    return this.inner.approximateNumEntries()
  }
}
