/**
 * IQv2 point lookup of one key in a key-value store (Kafka Streams' `KeyQuery`). The answer is
 * the plain value, or null when the key is absent; on a timestamped store the timestamp is
 * dropped (use `TimestampedKeyQuery` to keep it).
 */
import { QUERY_RESULT, type Query } from './query.js'

export class KeyQuery<K, V> implements Query<V | null> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: V | null

  private constructor(
    /** The key to look up. */
    readonly key: K,
    /** Whether the lookup skips the record cache (skipCache()). */
    readonly skipsCache: boolean
  ) {}

  /** The lookup of `key`. */
  static withKey<K, V>(key: K): KeyQuery<K, V> {
    return new KeyQuery<K, V>(key, false)
  }

  /** Reads the store below its record cache: the value as of the last flush (commit), not newer cached updates. */
  skipCache(): KeyQuery<K, V> {
    return new KeyQuery<K, V>(this.key, true)
  }

  /** The query, for logs. */
  toString(): string {
    return `KeyQuery{key=${String(this.key)}}`
  }
}
