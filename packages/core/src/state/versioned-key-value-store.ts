/**
 * Versioned key-value stores (Kafka Streams' VersionedKeyValueStore, KIP-889 and KIP-968): every
 * write carries a timestamp, and the store keeps, per key, the versions of the value over time,
 * so that it can answer "what was the value as of time t". A version is valid from its timestamp
 * (inclusive) to the timestamp of the next version or delete (exclusive). Versions older than the
 * store's history retention are dropped; writes older than the history retention (which doubles as
 * the grace period) are not accepted. The latest version of a key never expires.
 */
import type { ResultOrder } from '../runtime/iq/v2/range-query.js'
import type { StateStore } from './state-store.js'
import type { VersionedRecord } from './versioned-record.js'
import type { VersionedRecordIterator } from './versioned-record-iterator.js'

/** put() returned this: the new version is the latest, its validTo is undefined. */
export const PUT_RETURN_CODE_VALID_TO_UNDEFINED = -1
/**
 * put() returned this: the write was older than the history retention (grace period) and was not
 * put. Kafka Streams uses `Long.MIN_VALUE`; here it is the smallest safe integer.
 */
export const PUT_RETURN_CODE_NOT_PUT = Number.MIN_SAFE_INTEGER

/** The reads of a versioned key-value store: what interactive queries get. */
export interface ReadOnlyVersionedKeyValueStore<K, V> {
  /** The latest version of `key`, or null when the key has none (never written, or deleted). */
  get(key: K): VersionedRecord<V> | null
  /**
   * The version of `key` valid at `asOfTimestamp`: the one with the greatest timestamp not after
   * it, or null when that is a delete, when there is none, or when `asOfTimestamp` is older than
   * the history retention and the latest version is not valid at it.
   */
  get(key: K, asOfTimestamp: number): VersionedRecord<V> | null
  /**
   * Every version of `key` valid at some time in [fromTime, toTime] (KIP-968), deletes left out,
   * in `order` of their timestamps ('ANY' gives the newest first, as Kafka Streams does).
   */
  get(key: K, fromTime: number, toTime: number, order?: ResultOrder): VersionedRecordIterator<V>
}

/** A versioned key-value store: a StateStore whose writes are timestamped versions. */
export interface VersionedKeyValueStore<K, V> extends StateStore, ReadOnlyVersionedKeyValueStore<K, V> {
  /**
   * Puts a version of `key` valid from `timestamp` (`value` null: a delete at `timestamp`).
   * Returns the new version's validTo (the timestamp of the next version),
   * PUT_RETURN_CODE_VALID_TO_UNDEFINED when it is the latest, or PUT_RETURN_CODE_NOT_PUT when
   * `timestamp` is older than the grace period.
   */
  put(key: K, value: V | null, timestamp: number): number
  /**
   * Deletes `key` as of `timestamp` (a delete version) and returns the version that was valid at
   * `timestamp`, or null (also when the delete is older than the grace period and not done).
   */
  delete(key: K, timestamp: number): VersionedRecord<V> | null
}

/** The bytes store beneath the metered layer of a versioned store. */
export type VersionedBytesStore = VersionedKeyValueStore<Buffer, Buffer>

/** Supplies the backend of versioned stores (Kafka's VersionedBytesStoreSupplier). */
export interface VersionedBytesStoreSupplier {
  /** The store's name. */
  readonly name: string
  /** e.g. 'in-memory', 'rocksdb'; used in metric names. */
  readonly metricsScope: string
  /** How long (ms) old versions stay queryable; also the grace period of writes. */
  readonly historyRetentionMs: number
  /** The span (ms) of the segments old versions are kept and dropped in. */
  readonly segmentIntervalMs: number
  /** A new bytes store (one per task). */
  get(): VersionedBytesStore
}

/** Whether `supplier` supplies versioned stores (Materialized.as(supplier) accepts both kinds). */
export function isVersionedBytesStoreSupplier(supplier: unknown): supplier is VersionedBytesStoreSupplier {
  if (supplier === null || typeof supplier !== 'object') return false
  const s = supplier as Partial<VersionedBytesStoreSupplier>
  return typeof s.get === 'function' && typeof s.historyRetentionMs === 'number' && typeof s.segmentIntervalMs === 'number'
}

/**
 * The segment interval Kafka Streams picks for a history retention when none is given
 * (RocksDbVersionedKeyValueBytesStoreSupplier): a third of short retentions (at least 2 s), a fifth
 * up to 5 minutes (at least 20 s), a twelfth up to an hour (at least a minute), else a 24th (at
 * least 5 minutes).
 */
export function defaultVersionedSegmentInterval(historyRetentionMs: number): number {
  if (historyRetentionMs <= 60_000) return Math.max(Math.trunc(historyRetentionMs / 3), 2_000)
  if (historyRetentionMs <= 300_000) return Math.max(Math.trunc(historyRetentionMs / 5), 20_000)
  if (historyRetentionMs <= 3_600_000) return Math.max(Math.trunc(historyRetentionMs / 12), 60_000)
  return Math.max(Math.trunc(historyRetentionMs / 24), 300_000)
}
