/**
 * A table operator's view of its store, whichever kind it is (Kafka Streams' KeyValueStoreWrapper,
 * KIP-914): a timestamped key-value store, or a versioned key-value store. get() answers the
 * latest value with its timestamp either way; put() returns what a versioned put returns
 * (PUT_RETURN_CODE_VALID_TO_UNDEFINED when the update is the latest, its validTo when it is an
 * out-of-order update, PUT_RETURN_CODE_NOT_PUT when it is older than the grace period) and
 * PUT_RETURN_CODE_VALID_TO_UNDEFINED for a timestamped store, which always takes the update.
 * @internal
 */
import { PUT_RETURN_CODE_VALID_TO_UNDEFINED, ValueAndTimestamp } from '@kstreams/core'
import type { StateStore, TimestampedKeyValueStore, VersionedKeyValueStore } from '@kstreams/core'
import { MeteredVersionedKeyValueStore } from '@kstreams/core/internal'

export class KeyValueStoreWrapper<K, V> {
  readonly #timestamped: TimestampedKeyValueStore<K, V> | undefined
  readonly #versioned: VersionedKeyValueStore<K, V> | undefined

  constructor(readonly store: StateStore) {
    if (store instanceof MeteredVersionedKeyValueStore) this.#versioned = store as VersionedKeyValueStore<K, V>
    else this.#timestamped = store as unknown as TimestampedKeyValueStore<K, V>
  }

  /** Whether the store is versioned. */
  get isVersioned(): boolean {
    return this.#versioned !== undefined
  }

  /** The latest value and its timestamp. */
  get(key: K): ValueAndTimestamp<V> | null {
    if (this.#versioned === undefined) return (this.#timestamped as TimestampedKeyValueStore<K, V>).get(key)
    const record = this.#versioned.get(key)
    return record === null ? null : ValueAndTimestamp.make(record.value, record.timestamp)
  }

  /** The value valid at `asOfTimestamp` (versioned stores); the latest value of a timestamped store. */
  getAsOf(key: K, asOfTimestamp: number): ValueAndTimestamp<V> | null {
    if (this.#versioned === undefined) return this.get(key)
    const record = this.#versioned.get(key, asOfTimestamp)
    return record === null ? null : ValueAndTimestamp.make(record.value, record.timestamp)
  }

  /** Writes the update (null: a delete); see the file header for what it returns. */
  put(key: K, value: V | null, timestamp: number): number {
    if (this.#versioned !== undefined) return this.#versioned.put(key, value, timestamp)
    ;(this.#timestamped as TimestampedKeyValueStore<K, V>).put(key, ValueAndTimestamp.make(value, timestamp))
    return PUT_RETURN_CODE_VALID_TO_UNDEFINED
  }
}
