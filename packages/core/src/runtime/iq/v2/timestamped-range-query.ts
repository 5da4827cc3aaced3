/**
 * IQv2 range or full scan over a timestamped key-value store, keeping the timestamps (Kafka
 * Streams' `TimestampedRangeQuery`). A plain key-value store does not know this query.
 */
import type { KeyValueIterator, ValueAndTimestamp } from '../../../state/key-value-store.js'
import { QUERY_RESULT, type Query } from './query.js'
import type { ResultOrder } from './range-query.js'

export class TimestampedRangeQuery<K, V> implements Query<KeyValueIterator<K, ValueAndTimestamp<V>>> {
  declare readonly [QUERY_RESULT]?: KeyValueIterator<K, ValueAndTimestamp<V>>

  private constructor(
    readonly lowerBound: K | undefined,
    readonly upperBound: K | undefined,
    readonly resultOrder: ResultOrder
  ) {}

  static withRange<K, V>(lower: K | null | undefined, upper: K | null | undefined): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(lower ?? undefined, upper ?? undefined, 'ANY')
  }

  static withLowerBound<K, V>(lower: K): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(lower, undefined, 'ANY')
  }

  static withUpperBound<K, V>(upper: K): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(undefined, upper, 'ANY')
  }

  static withNoBounds<K, V>(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(undefined, undefined, 'ANY')
  }

  withDescendingKeys(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(this.lowerBound, this.upperBound, 'DESCENDING')
  }

  withAscendingKeys(): TimestampedRangeQuery<K, V> {
    return new TimestampedRangeQuery<K, V>(this.lowerBound, this.upperBound, 'ASCENDING')
  }

  toString(): string {
    return `TimestampedRangeQuery{lower=${String(this.lowerBound)}, upper=${String(this.upperBound)}, order=${this.resultOrder}}`
  }
}
