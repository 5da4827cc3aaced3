/**
 * IQv2 range or full scan over a timestamped key-value store, keeping the timestamps (Kafka
 * Streams' `TimestampedRangeQuery`). A plain key-value store does not know this query.
 */
import type { KeyValueIterator, ValueAndTimestamp } from '../../../state/key-value-store.js'
import { QUERY_RESULT, type Query } from './query.js'
import type { ResultOrder } from './range-query.js'

export class TimestampedRangeQuery<K, V> implements Query<KeyValueIterator<K, ValueAndTimestamp<V>>> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: KeyValueIterator<K, ValueAndTimestamp<V>>

  private constructor(
    /** The lowest key (inclusive); undefined: open. */
    readonly lowerBound: K | undefined,
    /** The highest key (inclusive); undefined: open. */
    readonly upperBound: K | undefined,
    /** The key order asked for ('ANY' unless set). */
    readonly resultOrder: ResultOrder
  ) {}

  /** Keys in [lower, upper]; a null or undefined bound is open. */
  static withRange<K, V>(lower: K | null | undefined, upper: K | null | undefined): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(lower ?? undefined, upper ?? undefined, 'ANY')
  }

  /** Keys from `lower` on. */
  static withLowerBound<K, V>(lower: K): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(lower, undefined, 'ANY')
  }

  /** Keys up to `upper`. */
  static withUpperBound<K, V>(upper: K): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(undefined, upper, 'ANY')
  }

  /** Every key (a full scan). */
  static withNoBounds<K, V>(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(undefined, undefined, 'ANY')
  }

  /** The same range in descending key order. */
  withDescendingKeys(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(this.lowerBound, this.upperBound, 'DESCENDING')
  }

  /** The same range in ascending key order. */
  withAscendingKeys(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(this.lowerBound, this.upperBound, 'ASCENDING')
  }

  /** The query, for logs. */
  toString(): string {
    return `TimestampedRangeQuery{lower=${String(this.lowerBound)}, upper=${String(this.upperBound)}, order=${this.resultOrder}}`
  }
}
