/**
 * The byte layout of a segmented versioned store inside one key-value bytes store (kstreams' own:
 * the changelog carries plain keys and values, so this layout is never shared with Java):
 *
 * - latest versions:  `[0x00][key]` -> `[validFrom: int64][value]`
 * - segment index:    `[0x01][segment id: ordered int64]` -> empty
 * - older versions:   `[0x02][segment id: ordered int64][key length: uint32][key][validFrom: ordered int64]`
 *                     -> `[validTo: int64][0x00 delete | 0x01 value][value]`
 *
 * An older version lives in the segment of its validTo (Kafka's RocksDBVersionedStore), so whole
 * segments can be dropped once everything in them is older than the history retention. Ordered
 * int64s flip the sign bit so that byte order is numeric order. @internal
 */
import { readInt64BE, writeInt64BE } from './int64-be.js'

const LATEST = 0x00
const SEGMENT_INDEX = 0x01
const HISTORY = 0x02
const INT64 = 8

/** An older version of a key: valid in [validFrom, validTo); a null value is a delete. */
export interface HistoryEntry {
  readonly validFrom: number
  readonly validTo: number
  readonly value: Buffer | null
}

function writeOrdered(buf: Buffer, value: number, offset: number): void {
  writeInt64BE(buf, value, offset)
  buf[offset] = (buf[offset] as number) ^ 0x80
}

function readOrdered(buf: Buffer, offset: number): number {
  const copy = Buffer.from(buf.subarray(offset, offset + INT64))
  copy[0] = (copy[0] as number) ^ 0x80
  return readInt64BE(copy, 0)
}

export const VersionedStoreLayout = Object.freeze({
  latestKey(key: Buffer): Buffer {
    return Buffer.concat([Buffer.of(LATEST), key])
  },

  latestValue(value: Buffer, timestamp: number): Buffer {
    const buf = Buffer.allocUnsafe(INT64 + value.length)
    writeInt64BE(buf, timestamp, 0)
    value.copy(buf, INT64)
    return buf
  },

  latestTimestamp(stored: Buffer): number {
    return readInt64BE(stored, 0)
  },

  latestPayload(stored: Buffer): Buffer {
    return stored.subarray(INT64)
  },

  segmentIndexKey(segmentId: number): Buffer {
    const buf = Buffer.allocUnsafe(1 + INT64)
    buf[0] = SEGMENT_INDEX
    writeOrdered(buf, segmentId, 1)
    return buf
  },

  /** The bounds of the segment index: every index key is in [lower, upper]. */
  segmentIndexBounds(): readonly [Buffer, Buffer] {
    return [Buffer.of(SEGMENT_INDEX), Buffer.of(SEGMENT_INDEX, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)]
  },

  segmentIdFromIndexKey(indexKey: Buffer): number {
    return readOrdered(indexKey, 1)
  },

  /** The prefix every older version of `key` in the segment starts with. */
  historyPrefix(segmentId: number, key: Buffer): Buffer {
    const buf = Buffer.allocUnsafe(1 + INT64 + 4 + key.length)
    buf[0] = HISTORY
    writeOrdered(buf, segmentId, 1)
    buf.writeUInt32BE(key.length, 1 + INT64)
    key.copy(buf, 1 + INT64 + 4)
    return buf
  },

  /** [from, to): every key of the segment. */
  segmentRange(segmentId: number): readonly [Buffer, Buffer] {
    const from = Buffer.allocUnsafe(1 + INT64)
    from[0] = HISTORY
    writeOrdered(from, segmentId, 1)
    const to = Buffer.allocUnsafe(1 + INT64)
    to[0] = HISTORY
    writeOrdered(to, segmentId + 1, 1)
    return [from, to]
  },

  historyKey(segmentId: number, key: Buffer, validFrom: number): Buffer {
    const prefix = VersionedStoreLayout.historyPrefix(segmentId, key)
    const buf = Buffer.allocUnsafe(prefix.length + INT64)
    prefix.copy(buf, 0)
    writeOrdered(buf, validFrom, prefix.length)
    return buf
  },

  historyValue(entry: HistoryEntry): Buffer {
    const value = entry.value
    const buf = Buffer.allocUnsafe(INT64 + 1 + (value === null ? 0 : value.length))
    writeInt64BE(buf, entry.validTo, 0)
    buf[INT64] = value === null ? 0 : 1
    value?.copy(buf, INT64 + 1)
    return buf
  },

  historyEntry(storedKey: Buffer, storedValue: Buffer): HistoryEntry {
    return {
      validFrom: readOrdered(storedKey, storedKey.length - INT64),
      validTo: readInt64BE(storedValue, 0),
      value: storedValue[INT64] === 0 ? null : Buffer.from(storedValue.subarray(INT64 + 1))
    }
  }
})
