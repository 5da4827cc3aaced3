import type { StateStore } from './state-store.js'
import type { Serializer } from '../serialization/serde.js'
import type { KeyValue } from '../key-value.js'

/** An iterator over key-value pairs that holds resources until closed. Iterable; `using` closes it. */
export interface KeyValueIterator<K, V> extends IterableIterator<KeyValue<K, V>> {
  /** The key next() returns, without moving on; undefined at the end. */
  peekNextKey(): K | undefined
  /** Releases the iterator's resources; call it when done (or use `using`). */
  close(): void
  /** Closes the iterator (for `using`). */
  [Symbol.dispose](): void
}

/** The reads of a key-value store (Kafka Streams' ReadOnlyKeyValueStore): what interactive queries get. */
export interface ReadOnlyKeyValueStore<K, V> {
  /** The value of `key`, or null when there is none. */
  get(key: K): V | null
  /** Keys in [from, to], by serialized key bytes. An undefined bound is open. */
  range(from: K | undefined, to: K | undefined): KeyValueIterator<K, V>
  /** range() in descending key order. */
  reverseRange(from: K | undefined, to: K | undefined): KeyValueIterator<K, V>
  /** Every entry, in ascending order of the serialized key bytes. */
  all(): KeyValueIterator<K, V>
  /** Every entry, in descending key order. */
  reverseAll(): KeyValueIterator<K, V>
  /** The entries whose serialized key starts with the bytes of `prefix` (serialized with `prefixKeySerializer`). */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<K, V>
  /** An estimate of the number of entries. */
  approximateNumEntries(): number
}

/** A key-value state store (Kafka Streams' KeyValueStore): reads, and writes that go to its changelog. */
export interface KeyValueStore<K, V> extends StateStore, ReadOnlyKeyValueStore<K, V> {
  /** `put(key, null)` deletes. */
  put(key: K, value: V | null): void
  /** Returns the previous value; writes only when there was none. */
  putIfAbsent(key: K, value: V | null): V | null
  /** put() of every entry, in order. */
  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void
  /** Returns the previous value. */
  delete(key: K): V | null
}

/** A value with the timestamp of the record that last wrote it. */
export class ValueAndTimestamp<V> {
  private constructor(
    /** The value. */
    readonly value: V,
    /** The timestamp (ms) of the record that wrote it. */
    readonly timestamp: number
  ) {}

  /** Returns null when value is null, like Kafka Streams. */
  static make<V>(value: V | null, timestamp: number): ValueAndTimestamp<V> | null {
    return value === null ? null : new ValueAndTimestamp(value, timestamp)
  }

  /** The value of `vt`, or null when `vt` is null. */
  static getValueOrNull<V>(vt: ValueAndTimestamp<V> | null): V | null {
    return vt === null ? null : vt.value
  }

  /** `<value,timestamp>`, as Kafka Streams prints it. */
  toString(): string {
    return `<${String(this.value)},${this.timestamp}>`
  }
}

/** A key-value store whose values carry the timestamp of their last write (Kafka Streams' TimestampedKeyValueStore). */
export type TimestampedKeyValueStore<K, V> = KeyValueStore<K, ValueAndTimestamp<V>>

/** The bytes store beneath the metered layer: keys ordered by unsigned byte comparison. */
export type KeyValueBytesStore = KeyValueStore<Buffer, Buffer>

/** Supplies the backend bytes store (in-memory, RocksDB, ...). */
export interface KeyValueBytesStoreSupplier {
  /** The store's name. */
  readonly name: string
  /** e.g. 'in-memory', 'rocksdb'; used in metric names. */
  readonly metricsScope: string
  /** A new bytes store (one per task). */
  get(): KeyValueBytesStore
}
