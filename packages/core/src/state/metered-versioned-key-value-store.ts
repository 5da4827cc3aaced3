/**
 * The outermost layer of versioned stores (Kafka's MeteredVersionedKeyValueStore): the typed face
 * of the store. It owns the serdes (resolved at init, falling back to the configured defaults),
 * turns typed calls into byte calls on the layer below, moves the store's IQv2 position with each
 * write, and answers the versioned IQv2 queries (VersionedKeyQuery, MultiVersionedKeyQuery) through
 * its typed reads. As in Kafka Streams, KeyQuery and RangeQuery on a versioned store throw
 * (ILLEGAL_STATE, Kafka's UnsupportedOperationException: reserved for a later meaning) and a
 * MultiVersionedKeyQuery whose fromTime is after its toTime throws ILLEGAL_ARGUMENT, out of
 * `KafkaStreams.query()`; the other built-in queries answer UNKNOWN_QUERY_TYPE.
 * (It records no per-operation sensors yet.)
 */
import { IllegalStateError, StreamsError } from '../errors.js'
import type { PositionBound } from '../runtime/iq/v2/position.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryConfig } from '../runtime/iq/v2/query-config.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
import { KeyQuery } from '../runtime/iq/v2/key-query.js'
import { MultiVersionedKeyQuery } from '../runtime/iq/v2/multi-versioned-key-query.js'
import { RangeQuery, type ResultOrder } from '../runtime/iq/v2/range-query.js'
import { versionedQuery } from '../runtime/iq/v2/store-query-handler.js'
import { MeteredStoreBase, type MeteredStoreBaseOptions } from './metered-store-base.js'
import type { StateSerdes } from './state-serdes.js'
import type { VersionedBytesStore, VersionedKeyValueStore } from './versioned-key-value-store.js'
import { VersionedRecord } from './versioned-record.js'
import { MappedVersionedRecordIterator, type VersionedRecordIterator } from './versioned-record-iterator.js'

export type MeteredVersionedKeyValueStoreOptions<K, V> = MeteredStoreBaseOptions<VersionedBytesStore, K, V>

export class MeteredVersionedKeyValueStore<K, V>
  extends MeteredStoreBase<VersionedBytesStore, K, V, K>
  implements VersionedKeyValueStore<K, V>
{
  put(key: K, value: V | null, timestamp: number): number {
    const serdes = this.writeSerdes()
    checkTimestamp(this.name, timestamp, 'timestamp')
    return this.inner.put(serdes.rawKey(key), serdes.rawValue(value), timestamp)
  }

  delete(key: K, timestamp: number): VersionedRecord<V> | null {
    const serdes = this.writeSerdes()
    checkTimestamp(this.name, timestamp, 'timestamp')
    return typedRecord(serdes, this.inner.delete(serdes.rawKey(key), timestamp))
  }

  get(key: K): VersionedRecord<V> | null
  get(key: K, asOfTimestamp: number): VersionedRecord<V> | null
  get(key: K, fromTime: number, toTime: number, order?: ResultOrder): VersionedRecordIterator<V>
  get(key: K, a?: number, b?: number, order: ResultOrder = 'ANY'): VersionedRecord<V> | null | VersionedRecordIterator<V> {
    const serdes = this.requireSerdes()
    const raw = serdes.rawKey(key)
    if (b !== undefined) {
      const from = a ?? Number.MIN_SAFE_INTEGER
      checkTimestamp(this.name, from, 'fromTime')
      checkTimestamp(this.name, b, 'toTime')
      return new MappedVersionedRecordIterator(this.inner.get(raw, from, b, order), r => typedRecord(serdes, r) as VersionedRecord<V>)
    }
    if (a === undefined) return typedRecord(serdes, this.inner.get(raw))
    checkTimestamp(this.name, a, 'asOfTimestamp')
    return typedRecord(serdes, this.inner.get(raw, a))
  }

  /**
   * Answers an IQv2 query (see the file header for the versioned queries and what throws); the
   * checks run before the position bound, as in Kafka Streams.
   */
  override query<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R> {
    if (query instanceof KeyQuery || query instanceof RangeQuery) {
      throw new IllegalStateError(
        `Versioned stores do not support ${query.constructor.name} queries at this time (store "${this.name}"): use VersionedKeyQuery or MultiVersionedKeyQuery`
      )
    }
    if (query instanceof MultiVersionedKeyQuery) {
      const from = query.timeFrom ?? Number.MIN_SAFE_INTEGER
      const to = query.timeTo ?? Number.MAX_SAFE_INTEGER
      if (from > to) {
        throw new StreamsError(
          'ILLEGAL_ARGUMENT',
          `The \`fromTime\` timestamp must be smaller than the \`toTime\` timestamp (store "${this.name}": ${from} > ${to}).`
        )
      }
    }
    return super.query(query, positionBound, config)
  }

  /** VersionedKeyQuery and MultiVersionedKeyQuery. */
  protected override builtInQuery(query: Query<unknown>): QueryResult<unknown> | undefined {
    return versionedQuery(this, query)
  }

  protected flushedKey(storeKey: Buffer, serdes: StateSerdes<K, V>): K {
    return serdes.keyFrom(storeKey)
  }
}

function typedRecord<K, V>(serdes: StateSerdes<K, V>, record: VersionedRecord<Buffer> | null): VersionedRecord<V> | null {
  if (record === null) return null
  return new VersionedRecord(serdes.valueFrom(record.value) as V, record.timestamp, record.validTo)
}

function checkTimestamp(storeName: string, timestamp: number, what: string): void {
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Versioned store "${storeName}": ${what} must be an integer number of ms, got ${String(timestamp)}`
    )
  }
}
