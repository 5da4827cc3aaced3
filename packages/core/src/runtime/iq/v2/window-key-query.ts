/**
 * IQv2 lookup of one key's windows in a window store (Kafka Streams' `WindowKeyQuery`): the
 * windows whose start is in [timeFrom, timeTo] (ms, inclusive), oldest first, as an iterator of
 * (window start, value). On a timestamped window store (the DSL's) each value is a
 * ValueAndTimestamp, as in Kafka Streams.
 */
import type { WindowStoreIterator } from '../../../state/window-store.js'
import { QUERY_RESULT, type Query } from './query.js'

export class WindowKeyQuery<K, V> implements Query<WindowStoreIterator<V>> {
  declare readonly [QUERY_RESULT]?: WindowStoreIterator<V>

  private constructor(
    readonly key: K,
    readonly timeFrom: number,
    readonly timeTo: number
  ) {}

  static withKeyAndWindowStartRange<K, V>(key: K, timeFrom: number | Date, timeTo: number | Date): WindowKeyQuery<K, V> {
    return new WindowKeyQuery<K, V>(key, +timeFrom, +timeTo)
  }

  toString(): string {
    return `WindowKeyQuery{key=${String(this.key)}, timeFrom=${this.timeFrom}, timeTo=${this.timeTo}}`
  }
}
