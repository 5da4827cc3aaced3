import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { StreamsError } from '../../src/errors.js'
import { ValueAndTimestamp } from '../../src/state/key-value-store.js'
import { ValueAndTimestampSerde } from '../../src/state/value-and-timestamp-serde.js'
import type { Serde } from '../../src/serialization/serde.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

interface GoldenCase {
  name: string
  timestamp: number
  string?: string
  int?: number
  hex: string
}
const golden = JSON.parse(readFileSync(new URL('./fixtures/value-and-timestamp.json', import.meta.url), 'utf8')) as { cases: GoldenCase[] }

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return err instanceof StreamsError ? err.code : `not a StreamsError: ${String(err)}`
  }
  return undefined
}

describe('ValueAndTimestampSerde', () => {
  const strings = new ValueAndTimestampSerde(stringSerde)
  const ints = new ValueAndTimestampSerde(intSerde)

  describe('golden bytes', () => {
    for (const c of golden.cases) {
      const serde = (c.int !== undefined ? ints : strings) as ValueAndTimestampSerde<unknown>
      const value = c.int ?? c.string

      it(`serializes ${c.name} to the golden bytes`, () => {
        const bytes = serde.serializer().serialize('topic', ValueAndTimestamp.make(value, c.timestamp))
        expect(bytes?.toString('hex')).to.equal(c.hex)
      })

      it(`deserializes the golden bytes of ${c.name}`, () => {
        const vt = serde.deserializer().deserialize('topic', Buffer.from(c.hex, 'hex'))
        expect(vt?.value).to.equal(value)
        expect(vt?.timestamp).to.equal(c.timestamp)
      })
    }
  })

  it('keeps null as null both ways', () => {
    expect(strings.serializer().serialize('t', null)).to.equal(null)
    expect(strings.deserializer().deserialize('t', null)).to.equal(null)
  })

  it('serializes to null when the value serializer returns null for a non-null value', () => {
    const nullish: Serde<string> = {
      serializer: () => ({ serialize: () => null }),
      deserializer: () => stringSerde.deserializer()
    }
    expect(new ValueAndTimestampSerde(nullish).serializer().serialize('t', ValueAndTimestamp.make('v', 1))).to.equal(null)
  })

  it('deserializes to null when the value deserializer returns null', () => {
    const nullish: Serde<string> = {
      serializer: () => stringSerde.serializer(),
      deserializer: () => ({ deserialize: () => null })
    }
    expect(new ValueAndTimestampSerde(nullish).deserializer().deserialize('t', Buffer.from('0000000000000001ff', 'hex'))).to.equal(null)
  })

  it('passes the topic to the value serde', () => {
    const topics: string[] = []
    const spy: Serde<string> = {
      serializer: () => ({
        serialize: (topic, data) => {
          topics.push(topic)
          return stringSerde.serializer().serialize(topic, data)
        }
      }),
      deserializer: () => ({
        deserialize: (topic, data) => {
          topics.push(topic)
          return stringSerde.deserializer().deserialize(topic, data)
        }
      })
    }
    const serde = new ValueAndTimestampSerde(spy)
    const bytes = serde.serializer().serialize('app-store-changelog', ValueAndTimestamp.make('v', 3))
    serde.deserializer().deserialize('app-store-changelog', bytes)
    expect(topics).to.deep.equal(['app-store-changelog', 'app-store-changelog'])
  })

  it('rejects fewer than 8 bytes with SERIALIZATION', () => {
    expect(codeOf(() => strings.deserializer().deserialize('t', Buffer.from('00000001', 'hex')))).to.equal('SERIALIZATION')
  })

  it('rejects a timestamp that is not a safe integer with SERIALIZATION', () => {
    expect(codeOf(() => strings.serializer().serialize('t', ValueAndTimestamp.make('v', 2 ** 53)))).to.equal('SERIALIZATION')
    expect(codeOf(() => strings.serializer().serialize('t', ValueAndTimestamp.make('v', 1.5)))).to.equal('SERIALIZATION')
  })
})
