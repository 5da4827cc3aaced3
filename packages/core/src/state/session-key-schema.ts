/**
 * The byte layout of session keys (Kafka's SessionKeySchema), byte for byte, used by session
 * stores, their changelogs and the session-windowed serde:
 * `[key bytes][8-byte big-endian session end][8-byte big-endian session start]`.
 */
import { SerializationError } from '../errors.js'
import { readInt64BE, writeInt64BE, writeLongMaxValue } from './int64-be.js'
import { SessionWindow, Windowed } from './windowed.js'

const TIMESTAMP_SIZE = 8
const SUFFIX_SIZE = 2 * TIMESTAMP_SIZE

function checkLength(binaryKey: Buffer): void {
  if (binaryKey.length < SUFFIX_SIZE) {
    throw new SerializationError(`A session key has at least ${SUFFIX_SIZE} bytes, got ${binaryKey.length}`)
  }
}

export const SessionKeySchema = Object.freeze({
  /** `[key][8-byte end][8-byte start]`. */
  toBinary(key: Buffer, startTime: number, endTime: number): Buffer {
    const out = Buffer.allocUnsafe(key.length + SUFFIX_SIZE)
    key.copy(out, 0)
    writeInt64BE(out, endTime, key.length)
    writeInt64BE(out, startTime, key.length + TIMESTAMP_SIZE)
    return out
  },

  /** The binary form of a session key whose key is already serialized. */
  toBinaryWindowed(sessionKey: Windowed<Buffer>): Buffer {
    return SessionKeySchema.toBinary(sessionKey.key, sessionKey.window.start, sessionKey.window.end)
  },

  /** The key bytes (a view on the same memory). */
  extractKeyBytes(binaryKey: Buffer): Buffer {
    checkLength(binaryKey)
    return binaryKey.subarray(0, binaryKey.length - SUFFIX_SIZE)
  },

  extractEndTimestamp(binaryKey: Buffer): number {
    checkLength(binaryKey)
    return readInt64BE(binaryKey, binaryKey.length - SUFFIX_SIZE)
  },

  extractStartTimestamp(binaryKey: Buffer): number {
    checkLength(binaryKey)
    return readInt64BE(binaryKey, binaryKey.length - TIMESTAMP_SIZE)
  },

  extractWindow(binaryKey: Buffer): SessionWindow {
    return new SessionWindow(SessionKeySchema.extractStartTimestamp(binaryKey), SessionKeySchema.extractEndTimestamp(binaryKey))
  },

  /** The session key (key bytes and session window) of a binary session key. */
  fromBinary(binaryKey: Buffer): Windowed<Buffer> {
    return new Windowed(SessionKeySchema.extractKeyBytes(binaryKey), SessionKeySchema.extractWindow(binaryKey))
  },

  /** The smallest binary key of `key` for sessions ending at or after `from` (Kafka's lowerRangeFixedSize). */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer {
    return SessionKeySchema.toBinary(key, 0, Math.max(0, from))
  },

  /** The greatest binary key of `key` for sessions starting at or before `to` (Kafka's upperRangeFixedSize). */
  upperRangeFixedSize(key: Buffer, to: number): Buffer {
    const out = Buffer.allocUnsafe(key.length + SUFFIX_SIZE)
    key.copy(out, 0)
    writeLongMaxValue(out, key.length)
    writeInt64BE(out, to, key.length + TIMESTAMP_SIZE)
    return out
  }
})
