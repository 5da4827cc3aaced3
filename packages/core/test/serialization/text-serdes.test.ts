import { expect } from 'chai'
import { Serdes } from '../../src/serialization/serdes.js'
import { encodeUtf8 } from '../../src/serialization/text-serdes.js'
import { TOPIC, bytes, expectSerializationError, hex } from './serde-test-helpers.js'

describe('text serdes', () => {
  describe('String', () => {
    const serde = Serdes.String()
    // Java: "...".getBytes(StandardCharsets.UTF_8)
    const golden: Array<[string, string]> = [
      ['', ''],
      ['hello', '68656c6c6f'],
      ['héllo', '68c3a96c6c6f'],
      ['€', 'e282ac'],
      ['日本', 'e697a5e69cac'],
      ['😀', 'f09f9880'],
      ['a\u0000b', '610062']
    ]
    for (const [value, expected] of golden) {
      it(`matches Java UTF-8 bytes for ${JSON.stringify(value)}`, () => {
        expect(hex(serde.serializer().serialize(TOPIC, value))).to.equal(expected)
        expect(serde.deserializer().deserialize(TOPIC, bytes(expected))).to.equal(value)
      })
    }

    it('writes a lone surrogate as ? (0x3f), as Java String.getBytes(UTF_8) does', () => {
      expect(hex(serde.serializer().serialize(TOPIC, 'a\ud800b'))).to.equal('613f62')
      expect(hex(serde.serializer().serialize(TOPIC, '\udc00x\ud83d'))).to.equal('3f783f')
      expect(hex(encodeUtf8('\ud83d\ude00\ud83d'))).to.equal('f09f98803f')
    })

    it('decodes malformed UTF-8 to U+FFFD, as Java new String(bytes, UTF_8) does', () => {
      expect(serde.deserializer().deserialize(TOPIC, bytes('61ff62'))).to.equal('a\ufffdb')
    })

    it('rejects non-strings', () => {
      for (const bad of [1, [104, 105], Buffer.from('hi'), undefined]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as unknown as string))
      }
    })
  })

  describe('UUID', () => {
    const serde = Serdes.UUID()
    const uuid = '123e4567-e89b-12d3-a456-426614174000'

    it('writes the 36-character text as UTF-8, as Java UUIDSerializer does', () => {
      const out = serde.serializer().serialize(TOPIC, uuid)
      expect(out).to.have.length(36)
      expect(hex(out)).to.equal('31323365343536372d653839622d313264332d613435362d343236363134313734303030')
      expect(serde.deserializer().deserialize(TOPIC, out)).to.equal(uuid)
    })

    it('writes and reads upper case as lower case, like java.util.UUID.toString()', () => {
      const upper = 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'
      expect(serde.serializer().serialize(TOPIC, upper)?.toString('ascii')).to.equal(upper.toLowerCase())
      expect(serde.deserializer().deserialize(TOPIC, Buffer.from(upper))).to.equal(upper.toLowerCase())
    })

    it('rejects malformed UUIDs on serialize', () => {
      for (const bad of ['', 'not-a-uuid', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g', 42]) {
        expectSerializationError(() => serde.serializer().serialize(TOPIC, bad as string))
      }
    })

    it('rejects malformed UUID bytes on deserialize', () => {
      for (const bad of [
        '',
        'hello',
        '123e4567-e89b-12d3-a456-4266141740001',
        '123e4567_e89b_12d3_a456_426614174000',
        '123e4567-e89b-12d3-a456-42661417400z'
      ]) {
        expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.from(bad)))
      }
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.from(uuid.slice(0, 35) + 'é')))
    })
  })

  describe('Json', () => {
    interface Order {
      id: number
      item: string
      tags: string[]
    }
    const serde = Serdes.Json<Order>()

    it('writes JSON.stringify as UTF-8 and reads it back', () => {
      const order: Order = { id: 7, item: 'café', tags: ['a'] }
      const out = serde.serializer().serialize(TOPIC, order)
      expect(out?.toString('utf8')).to.equal('{"id":7,"item":"café","tags":["a"]}')
      expect(hex(out)).to.include('636166c3a9')
      expect(serde.deserializer().deserialize(TOPIC, out)).to.deep.equal(order)
    })

    it('round-trips primitives and arrays', () => {
      const any = Serdes.Json<unknown>()
      for (const value of [0, 'x', true, [1, 'two', null], { nested: { deep: [] } }]) {
        expect(any.deserializer().deserialize(TOPIC, any.serializer().serialize(TOPIC, value))).to.deep.equal(value)
      }
    })

    it('rejects invalid JSON on deserialize, keeping the parse error as cause', () => {
      const err = expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.from('{"id":')))
      expect(err.cause).to.be.instanceOf(SyntaxError)
      expectSerializationError(() => serde.deserializer().deserialize(TOPIC, Buffer.alloc(0)))
    })

    it('rejects values JSON cannot represent, keeping the cause', () => {
      const any = Serdes.Json<unknown>()
      const cyclic: Record<string, unknown> = {}
      cyclic.self = cyclic
      expect(expectSerializationError(() => any.serializer().serialize(TOPIC, cyclic)).cause).to.be.instanceOf(TypeError)
      expect(expectSerializationError(() => any.serializer().serialize(TOPIC, 1n)).cause).to.be.instanceOf(TypeError)
      expectSerializationError(() => any.serializer().serialize(TOPIC, undefined))
      expectSerializationError(() => any.serializer().serialize(TOPIC, () => 1))
    })
  })
})
