/**
 * The byte layouts of window-store keys (Kafka's WindowKeySchema), byte for byte:
 * - store key (what a bytes window store and its changelog hold):
 *   `[key bytes][8-byte big-endian window start][4-byte big-endian seqnum]`;
 * - windowed-serde form (TimeWindowedSerializer): `[key bytes][8-byte big-endian window start]`.
 * The window end is never stored: it is `start + windowSize`.
 */
import { SerializationError } from '../errors.js'
import { readInt64BE, writeInt64BE } from './int64-be.js'
import { TimeWindow, Windowed } from './windowed.js'

const TIMESTAMP_SIZE = 8
const SEQNUM_SIZE = 4
const SUFFIX_SIZE = TIMESTAMP_SIZE + SEQNUM_SIZE
const INT32_MAX = 0x7fffffff

function checkLength(binaryKey: Buffer, minimum: number, what: string): void {
  if (binaryKey.length < minimum) {
    throw new SerializationError(`A ${what} has at least ${minimum} bytes, got ${binaryKey.length}`)
  }
}

function checkSeqnum(seqnum: number): void {
  if (!Number.isInteger(seqnum) || seqnum < -INT32_MAX - 1 || seqnum > INT32_MAX) {
    throw new SerializationError(`A window store sequence number is a 32-bit integer, got ${String(seqnum)}`)
  }
}

export const WindowKeySchema = Object.freeze({
  /**
   * The time window [start, start + windowSize). The end is capped at Number.MAX_SAFE_INTEGER, as
   * Kafka caps it at Long.MAX_VALUE when the sum overflows.
   */
  timeWindowForSize(start: number, windowSize: number): TimeWindow {
    const end = start + windowSize
    return new TimeWindow(start, end > Number.MAX_SAFE_INTEGER && start < Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : end)
  },

  /** `[key][8-byte start][4-byte seqnum]`. */
  toStoreKeyBinary(key: Buffer, timestamp: number, seqnum: number): Buffer {
    checkSeqnum(seqnum)
    const out = Buffer.allocUnsafe(key.length + SUFFIX_SIZE)
    key.copy(out, 0)
    writeInt64BE(out, timestamp, key.length)
    out.writeInt32BE(seqnum, key.length + TIMESTAMP_SIZE)
    return out
  },

  /** The key bytes of a store key (a view on the same memory). */
  extractStoreKeyBytes(binaryKey: Buffer): Buffer {
    checkLength(binaryKey, SUFFIX_SIZE, 'window store key')
    return binaryKey.subarray(0, binaryKey.length - SUFFIX_SIZE)
  },

  extractStoreTimestamp(binaryKey: Buffer): number {
    checkLength(binaryKey, SUFFIX_SIZE, 'window store key')
    return readInt64BE(binaryKey, binaryKey.length - SUFFIX_SIZE)
  },

  extractStoreSequence(binaryKey: Buffer): number {
    checkLength(binaryKey, SUFFIX_SIZE, 'window store key')
    return binaryKey.readInt32BE(binaryKey.length - SEQNUM_SIZE)
  },

  extractStoreWindow(binaryKey: Buffer, windowSize: number): TimeWindow {
    return WindowKeySchema.timeWindowForSize(WindowKeySchema.extractStoreTimestamp(binaryKey), windowSize)
  },

  /** The windowed key (key bytes and time window) of a store key. */
  fromStoreKey(binaryKey: Buffer, windowSize: number): Windowed<Buffer> {
    return new Windowed(WindowKeySchema.extractStoreKeyBytes(binaryKey), WindowKeySchema.extractStoreWindow(binaryKey, windowSize))
  },

  /** The smallest store key of `key` at or after `from` (Kafka's lowerRangeFixedSize). */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(key, Math.max(0, from), 0)
  },

  /** The greatest store key of `key` at or before `to` (Kafka's upperRangeFixedSize). */
  upperRangeFixedSize(key: Buffer, to: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(key, to, INT32_MAX)
  },

  /** The windowed-serde form: `[key][8-byte start]`. */
  toBinary(key: Buffer, windowStart: number): Buffer {
    const out = Buffer.allocUnsafe(key.length + TIMESTAMP_SIZE)
    key.copy(out, 0)
    writeInt64BE(out, windowStart, key.length)
    return out
  },

  /** The key bytes of the windowed-serde form (a view on the same memory). */
  extractKeyBytes(binaryKey: Buffer): Buffer {
    checkLength(binaryKey, TIMESTAMP_SIZE, 'time-windowed key')
    return binaryKey.subarray(0, binaryKey.length - TIMESTAMP_SIZE)
  },

  extractWindowStart(binaryKey: Buffer): number {
    checkLength(binaryKey, TIMESTAMP_SIZE, 'time-windowed key')
    return readInt64BE(binaryKey, binaryKey.length - TIMESTAMP_SIZE)
  },

  /** The windowed key of the windowed-serde form; the end is `start + windowSize`. */
  fromBinary(binaryKey: Buffer, windowSize: number): Windowed<Buffer> {
    const window = WindowKeySchema.timeWindowForSize(WindowKeySchema.extractWindowStart(binaryKey), windowSize)
    return new Windowed(WindowKeySchema.extractKeyBytes(binaryKey), window)
  }
})
