/**
 * The change-logging layer of versioned stores (Kafka's ChangeLoggingVersionedKeyValueBytesStore):
 * every put and delete goes to the store below, then to the changelog as (key, value or null,
 * the version's timestamp), so that restore can replay put(key, value, timestamp). Like Kafka it
 * logs a write even when the store below did not put it (older than the grace period): restore
 * skips it the same way. Reads pass straight through.
 */
import type { ResultOrder } from '../runtime/iq/v2/range-query.js'
import { ChangeLoggingStoreBase } from './change-logging-store-base.js'
import type { VersionedBytesStore } from './versioned-key-value-store.js'
import type { VersionedRecord } from './versioned-record.js'
import type { VersionedRecordIterator } from './versioned-record-iterator.js'

export class ChangeLoggingVersionedBytesStore extends ChangeLoggingStoreBase<VersionedBytesStore> implements VersionedBytesStore {
  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    const validTo = this.inner.put(key, value, timestamp)
    this.writer?.append(key, value, timestamp)
    return validTo
  }

  delete(key: Buffer, timestamp: number): VersionedRecord<Buffer> | null {
    const previous = this.inner.delete(key, timestamp)
    this.writer?.append(key, null, timestamp)
    return previous
  }

  get(key: Buffer): VersionedRecord<Buffer> | null
  get(key: Buffer, asOfTimestamp: number): VersionedRecord<Buffer> | null
  get(key: Buffer, fromTime: number, toTime: number, order?: ResultOrder): VersionedRecordIterator<Buffer>
  get(key: Buffer, a?: number, b?: number, order?: ResultOrder): VersionedRecord<Buffer> | null | VersionedRecordIterator<Buffer> {
    if (b !== undefined) return this.inner.get(key, a ?? Number.MIN_SAFE_INTEGER, b, order)
    return a === undefined ? this.inner.get(key) : this.inner.get(key, a)
  }
}
