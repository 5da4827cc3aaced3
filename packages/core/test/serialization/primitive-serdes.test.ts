import { expect } from 'chai'
import { Serdes } from '../../src/serialization/serdes.js'
import { TOPIC, bytes, expectSerializationError, hex } from './serde-test-helpers.js'

// Java encodings: Integer/Long/Short are big-endian two's complement (ByteBuffer.putInt etc.),
// Float/Double are Float.floatToRawIntBits / Double.doubleToLongBits, big-endian.

describe('primitive serdes', () => {
  describe('Integer', () => {
    const serde = Serdes.Integer()
    const golden: Array<[number, string]> = [
      [0, '00000000'],
      [1, '00000001'],
      [-1, 'ffffffff'],
      [256, '00000100'],
      [2147483647, '7fffffff'],
      [-2147483648, '80000000'],
      [-123456789, 'f8a432eb']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(serde.deserializer().deserialize(TOPIC, bytes(expected))).to.equal(value)
      })
    }

    it('rejects non-integers, out-of-range numbers and non-numbers', () => {
      for (const bad of [1.5, 2147483648, -2147483649, NaN, Infinity, '5', 5n, undefined]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as number))
      }
    })

    it('rejects byte arrays that are not 4 bytes long, naming the size', () => {
      for (const len of [0, 3, 5, 8]) {
        const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(len)))
        expect(err.message).to.include('IntegerDeserializer is not 4')
      }
    })
  })

  describe('Long', () => {
    const serde = Serdes.Long()
    const golden: Array<[number, string]> = [
      [0, '0000000000000000'],
      [1, '0000000000000001'],
      [-1, 'ffffffffffffffff'],
      [4294967296, '0000000100000000'],
      [-4294967296, 'ffffffff00000000'],
      [1700000000123, '0000018bcfe5687b'],
      [Number.MAX_SAFE_INTEGER, '001fffffffffffff'],
      [Number.MIN_SAFE_INTEGER, 'ffe0000000000001']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(serde.deserializer().deserialize(TOPIC, bytes(expected))).to.equal(value)
      })
    }

    it('agrees with writeBigInt64BE across the safe range', () => {
      let x = 0x2545f491
      for (let i = 0; i < 2000; i++) {
        x = (Math.imul(x, 1103515245) + 12345) | 0
        const value = (x % 2097152) * 4294967296 + (Math.imul(x, 69069) >>> 0)
        if (!Number.isSafeInteger(value)) continue
        const expected = Buffer.alloc(8)
        expected.writeBigInt64BE(BigInt(value))
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected.toString('hex'))
        expect(serde.deserializer().deserialize(TOPIC, expected)).to.equal(value)
      }
    })

    it('rejects unsafe integers, fractions and non-numbers on serialize', () => {
      for (const bad of [2 ** 53, -(2 ** 53), 1e300, 0.5, NaN, -Infinity, '1', 1n]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as number))
      }
    })

    it('rejects 8-byte values outside the safe range on deserialize instead of rounding', () => {
      for (const unsafe of ['0020000000000000', 'ffe0000000000000', '7fffffffffffffff', '8000000000000000', '0020000000000001']) {
        expectSerializationError(() => serde.deserializer().deserialize(TOPIC, bytes(unsafe)))
      }
    })

    it('rejects byte arrays that are not 8 bytes long, naming the size', () => {
      const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(4)))
      expect(err.message).to.include('LongDeserializer is not 8')
    })
  })

  describe('BigInt64', () => {
    const serde = Serdes.BigInt64()
    const golden: Array<[bigint, string]> = [
      [0n, '0000000000000000'],
      [1n, '0000000000000001'],
      [-1n, 'ffffffffffffffff'],
      [9223372036854775807n, '7fffffffffffffff'],
      [-9223372036854775808n, '8000000000000000'],
      [2n ** 53n, '0020000000000000']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(serde.deserializer().deserialize(TOPIC, bytes(expected))).to.equal(value)
      })
    }

    it('rejects values outside int64 and non-bigints', () => {
      for (const bad of [2n ** 63n, -(2n ** 63n) - 1n, 1, '1']) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as bigint))
      }
    })

    it('rejects byte arrays that are not 8 bytes long', () => {
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(7)))
    })
  })

  describe('Short', () => {
    const serde = Serdes.Short()
    const golden: Array<[number, string]> = [
      [0, '0000'],
      [1, '0001'],
      [-1, 'ffff'],
      [-2, 'fffe'],
      [32767, '7fff'],
      [-32768, '8000'],
      [4660, '1234']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(serde.deserializer().deserialize(TOPIC, bytes(expected))).to.equal(value)
      })
    }

    it('rejects out-of-range numbers, fractions and non-numbers', () => {
      for (const bad of [32768, -32769, 1.25, NaN, '1']) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as number))
      }
    })

    it('rejects byte arrays that are not 2 bytes long, naming the size', () => {
      const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(1)))
      expect(err.message).to.include('ShortDeserializer is not 2')
    })
  })

  describe('Float', () => {
    const serde = Serdes.Float()
    const golden: Array<[number, string]> = [
      [0, '00000000'],
      [-0, '80000000'],
      [1, '3f800000'],
      [1.5, '3fc00000'],
      [-2.5, 'c0200000'],
      [Infinity, '7f800000'],
      [-Infinity, 'ff800000'],
      [NaN, '7fc00000'],
      [3.4028234663852886e38, '7f7fffff'],
      [1.401298464324817e-45, '00000001']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(Object.is(serde.deserializer().deserialize(TOPIC, bytes(expected)), value)).to.equal(true)
      })
    }

    it('rounds to the nearest float like Java (float) casts', () => {
      expect(hex(serde.serializer().serialize(TOPIC, 0.1))).to.equal('3dcccccd')
      expect(serde.deserializer().deserialize(TOPIC, bytes('3dcccccd'))).to.equal(Math.fround(0.1))
    })

    it('rejects finite numbers beyond the float range and non-numbers', () => {
      for (const bad of [1e39, -1e39, '1.5', undefined]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as number))
      }
    })

    it('rejects byte arrays that are not 4 bytes long', () => {
      const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(8)))
      expect(err.message).to.include('is not 4')
    })
  })

  describe('Double', () => {
    const serde = Serdes.Double()
    const golden: Array<[number, string]> = [
      [0, '0000000000000000'],
      [-0, '8000000000000000'],
      [1, '3ff0000000000000'],
      [1.5, '3ff8000000000000'],
      [-2.5, 'c004000000000000'],
      [0.1, '3fb999999999999a'],
      [Math.PI, '400921fb54442d18'],
      [Infinity, '7ff0000000000000'],
      [-Infinity, 'fff0000000000000'],
      [NaN, '7ff8000000000000'],
      [Number.MAX_VALUE, '7fefffffffffffff'],
      [Number.MIN_VALUE, '0000000000000001']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java bytes for ${Object.is(value, -0) ? '-0' : value}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(Object.is(serde.deserializer().deserialize(TOPIC, bytes(expected)), value)).to.equal(true)
      })
    }

    it('rejects non-numbers', () => {
      for (const bad of ['1.5', 1n, {}]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as number))
      }
    })

    it('rejects byte arrays that are not 8 bytes long', () => {
      const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(4)))
      expect(err.message).to.include('is not 8')
    })
  })

  describe('Boolean', () => {
    const serde = Serdes.Boolean()

    it('matches Java bytes: true is 01, false is 00', () => {
      expect(hex(serde.serializer().serialize(TOPIC, true))).to.equal('01')
      expect(hex(serde.serializer().serialize(TOPIC, false))).to.equal('00')
      expect(serde.deserializer().deserialize(TOPIC, bytes('01'))).to.equal(true)
      expect(serde.deserializer().deserialize(TOPIC, bytes('00'))).to.equal(false)
    })

    it('rejects bytes other than 00 and 01, wrong lengths and non-booleans', () => {
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, bytes('02')))
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, bytes('ff')))
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, bytes('0001')))
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(0)))
      expectSerializationError(() => serde.serializer().serialize(TOPIC, 1 as unknown as boolean))
    })
  })
})
