/**
 * 8-byte big-endian two's complement longs (Java's `ByteBuffer.putLong` / `getLong`) held as JS
 * numbers, for the byte layouts of windowed keys. Only safe integers are written; reading a long
 * outside the safe range returns the nearest double.
 */
import { SerializationError } from '../errors.js'

const TWO_POW_32 = 2 ** 32

/** Writes `value` at `offset`; throws SERIALIZATION when it is not a safe integer. */
export function writeInt64BE(buf: Buffer, value: number, offset: number): void {
  if (!Number.isSafeInteger(value)) {
    throw new SerializationError(`Cannot write timestamp ${String(value)} as a 64-bit long: not a safe integer`)
  }
  const high = Math.floor(value / TWO_POW_32)
  buf.writeInt32BE(high, offset)
  buf.writeUInt32BE(value - high * TWO_POW_32, offset + 4)
}

/** Writes Java's `Long.MAX_VALUE` (0x7fffffffffffffff) at `offset`. */
export function writeLongMaxValue(buf: Buffer, offset: number): void {
  buf.writeUInt32BE(0x7fffffff, offset)
  buf.writeUInt32BE(0xffffffff, offset + 4)
}

export function readInt64BE(buf: Buffer, offset: number): number {
  return buf.readInt32BE(offset) * TWO_POW_32 + buf.readUInt32BE(offset + 4)
}
