/**
 * IQv2 range or full scan over a key-value store (Kafka Streams' `RangeQuery`). Bounds are
 * inclusive and optional (undefined = open); the answer is an iterator of plain values, which
 * the caller closes. Key order is that of the serialized keys.
 */
import type { KeyValueIterator } from '../../../state/key-value-store.js'
import { QUERY_RESULT, type Query } from './query.js'

/** The key order a range query asks for (Kafka Streams' `ResultOrder`). */
export type ResultOrder = 'ANY' | 'ASCENDING' | 'DESCENDING'

export class RangeQuery<K, V> implements Query<KeyValueIterator<K, V>> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: KeyValueIterator<K, V>

  private constructor(
    /** The lowest key (inclusive); undefined: open. */
    readonly lowerBound: K | undefined,
    /** The highest key (inclusive); undefined: open. */
    readonly upperBound: K | undefined,
    /** The key order asked for ('ANY' unless set). */
    readonly resultOrder: ResultOrder
  ) {}

  /** Keys in [lower, upper]; a null or undefined bound is open. */
  static withRange<K, V>(lower: K | null | undefined, upper: K | null | undefined): RangeQuery<K, V> {
    return new RangeQuery<K, V>(lower ?? undefined, upper ?? undefined, 'ANY')
  }

  /** Keys from `lower` on. */
  static withLowerBound<K, V>(lower: K): RangeQuery<K, V> {
    return new RangeQuery<K, V>(lower, undefined, 'ANY')
  }

  /** Keys up to `upper`. */
  static withUpperBound<K, V>(upper: K): RangeQuery<K, V> {
    return new RangeQuery<K, V>(undefined, upper, 'ANY')
  }

  /** Every key (a full scan). */
  static withNoBounds<K, V>(): RangeQuery<K, V> {
    return new RangeQuery<K, V>(undefined, undefined, 'ANY')
  }

  /** The same range in descending key order. */
  withDescendingKeys(): RangeQuery<K, V> {
    return new RangeQuery<K, V>(this.lowerBound, this.upperBound, 'DESCENDING')
  }

  /** The same range in ascending key order. */
  withAscendingKeys(): RangeQuery<K, V> {
    return new RangeQuery<K, V>(this.lowerBound, this.upperBound, 'ASCENDING')
  }

  /** The query, for logs. */
  toString(): string {
    return `RangeQuery{lower=${String(this.lowerBound)}, upper=${String(this.upperBound)}, order=${this.resultOrder}}`
  }
}
