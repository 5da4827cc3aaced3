/**
 * IQv2 lookup of one key's windows in a window store (Kafka Streams' `WindowKeyQuery`): the
 * windows whose start is in [timeFrom, timeTo] (ms, inclusive), oldest first, as an iterator of
 * (window start, value). On a timestamped window store (the DSL's) each value is a
 * ValueAndTimestamp, as in Kafka Streams.
 */
import type { WindowStoreIterator } from '../../../state/window-store.js'
import { QUERY_RESULT, type Query } from './query.js'

export class WindowKeyQuery<K, V> implements Query<WindowStoreIterator<V>> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: WindowStoreIterator<V>

  private constructor(
    /** The key whose windows are asked for. */
    readonly key: K,
    /** The earliest window start (ms, inclusive). */
    readonly timeFrom: number,
    /** The latest window start (ms, inclusive). */
    readonly timeTo: number
  ) {}

  /** The windows of `key` that start in [timeFrom, timeTo]. */
  static withKeyAndWindowStartRange<K, V>(key: K, timeFrom: number | Date, timeTo: number | Date): WindowKeyQuery<K, V> {
    return new WindowKeyQuery<K, V>(key, +timeFrom, +timeTo)
  }

  /** The query, for logs. */
  toString(): string {
    return `WindowKeyQuery{key=${String(this.key)}, timeFrom=${this.timeFrom}, timeTo=${this.timeTo}}`
  }
}
