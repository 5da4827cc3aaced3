/**
 * IQv2 point lookup of one key in a timestamped key-value store (Kafka Streams'
 * `TimestampedKeyQuery`): the value with its timestamp, or null. A plain key-value store does not
 * know this query (UNKNOWN_QUERY_TYPE).
 */
import type { ValueAndTimestamp } from '../../../state/key-value-store.js'
import { QUERY_RESULT, type Query } from './query.js'

export class TimestampedKeyQuery<K, V> implements Query<ValueAndTimestamp<V> | null> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: ValueAndTimestamp<V> | null

  private constructor(
    /** The key to look up. */
    readonly key: K,
    /** Whether the lookup skips the record cache (skipCache()). */
    readonly skipsCache: boolean
  ) {}

  /** The lookup of `key`. */
  static withKey<K, V>(key: K): TimestampedKeyQuery<K, V> {
    return new TimestampedKeyQuery<K, V>(key, false)
  }

  /** Reads the store below its record cache: the value as of the last flush (commit), not newer cached updates. */
  skipCache(): TimestampedKeyQuery<K, V> {
    return new TimestampedKeyQuery<K, V>(this.key, true)
  }

  /** The query, for logs. */
  toString(): string {
    return `TimestampedKeyQuery{key=${String(this.key)}}`
  }
}
