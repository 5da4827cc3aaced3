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

export interface ReadOnlyWindowStore<K, V> {
  /** The value of the window of `key` that starts at `windowStartTime`, or null. */
  fetch(key: K, windowStartTime: number): V | null
  /** Windows of `key` starting in [timeFrom, timeTo], oldest first. */
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  /** Windows of keys in [keyFrom, keyTo] (undefined = open) starting in [timeFrom, timeTo]. */
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  all(): KeyValueIterator<Windowed<K>, V>
  backwardAll(): KeyValueIterator<Windowed<K>, V>
}

export interface WindowStore<K, V> extends StateStore, ReadOnlyWindowStore<K, V> {
  /** Puts `value` into the window of `key` starting at `windowStartTime`; null deletes. */
  put(key: K, value: V | null, windowStartTime: number): void
}

export type TimestampedWindowStore<K, V> = WindowStore<K, ValueAndTimestamp<V>>

export type WindowBytesStore = WindowStore<Buffer, Buffer>

export interface WindowBytesStoreSupplier {
  readonly name: string
  readonly metricsScope: string
  readonly retentionPeriod: number
  readonly windowSize: number
  readonly segmentInterval: number
  readonly retainDuplicates: boolean
  get(): WindowBytesStore
}
