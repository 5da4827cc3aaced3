/**
 * IQv2 scan of windows (Kafka Streams' `WindowRangeQuery`): `withKey(k)` asks a session store
 * for every session of `k`; `withWindowStartRange(from, to)` asks a window store for the windows
 * of every key starting in [from, to]. Each store kind knows only its own form; the other is
 * UNKNOWN_QUERY_TYPE. On a timestamped window store each value is a ValueAndTimestamp.
 */
import type { KeyValueIterator } from '../../../state/key-value-store.js'
import type { Windowed } from '../../../state/windowed.js'
import { QUERY_RESULT, type Query } from './query.js'

export class WindowRangeQuery<K, V> implements Query<KeyValueIterator<Windowed<K>, V>> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: KeyValueIterator<Windowed<K>, V>

  private constructor(
    /** The key whose sessions are asked for (withKey); undefined for a time range. */
    readonly key: K | undefined,
    /** The earliest window start (ms, inclusive; withWindowStartRange). */
    readonly timeFrom: number | undefined,
    /** The latest window start (ms, inclusive; withWindowStartRange). */
    readonly timeTo: number | undefined
  ) {}

  /** Every session of `key` (session stores). */
  static withKey<K, V>(key: K): WindowRangeQuery<K, V> {
    return new WindowRangeQuery<K, V>(key, undefined, undefined)
  }

  /** The windows of every key starting in [timeFrom, timeTo] (window stores). */
  static withWindowStartRange<K, V>(timeFrom: number | Date, timeTo: number | Date): WindowRangeQuery<K, V> {
    return new WindowRangeQuery<K, V>(undefined, +timeFrom, +timeTo)
  }

  /** The query, for logs. */
  toString(): string {
    return `WindowRangeQuery{key=${String(this.key)}, timeFrom=${String(this.timeFrom)}, timeTo=${String(this.timeTo)}}`
  }
}
