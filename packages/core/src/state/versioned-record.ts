/**
 * One version of a key's value in a versioned key-value store (Kafka Streams' VersionedRecord):
 * the value, the timestamp it became valid at (`timestamp`, the record's timestamp), and the
 * timestamp it stopped being valid at (`validTo`, exclusive: the timestamp of the next version or
 * of the delete), undefined while it is the latest version.
 */
import { StreamsError } from '../errors.js'

/** One version of a key's value: the value, its timestamp, and its validTo (undefined while it is the latest). */
export class VersionedRecord<V> {
  /** The value; never null (a deleted key has no record). */
  readonly value: V
  /** The timestamp (ms) the version is valid from, inclusive. */
  readonly timestamp: number
  /** The timestamp (ms) the version is valid to, exclusive; undefined for the latest version. */
  readonly validTo: number | undefined

  constructor(value: V, timestamp: number, validTo?: number) {
    if (value === null || value === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', 'A VersionedRecord needs a value: a deleted key has no record')
    }
    this.value = value
    this.timestamp = timestamp
    this.validTo = validTo
  }

  /** `VersionedRecord{value=..., timestamp=..., validTo=...}`, as Kafka Streams prints it. */
  toString(): string {
    const validTo = this.validTo === undefined ? '' : `, validTo=${this.validTo}`
    return `VersionedRecord{value=${String(this.value)}, timestamp=${this.timestamp}${validTo}}`
  }
}
