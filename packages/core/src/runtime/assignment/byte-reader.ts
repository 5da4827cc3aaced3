/**
 * The reading side of ByteWriter: big-endian fixed-width fields, with every read bounds-checked
 * so truncated or corrupt userData fails with a SerializationError naming what was read. @internal
 */
import { SerializationError } from '../../errors.js'

export class ByteReader {
  readonly #buffer: Buffer
  readonly #what: string
  #offset = 0

  /** `what` names the payload in error messages (e.g. "subscription userData"). */
  constructor(buffer: Buffer, what: string) {
    this.#buffer = buffer
    this.#what = what
  }

  get remaining(): number {
    return this.#buffer.length - this.#offset
  }

  int8(): number {
    this.#need(1)
    const value = this.#buffer.readInt8(this.#offset)
    this.#offset += 1
    return value
  }

  uint8(): number {
    this.#need(1)
    const value = this.#buffer.readUInt8(this.#offset)
    this.#offset += 1
    return value
  }

  int16(): number {
    this.#need(2)
    const value = this.#buffer.readInt16BE(this.#offset)
    this.#offset += 2
    return value
  }

  uint16(): number {
    this.#need(2)
    const value = this.#buffer.readUInt16BE(this.#offset)
    this.#offset += 2
    return value
  }

  int32(): number {
    this.#need(4)
    const value = this.#buffer.readInt32BE(this.#offset)
    this.#offset += 4
    return value
  }

  uint32(): number {
    this.#need(4)
    const value = this.#buffer.readUInt32BE(this.#offset)
    this.#offset += 4
    return value
  }

  int64(): number {
    this.#need(8)
    const value = this.#buffer.readBigInt64BE(this.#offset)
    this.#offset += 8
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new SerializationError(`Corrupt ${this.#what}: 64-bit value ${value} is not a safe integer`)
    }
    return Number(value)
  }

  /** Any signed 64-bit value. */
  int64Big(): bigint {
    this.#need(8)
    const value = this.#buffer.readBigInt64BE(this.#offset)
    this.#offset += 8
    return value
  }

  bytes(length: number): Buffer {
    this.#need(length)
    const value = this.#buffer.subarray(this.#offset, this.#offset + length)
    this.#offset += length
    return value
  }

  string16(): string {
    return this.bytes(this.uint16()).toString('utf8')
  }

  string32(): string {
    return this.bytes(this.uint32()).toString('utf8')
  }

  /** Java's DataInput.readUTF: uint16 byte length, then modified UTF-8. */
  javaUtf(): string {
    const bytes = this.bytes(this.uint16())
    let text = ''
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i]!
      if (b < 0x80) {
        text += String.fromCharCode(b)
        i += 1
      } else if ((b & 0xe0) === 0xc0 && i + 1 < bytes.length) {
        text += String.fromCharCode(((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f))
        i += 2
      } else if ((b & 0xf0) === 0xe0 && i + 2 < bytes.length) {
        text += String.fromCharCode(((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f))
        i += 3
      } else {
        throw new SerializationError(`Corrupt ${this.#what}: malformed modified UTF-8 at byte ${i} of a string`)
      }
    }
    return text
  }

  /** A count prefix; rejects counts that could not fit in what is left (each item >= `minItemBytes`). */
  count(minItemBytes: number): number {
    const n = this.uint32()
    if (n * minItemBytes > this.remaining)
      throw new SerializationError(`Corrupt ${this.#what}: count ${n} exceeds the remaining ${this.remaining} bytes`)
    return n
  }

  /** Fails unless every byte was read. */
  end(): void {
    if (this.remaining !== 0) throw new SerializationError(`Corrupt ${this.#what}: ${this.remaining} trailing bytes`)
  }

  #need(n: number): void {
    if (this.#offset + n > this.#buffer.length) {
      throw new SerializationError(`Corrupt ${this.#what}: needed ${n} bytes at offset ${this.#offset}, only ${this.remaining} left`)
    }
  }
}
