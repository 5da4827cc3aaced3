/**
 * A growable big-endian byte writer for the assignor's own wire formats (subscription and
 * assignment userData). Fixed-width fields only, so golden bytes stay easy to read. @internal
 */
export class ByteWriter {
  #buffer: Buffer
  #length = 0

  constructor(initialCapacity = 256) {
    this.#buffer = Buffer.alloc(initialCapacity)
  }

  int8(value: number): this {
    this.#ensure(1)
    this.#buffer.writeInt8(value, this.#length)
    this.#length += 1
    return this
  }

  uint8(value: number): this {
    this.#ensure(1)
    this.#buffer.writeUInt8(value, this.#length)
    this.#length += 1
    return this
  }

  int16(value: number): this {
    this.#ensure(2)
    this.#buffer.writeInt16BE(value, this.#length)
    this.#length += 2
    return this
  }

  uint16(value: number): this {
    this.#ensure(2)
    this.#buffer.writeUInt16BE(value, this.#length)
    this.#length += 2
    return this
  }

  int32(value: number): this {
    this.#ensure(4)
    this.#buffer.writeInt32BE(value, this.#length)
    this.#length += 4
    return this
  }

  uint32(value: number): this {
    this.#ensure(4)
    this.#buffer.writeUInt32BE(value, this.#length)
    this.#length += 4
    return this
  }

  /** A safe JS integer as a signed 64-bit value. */
  int64(value: number): this {
    this.#ensure(8)
    this.#buffer.writeBigInt64BE(BigInt(value), this.#length)
    this.#length += 8
    return this
  }

  /** Any signed 64-bit value. */
  int64Big(value: bigint): this {
    this.#ensure(8)
    this.#buffer.writeBigInt64BE(value, this.#length)
    this.#length += 8
    return this
  }

  bytes(value: Uint8Array): this {
    this.#ensure(value.length)
    this.#buffer.set(value, this.#length)
    this.#length += value.length
    return this
  }

  /** A UTF-8 string prefixed with its byte length as uint16. */
  string16(value: string): this {
    const encoded = Buffer.from(value, 'utf8')
    return this.uint16(encoded.length).bytes(encoded)
  }

  /** A UTF-8 string prefixed with its byte length as uint32. */
  string32(value: string): this {
    const encoded = Buffer.from(value, 'utf8')
    return this.uint32(encoded.length).bytes(encoded)
  }

  /**
   * Java's DataOutput.writeUTF: uint16 byte length, then modified UTF-8 (U+0000 as two bytes,
   * each UTF-16 surrogate as its own three bytes).
   */
  javaUtf(value: string): this {
    const bytes: number[] = []
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      if (c >= 0x01 && c <= 0x7f) bytes.push(c)
      else if (c <= 0x7ff) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f))
      else bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f))
    }
    if (bytes.length > 0xffff) throw new RangeError(`String of ${bytes.length} bytes is too long for writeUTF`)
    return this.uint16(bytes.length).bytes(Uint8Array.from(bytes))
  }

  toBuffer(): Buffer {
    return Buffer.from(this.#buffer.subarray(0, this.#length))
  }

  #ensure(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return
    let capacity = this.#buffer.length * 2
    while (capacity < this.#length + extra) capacity *= 2
    const grown = Buffer.alloc(capacity)
    this.#buffer.copy(grown, 0, 0, this.#length)
    this.#buffer = grown
  }
}
