import type { StateStore } from './state-store.js'
import type { Serializer } from '../serialization/serde.js'
import type { KeyValue } from '../key-value.js'

/** An iterator over key-value pairs that holds resources until closed. Iterable; `using` closes it. */
export interface KeyValueIterator<K, V> extends IterableIterator<KeyValue<K, V>> {
  peekNextKey(): K | undefined
  close(): void
  [Symbol.dispose](): void
}

export interface ReadOnlyKeyValueStore<K, V> {
  get(key: K): V | null
  /** Keys in [from, to], by serialized key bytes. An undefined bound is open. */
  range(from: K | undefined, to: K | undefined): KeyValueIterator<K, V>
  reverseRange(from: K | undefined, to: K | undefined): KeyValueIterator<K, V>
  all(): KeyValueIterator<K, V>
  reverseAll(): KeyValueIterator<K, V>
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<K, V>
  approximateNumEntries(): number
}

export interface KeyValueStore<K, V> extends StateStore, ReadOnlyKeyValueStore<K, V> {
  /** `put(key, null)` deletes. */
  put(key: K, value: V | null): void
  /** Returns the previous value; writes only when there was none. */
  putIfAbsent(key: K, value: V | null): V | null
  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void
  /** Returns the previous value. */
  delete(key: K): V | null
}

/** A value with the timestamp of the record that last wrote it. */
export class ValueAndTimestamp<V> {
  private constructor(
    readonly value: V,
    readonly timestamp: number
  ) {}

  /** Returns null when value is null, like Kafka Streams. */
  static make<V>(value: V | null, timestamp: number): ValueAndTimestamp<V> | null {
    return value === null ? null : new ValueAndTimestamp(value, timestamp)
  }

  static getValueOrNull<V>(vt: ValueAndTimestamp<V> | null): V | null {
    return vt === null ? null : vt.value
  }

  toString(): string {
    return `<${String(this.value)},${this.timestamp}>`
  }
}

export type TimestampedKeyValueStore<K, V> = KeyValueStore<K, ValueAndTimestamp<V>>

/** The bytes store beneath the metered layer: keys ordered by unsigned byte comparison. */
export type KeyValueBytesStore = KeyValueStore<Buffer, Buffer>

/** Supplies the backend bytes store (in-memory, RocksDB, ...). */
export interface KeyValueBytesStoreSupplier {
  readonly name: string
  /** e.g. 'in-memory', 'rocksdb'; used in metric names. */
  readonly metricsScope: string
  get(): KeyValueBytesStore
}
