/**
 * Window store contracts (Kafka Streams' `ReadOnlyWindowStore` / `WindowStore`). Time bounds are
 * on the window start and inclusive. The bytes store beneath the metered layer has the same
 * shape over Buffers.
 */
import type { StateStore } from './state-store.js'
import type { KeyValueIterator, ValueAndTimestamp } from './key-value-store.js'
import type { Windowed } from './windowed.js'

/** Iterates (window start, value) pairs of one key. */
export type WindowStoreIterator<V> = KeyValueIterator<number, V>

/** The reads of a window store (Kafka Streams' ReadOnlyWindowStore): what interactive queries get. */
export interface ReadOnlyWindowStore<K, V> {
  /** The value of the window of `key` that starts at `windowStartTime`, or null. */
  fetch(key: K, windowStartTime: number): V | null
  /** Windows of `key` starting in [timeFrom, timeTo], oldest first. */
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  /** Windows of keys in [keyFrom, keyTo] (undefined = open) starting in [timeFrom, timeTo]. */
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  /** Windows of `key` starting in [timeFrom, timeTo], newest first. */
  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  /** Windows of keys in [keyFrom, keyTo] (undefined = open) starting in [timeFrom, timeTo], in reverse order. */
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  /** Windows of every key starting in [timeFrom, timeTo]. */
  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  /** Windows of every key starting in [timeFrom, timeTo], in reverse order. */
  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  /** Every window of every key. */
  all(): KeyValueIterator<Windowed<K>, V>
  /** Every window of every key, in reverse order. */
  backwardAll(): KeyValueIterator<Windowed<K>, V>
}

/** A window state store (Kafka Streams' WindowStore): values per key and window start, kept for the retention period. */
export interface WindowStore<K, V> extends StateStore, ReadOnlyWindowStore<K, V> {
  /** Puts `value` into the window of `key` starting at `windowStartTime`; null deletes. */
  put(key: K, value: V | null, windowStartTime: number): void
}

/** A window store whose values carry the timestamp of their last write (Kafka Streams' TimestampedWindowStore). */
export type TimestampedWindowStore<K, V> = WindowStore<K, ValueAndTimestamp<V>>

/** The bytes store beneath the metered layer of a window store. */
export type WindowBytesStore = WindowStore<Buffer, Buffer>

/** Supplies the backend bytes store of a window store (in-memory, RocksDB, ...). */
export interface WindowBytesStoreSupplier {
  /** The store's name. */
  readonly name: string
  /** e.g. 'in-memory-window', 'rocksdb-window'; used in metric names. */
  readonly metricsScope: string
  /** How long (ms) windows are kept, from their start, before they are dropped. */
  readonly retentionPeriod: number
  /** The size (ms) of the windows stored. */
  readonly windowSize: number
  /** The time span (ms) of one segment: expired windows are dropped a segment at a time. */
  readonly segmentInterval: number
  /** Whether every put is kept, even for the same key and window (stream-stream joins). */
  readonly retainDuplicates: boolean
  /** A new bytes store (one per task). */
  get(): WindowBytesStore
}
