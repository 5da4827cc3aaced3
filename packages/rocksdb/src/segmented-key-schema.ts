/**
 * How a segmented store reads the store keys of one kind (Kafka's SegmentedBytesStore.KeySchema):
 * the timestamp that picks a key's segment, the key range of one key over a time range, the
 * filter every scan applies (Kafka's hasNextCondition) and which segments a time range touches.
 * The byte layouts themselves are core's WindowKeySchema and SessionKeySchema.
 * @internal
 */
import { SessionKeySchema, WindowKeySchema } from '@kstreams/core/internal'

export interface SegmentedKeySchema {
  /** The timestamp that decides the segment: the window start, or the session end. */
  segmentTimestamp(storeKey: Buffer): number
  /** The smallest store key of `key` for times from `from` (Kafka's lowerRangeFixedSize). */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer
  /** The greatest store key of `key` for times up to `to` (Kafka's upperRangeFixedSize). */
  upperRangeFixedSize(key: Buffer, to: number): Buffer
  /** The greatest suffix (after the key bytes) a stored key can have: every stored time is a safe integer. */
  readonly maxSuffix: Buffer
  /** Whether `storeKey` has its key in [keyFrom, keyTo] (undefined = open) and its times in [from, to]. */
  matches(storeKey: Buffer, keyFrom: Buffer | undefined, keyTo: Buffer | undefined, from: number, to: number): boolean
  /** The segment timestamps to search for the times [from, to]. */
  searchTimes(from: number, to: number): [number, number]
  /** Whether a time range with to < from is empty without looking (window stores). */
  readonly emptyWhenInverted: boolean
}

/** The 8 bytes of Number.MAX_SAFE_INTEGER as a big-endian long. */
const MAX_SAFE_LONG = Buffer.from([0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
const MAX_SEQNUM = Buffer.from([0x7f, 0xff, 0xff, 0xff])

function keyInRange(keyBytes: Buffer, keyFrom: Buffer | undefined, keyTo: Buffer | undefined): boolean {
  return (keyFrom === undefined || Buffer.compare(keyBytes, keyFrom) >= 0) && (keyTo === undefined || Buffer.compare(keyBytes, keyTo) <= 0)
}

/** `[key][8-byte window start][4-byte seqnum]`, segmented by window start. */
export const windowSegmentedKeySchema: SegmentedKeySchema = Object.freeze({
  segmentTimestamp: (storeKey: Buffer) => WindowKeySchema.extractStoreTimestamp(storeKey),
  lowerRangeFixedSize: (key: Buffer, from: number) => WindowKeySchema.lowerRangeFixedSize(key, from),
  upperRangeFixedSize: (key: Buffer, to: number) => WindowKeySchema.upperRangeFixedSize(key, to),
  maxSuffix: Buffer.concat([MAX_SAFE_LONG, MAX_SEQNUM]),
  matches(storeKey: Buffer, keyFrom: Buffer | undefined, keyTo: Buffer | undefined, from: number, to: number): boolean {
    const time = WindowKeySchema.extractStoreTimestamp(storeKey)
    return time >= from && time <= to && keyInRange(WindowKeySchema.extractStoreKeyBytes(storeKey), keyFrom, keyTo)
  },
  searchTimes: (from: number, to: number): [number, number] => [from, to],
  emptyWhenInverted: true
})

/** `[key][8-byte end][8-byte start]`, segmented by session end. */
export const sessionSegmentedKeySchema: SegmentedKeySchema = Object.freeze({
  segmentTimestamp: (storeKey: Buffer) => SessionKeySchema.extractEndTimestamp(storeKey),
  lowerRangeFixedSize: (key: Buffer, from: number) => SessionKeySchema.lowerRangeFixedSize(key, from),
  upperRangeFixedSize: (key: Buffer, to: number) => SessionKeySchema.upperRangeFixedSize(key, to),
  maxSuffix: Buffer.concat([MAX_SAFE_LONG, MAX_SAFE_LONG]),
  /** Sessions that end at or after `from` and start at or before `to`. */
  matches(storeKey: Buffer, keyFrom: Buffer | undefined, keyTo: Buffer | undefined, from: number, to: number): boolean {
    return (
      SessionKeySchema.extractEndTimestamp(storeKey) >= from &&
      SessionKeySchema.extractStartTimestamp(storeKey) <= to &&
      keyInRange(SessionKeySchema.extractKeyBytes(storeKey), keyFrom, keyTo)
    )
  },
  /** A session ending at or after `from` may sit in any later segment. */
  searchTimes: (from: number, _to: number): [number, number] => [from, Number.MAX_SAFE_INTEGER],
  emptyWhenInverted: false
})

/**
 * An upper bound of the store keys whose key bytes are at most `keyTo`, for any suffix up to
 * `maxSuffix`: the greatest of `prefix + maxSuffix` over the prefixes of `keyTo`, since a shorter
 * key sorts among the longer ones its bytes start. Scans filter the keys past the real range.
 */
export function keyRangeUpperBound(keyTo: Buffer, maxSuffix: Buffer): Buffer {
  let best = Buffer.concat([keyTo, maxSuffix])
  for (let i = 0; i < keyTo.length; i++) {
    // A shorter prefix can only win where the key has a byte no greater than the suffix's first.
    if (keyTo[i]! > maxSuffix[0]!) continue
    const candidate = Buffer.concat([keyTo.subarray(0, i), maxSuffix])
    if (Buffer.compare(candidate, best) > 0) best = candidate
  }
  return best
}
