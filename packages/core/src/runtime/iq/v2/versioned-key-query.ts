/**
 * IQv2 lookup of one key in a versioned key-value store (Kafka Streams' `VersionedKeyQuery`,
 * KIP-960): the latest version of the key, or with `asOf(t)` the version valid at `t` (the one with
 * the greatest timestamp not after `t`). The answer is a VersionedRecord (value, timestamp,
 * validTo), or null when there is none. Stores other than versioned ones answer UNKNOWN_QUERY_TYPE.
 */
import { StreamsError } from '../../../errors.js'
import type { VersionedRecord } from '../../../state/versioned-record.js'
import { QUERY_RESULT, type Query } from './query.js'

export class VersionedKeyQuery<K, V> implements Query<VersionedRecord<V> | null> {
  /** The type of the result, for the compiler only; never set. */
  declare readonly [QUERY_RESULT]?: VersionedRecord<V> | null

  private constructor(
    /** The key to look up. */
    readonly key: K,
    /** The time (ms) the version must be valid at; undefined: the latest version. */
    readonly asOfTimestamp: number | undefined
  ) {}

  /** The latest version of `key` (ILLEGAL_ARGUMENT when `key` is null or undefined). */
  static withKey<K, V>(key: K): VersionedKeyQuery<K, V> {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', 'VersionedKeyQuery: key cannot be null.')
    return new VersionedKeyQuery<K, V>(key, undefined)
  }

  /** The same key, answered with the version valid at `asOfTimestamp` (ms or a Date). */
  asOf(asOfTimestamp: number | Date): VersionedKeyQuery<K, V> {
    if (asOfTimestamp === null || asOfTimestamp === undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'VersionedKeyQuery: asOf timestamp cannot be null.')
    return new VersionedKeyQuery<K, V>(this.key, +asOfTimestamp)
  }

  /** The query, for logs. */
  toString(): string {
    const asOf = this.asOfTimestamp === undefined ? '' : `, asOfTimestamp=${this.asOfTimestamp}`
    return `VersionedKeyQuery{key=${String(this.key)}${asOf}}`
  }
}
