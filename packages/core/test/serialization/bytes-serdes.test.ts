import { expect } from 'chai'
import { Serdes } from '../../src/serialization/serdes.js'
import { TOPIC, bytes, expectSerializationError, hex } from './serde-test-helpers.js'

describe('byte serdes', () => {
  describe('ByteArray', () => {
    const serde = Serdes.ByteArray()

    it('passes a Buffer through unchanged, both ways', () => {
      const data = bytes('00 01 fe ff')
      expect(serde.serializer().serialize(TOPIC, data)).to.equal(data)
      expect(serde.deserializer().deserialize(TOPIC, data)).to.equal(data)
    })

    it('wraps a Uint8Array view as a Buffer over the same memory, without copying', () => {
      const backing = new Uint8Array([9, 1, 2, 3, 9])
      const view = backing.subarray(1, 4)
      const out = serde.serializer().serialize(TOPIC, view)
      expect(Buffer.isBuffer(out)).to.equal(true)
      expect(hex(out)).to.equal('010203')
      backing[2] = 0x42
      expect(hex(out)).to.equal('014203')
    })

    it('keeps empty arrays empty', () => {
      expect(hex(serde.serializer().serialize(TOPIC, new Uint8Array(0)))).to.equal('')
      expect(serde.deserializer().deserialize(TOPIC, Buffer.alloc(0))).to.have.length(0)
    })

    it('rejects what is not a Uint8Array', () => {
      for (const bad of ['abc', [1, 2], new Uint16Array(2), 5]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as unknown as Uint8Array))
      }
    })
  })

  describe('Buffer', () => {
    const serde = Serdes.Buffer()

    it('passes Buffers through unchanged, both ways', () => {
      const data = bytes('cafe')
      expect(serde.serializer().serialize(TOPIC, data)).to.equal(data)
      expect(serde.deserializer().deserialize(TOPIC, data)).to.equal(data)
    })

    it('rejects a plain Uint8Array and other values', () => {
      for (const bad of [new Uint8Array(2), 'cafe', {}]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as Buffer))
      }
    })
  })

  describe('Void', () => {
    const serde = Serdes.Void()

    it('is always null', () => {
      expect(serde.serializer().serialize(TOPIC, null)).to.equal(null)
      expect(serde.deserializer().deserialize(TOPIC, null)).to.equal(null)
    })

    it('rejects serializing anything but null', () => {
      for (const bad of [0, '', false, {}, Buffer.alloc(0)]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as unknown as null))
      }
    })

    it('rejects deserializing any bytes, even an empty array, like Java VoidDeserializer', () => {
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(0)))
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, bytes('00')))
    })
  })
})
