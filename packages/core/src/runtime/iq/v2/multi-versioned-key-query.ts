/**
 * IQv2 lookup of the versions of one key in a versioned key-value store over a time range (Kafka
 * Streams' `MultiVersionedKeyQuery`, KIP-968): every version valid at some time in
 * [fromTime, toTime] (a version written before `fromTime` that was still valid at it counts;
 * deletes are left out). Bounds left unset are open. The answer is a VersionedRecordIterator,
 * which the caller closes; with no order asked for the newest version comes first (as in Kafka
 * Streams), `withAscendingTimestamps()` / `withDescendingTimestamps()` fix the order. Stores other
 * than versioned ones answer UNKNOWN_QUERY_TYPE; a fromTime after toTime fails the query call
 * (ILLEGAL_ARGUMENT), as Kafka Streams' IllegalArgumentException.
 */
import { StreamsError } from '../../../errors.js'
import type { VersionedRecordIterator } from '../../../state/versioned-record-iterator.js'
import { QUERY_RESULT, type Query } from './query.js'
import type { ResultOrder } from './range-query.js'

export class MultiVersionedKeyQuery<K, V> implements Query<VersionedRecordIterator<V>> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: VersionedRecordIterator<V>

  private constructor(
    /** The key whose versions are asked for. */
    readonly key: K,
    /** The start of the time range (ms, inclusive; set by fromTime()); undefined: open. */
    readonly timeFrom: number | undefined,
    /** The end of the time range (ms, inclusive; set by toTime()): versions with a timestamp up to it; undefined: open. */
    readonly timeTo: number | undefined,
    /** The timestamp order asked for ('ANY' unless set). */
    readonly resultOrder: ResultOrder
  ) {}

  /** Every version of `key` (ILLEGAL_ARGUMENT when `key` is null or undefined). */
  static withKey<K, V>(key: K): MultiVersionedKeyQuery<K, V> {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'MultiVersionedKeyQuery: key cannot be null.')
    return new MultiVersionedKeyQuery<K, V>(key, undefined, undefined, 'ANY')
  }

  /** The versions still valid at or after `fromTime` (ms or a Date); null or undefined: no lower bound. */
  fromTime(fromTime: number | Date | null | undefined): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, time(fromTime), this.timeTo, this.resultOrder)
  }

  /** The versions with a timestamp up to `toTime` (ms or a Date); null or undefined: no upper bound. */
  toTime(toTime: number | Date | null | undefined): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, this.timeFrom, time(toTime), this.resultOrder)
  }

  /** The same query, newest version first. */
  withDescendingTimestamps(): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, this.timeFrom, this.timeTo, 'DESCENDING')
  }

  /** The same query, oldest version first. */
  withAscendingTimestamps(): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, this.timeFrom, this.timeTo, 'ASCENDING')
  }

  /** The query, for logs. */
  toString(): string {
    return `MultiVersionedKeyQuery{key=${String(this.key)}, fromTime=${String(this.timeFrom)}, toTime=${String(this.timeTo)}, order=${this.resultOrder}}`
  }
}

function time(t: number | Date | null | undefined): number | undefined {
  return t === null || t === undefined ? undefined : +t
}
