import { expect } from 'chai'
import { StreamsError } from '../../src/errors.js'
import type { Deserializer, Serde, Serializer } from '../../src/serialization/serde.js'
import { toDeserializer, toSerializer } from '../../src/serialization/serde.js'
import { Serdes } from '../../src/serialization/serdes.js'
import { TOPIC, bytes } from './serde-test-helpers.js'

const factories: Record<string, () => Serde<any>> = {
  String: Serdes.String,
  Integer: Serdes.Integer,
  Long: Serdes.Long,
  BigInt64: Serdes.BigInt64,
  Short: Serdes.Short,
  Float: Serdes.Float,
  Double: Serdes.Double,
  Boolean: Serdes.Boolean,
  ByteArray: Serdes.ByteArray,
  Buffer: Serdes.Buffer,
  Void: Serdes.Void,
  UUID: Serdes.UUID,
  Json: Serdes.Json
}

describe('Serdes', () => {
  describe('null', () => {
    for (const [name, factory] of Object.entries(factories)) {
      it(`${name} keeps null as null in both directions`, () => {
        const serde = factory()
        expect(serde.serializer().serialize(TOPIC, null)).to.equal(null)
        expect(serde.deserializer().deserialize(TOPIC, null)).to.equal(null)
      })
    }
  })

  it('returns a new Serde per call, each handing out the same serializer and deserializer', () => {
    const a = Serdes.Integer()
    const b = Serdes.Integer()
    expect(a).to.not.equal(b)
    expect(a.serializer()).to.equal(a.serializer())
    expect(a.deserializer()).to.equal(a.deserializer())
  })

  it('works with toSerializer / toDeserializer', () => {
    const serde = Serdes.Short()
    expect(toSerializer(serde).serialize(TOPIC, 258)).to.deep.equal(bytes('0102'))
    expect(toDeserializer(serde).deserialize(TOPIC, bytes('0102'))).to.equal(258)
  })

  describe('serdeFrom', () => {
    const upper: Serializer<string> = {
      serialize: (_topic, data) => (data === null ? null : Buffer.from(data.toUpperCase()))
    }
    const lower: Deserializer<string> = {
      deserialize: (_topic, data) => (data === null ? null : data.toString().toLowerCase())
    }

    it('builds a Serde from a serializer and a deserializer', () => {
      const serde = Serdes.serdeFrom(upper, lower)
      expect(serde.serializer()).to.equal(upper)
      expect(serde.deserializer()).to.equal(lower)
      expect(serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, 'MiXed'))).to.equal('mixed')
    })

    it('rejects a missing serializer or deserializer with ILLEGAL_ARGUMENT', () => {
      for (const make of [
        () => Serdes.serdeFrom(null as unknown as Serializer<string>, lower),
        () => Serdes.serdeFrom(upper, undefined as unknown as Deserializer<string>)
      ]) {
        let caught: unknown
        try {
          make()
        } catch (err) {
          caught = err
        }
        expect(caught).to.be.instanceOf(StreamsError)
        expect((caught as StreamsError).code).to.equal('ILLEGAL_ARGUMENT')
      }
    })
  })
})
