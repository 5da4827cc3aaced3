/**
 * Fixed-width serdes byte-identical to Java's: Integer (int32 BE), Long (int64 BE as a safe JS
 * number), BigInt64 (int64 BE as bigint), Short (int16 BE), Float (IEEE-754 binary32 BE),
 * Double (binary64 BE) and Boolean (one byte, 0x01 / 0x00). null stays null both ways; a value
 * the wire type cannot hold, or bytes of the wrong length, is a SerializationError naming the
 * topic. These run once per record: one allocUnsafe per serialize, no other allocation.
 */
import type { Serde } from './serde.js'
import { invalidData, wrongSize } from './serde-errors.js'
import { serdeFrom } from './serde-from.js'

const TWO_POW_32 = 4294967296
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** Java Integer: 4-byte big-endian two's complement. Accepts integers in [-2^31, 2^31 - 1]. */
export function integerSerde(): Serde<number> {
  return serdeFrom<number>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'number' || (data | 0) !== data) {
          throw invalidData('IntegerSerializer', topic, data, 'not a 32-bit signed integer')
        }
        const buf = Buffer.allocUnsafe(4)
        buf.writeInt32BE(data, 0)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 4) throw wrongSize('IntegerDeserializer', topic, 4, data.length)
        return data.readInt32BE(0)
      }
    }
  )
}

/**
 * Java Long: 8-byte big-endian two's complement, held as a JS number. Only safe integers
 * (|n| <= 2^53 - 1) are accepted; an 8-byte value outside that range is an error on
 * deserialize rather than a silently rounded number (use BigInt64 for the full range).
 */
export function longSerde(): Serde<number> {
  return serdeFrom<number>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (!Number.isSafeInteger(data)) {
          throw invalidData('LongSerializer', topic, data, 'not a safe integer (use Serdes.BigInt64 for the full 64-bit range)')
        }
        const hi = Math.floor(data / TWO_POW_32)
        const buf = Buffer.allocUnsafe(8)
        buf.writeInt32BE(hi, 0)
        buf.writeUInt32BE(data - hi * TWO_POW_32, 4)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 8) throw wrongSize('LongDeserializer', topic, 8, data.length)
        // hi * 2^32 is exact; if the true value is not safe, the rounded sum is not safe either.
        const value = data.readInt32BE(0) * TWO_POW_32 + data.readUInt32BE(4)
        if (!Number.isSafeInteger(value)) {
          throw invalidData(
            'LongDeserializer',
            topic,
            data.readBigInt64BE(0),
            'not a safe integer (use Serdes.BigInt64 for the full 64-bit range)'
          )
        }
        return value
      }
    }
  )
}

/** Java Long as a bigint: 8-byte big-endian two's complement, the full int64 range. */
export function bigInt64Serde(): Serde<bigint> {
  return serdeFrom<bigint>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'bigint' || data < INT64_MIN || data > INT64_MAX) {
          throw invalidData('LongSerializer', topic, data, 'not a bigint in the signed 64-bit range')
        }
        const buf = Buffer.allocUnsafe(8)
        buf.writeBigInt64BE(data, 0)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 8) throw wrongSize('LongDeserializer', topic, 8, data.length)
        return data.readBigInt64BE(0)
      }
    }
  )
}

/** Java Short: 2-byte big-endian two's complement. Accepts integers in [-32768, 32767]. */
export function shortSerde(): Serde<number> {
  return serdeFrom<number>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'number' || (data << 16) >> 16 !== data) {
          throw invalidData('ShortSerializer', topic, data, 'not a 16-bit signed integer')
        }
        const buf = Buffer.allocUnsafe(2)
        buf.writeInt16BE(data, 0)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 2) throw wrongSize('ShortDeserializer', topic, 2, data.length)
        return data.readInt16BE(0)
      }
    }
  )
}

/**
 * Java Float: IEEE-754 binary32, big-endian. Numbers are rounded to the nearest float (as
 * Math.fround does); a finite number too large for a float is an error, not Infinity.
 */
export function floatSerde(): Serde<number> {
  return serdeFrom<number>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'number') throw invalidData('FloatSerializer', topic, data, 'not a number')
        if (!Number.isFinite(Math.fround(data)) && Number.isFinite(data)) {
          throw invalidData('FloatSerializer', topic, data, 'outside the 32-bit float range')
        }
        const buf = Buffer.allocUnsafe(4)
        buf.writeFloatBE(data, 0)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 4) throw wrongSize('FloatDeserializer', topic, 4, data.length)
        return data.readFloatBE(0)
      }
    }
  )
}

/** Java Double: IEEE-754 binary64, big-endian. */
export function doubleSerde(): Serde<number> {
  return serdeFrom<number>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'number') throw invalidData('DoubleSerializer', topic, data, 'not a number')
        const buf = Buffer.allocUnsafe(8)
        buf.writeDoubleBE(data, 0)
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 8) throw wrongSize('DoubleDeserializer', topic, 8, data.length)
        return data.readDoubleBE(0)
      }
    }
  )
}

/** Java Boolean: one byte, 0x01 for true and 0x00 for false; any other byte is an error. */
export function booleanSerde(): Serde<boolean> {
  return serdeFrom<boolean>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'boolean') throw invalidData('BooleanSerializer', topic, data, 'not a boolean')
        const buf = Buffer.allocUnsafe(1)
        buf[0] = data ? 1 : 0
        return buf
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        if (data.length !== 1) throw wrongSize('BooleanDeserializer', topic, 1, data.length)
        const b = data[0]
        if (b === 1) return true
        if (b === 0) return false
        throw invalidData('BooleanDeserializer', topic, data, `unexpected byte ${b} (only 0x00 and 0x01 are valid)`)
      }
    }
  )
}
