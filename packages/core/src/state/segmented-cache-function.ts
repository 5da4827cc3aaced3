/**
 * The record-cache keys of window and session stores (Kafka's SegmentedCacheFunction): the store
 * key prefixed with the 8-byte big-endian id of its segment (`segment time / segmentInterval`,
 * the segment time being the window start or the session end). The cache then orders a store's
 * entries segment by segment, then by store-key bytes, as the segmented backends iterate them
 * (the in-memory stores report a segment interval of 1 ms: one segment per window start or
 * session end). Also the range bounds of segments, for cache range reads. @internal
 */
import { StreamsError } from '../errors.js'
import { writeInt64BE } from './int64-be.js'

const PREFIX_SIZE = 8

export class SegmentedCacheFunction {
  readonly segmentInterval: number

  constructor(segmentInterval: number) {
    if (!Number.isSafeInteger(segmentInterval) || segmentInterval < 1) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The segment interval of a caching store must be a positive integer, got ${String(segmentInterval)}`
      )
    }
    this.segmentInterval = segmentInterval
  }

  /** The segment of a time; times below 0 fall in segment 0, times above MAX_SAFE_INTEGER in the last. */
  segmentId(time: number): number {
    const clamped = Math.min(Math.max(time, 0), Number.MAX_SAFE_INTEGER)
    return Math.floor(clamped / this.segmentInterval)
  }

  /** `[8-byte segment id of segmentTime][storeKey]`. */
  cacheKey(storeKey: Buffer, segmentTime: number): Buffer {
    const out = Buffer.allocUnsafe(PREFIX_SIZE + storeKey.length)
    writeInt64BE(out, this.segmentId(segmentTime), 0)
    storeKey.copy(out, PREFIX_SIZE)
    return out
  }

  /** The store key of a cache key (a view on the same memory). */
  storeKey(cacheKey: Buffer): Buffer {
    return cacheKey.subarray(PREFIX_SIZE)
  }

  /**
   * A lower bound of the cache keys in the segment of `time` and after it: the segment prefix,
   * followed by `keyFrom` when given (every store key of a key at or after `keyFrom`, in byte
   * order, sorts at or after `keyFrom` itself).
   */
  lowerBound(time: number, keyFrom?: Buffer): Buffer {
    return this.cacheKey(keyFrom ?? Buffer.alloc(0), time)
  }

  /**
   * An inclusive upper bound of the cache keys in the segment of `time` and before it: the bare
   * prefix of the next segment, which no cache key equals (each has a store key after the
   * prefix). Undefined (open) when there is no next segment.
   */
  upperBound(time: number): Buffer | undefined {
    const next = this.segmentId(time) + 1
    if (next > Number.MAX_SAFE_INTEGER) return undefined
    const out = Buffer.allocUnsafe(PREFIX_SIZE)
    writeInt64BE(out, next, 0)
    return out
  }
}
