import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { Headers } from '../../src/record.js'
import type { Serde } from '../../src/serialization/serde.js'
import { Serdes } from '../../src/serialization/serdes.js'
import { WindowedSerdes } from '../../src/serialization/windowed-serdes.js'
import { SessionWindow, TimeWindow, Windowed } from '../../src/state/windowed.js'
import { codeOf } from '../state/helpers/expect-code.js'

interface TimeCase {
  name: string
  key: string
  start: number
  windowSize: number
  end: number
  hex: string
}
interface SessionCase {
  name: string
  key: string
  start: number
  end: number
  hex: string
}
const golden = JSON.parse(readFileSync(new URL('./fixtures/windowed-serdes.json', import.meta.url), 'utf8')) as {
  timeWindowed: TimeCase[]
  sessionWindowed: SessionCase[]
}

describe('WindowedSerdes', () => {
  describe('timeWindowedSerdeFrom', () => {
    for (const c of golden.timeWindowed) {
      const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), c.windowSize)
      it(`serializes ${c.name} as [key][8-byte start]`, () => {
        const bytes = serde.serializer().serialize('t', new Windowed(c.key, new TimeWindow(c.start, c.start + c.windowSize)))
        expect(bytes?.toString('hex')).to.equal(c.hex)
      })

      it(`deserializes ${c.name} with end = start + windowSize`, () => {
        const windowed = serde.deserializer().deserialize('t', Buffer.from(c.hex, 'hex'))
        expect(windowed?.key).to.equal(c.key)
        expect(windowed?.window).to.be.instanceOf(TimeWindow)
        expect([windowed?.window.start, windowed?.window.end]).to.deep.equal([c.start, c.end])
      })
    }

    it('the window end is not serialized: it comes from the deserializer window size', () => {
      const bytes = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 10)
        .serializer()
        .serialize('t', new Windowed('k', new TimeWindow(0, 999)))
      expect(WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 10).deserializer().deserialize('t', bytes)?.window.end).to.equal(10)
    })

    it('rejects a window size that is not a positive integer, and a non-serde inner, with ILLEGAL_ARGUMENT', () => {
      for (const size of [0, -1, 1.5, NaN]) {
        expect(
          codeOf(() => WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), size)),
          String(size)
        ).to.equal('ILLEGAL_ARGUMENT')
      }
      expect(codeOf(() => WindowedSerdes.timeWindowedSerdeFrom({} as Serde<string>, 10))).to.equal('ILLEGAL_ARGUMENT')
    })
  })

  describe('sessionWindowedSerdeFrom', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String())
    for (const c of golden.sessionWindowed) {
      it(`serializes ${c.name} as [key][8-byte end][8-byte start]`, () => {
        expect(
          serde
            .serializer()
            .serialize('t', new Windowed(c.key, new SessionWindow(c.start, c.end)))
            ?.toString('hex')
        ).to.equal(c.hex)
      })

      it(`deserializes ${c.name}`, () => {
        const windowed = serde.deserializer().deserialize('t', Buffer.from(c.hex, 'hex'))
        expect(windowed?.key).to.equal(c.key)
        expect(windowed?.window).to.be.instanceOf(SessionWindow)
        expect([windowed?.window.start, windowed?.window.end]).to.deep.equal([c.start, c.end])
      })
    }

    it('rejects a non-serde inner with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => WindowedSerdes.sessionWindowedSerdeFrom(null as unknown as Serde<string>))).to.equal('ILLEGAL_ARGUMENT')
    })
  })

  for (const [kind, serde] of [
    ['time-windowed', WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 10)],
    ['session-windowed', WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String())]
  ] as const) {
    describe(`${kind}: nulls, errors and the inner serde`, () => {
      it('a null windowed key is null; null and empty bytes deserialize to null', () => {
        expect(serde.serializer().serialize('t', null)).to.equal(null)
        expect(serde.deserializer().deserialize('t', null)).to.equal(null)
        expect(serde.deserializer().deserialize('t', Buffer.alloc(0))).to.equal(null)
      })

      it('rejects bytes too short for the suffix with SERIALIZATION', () => {
        expect(codeOf(() => serde.deserializer().deserialize('t', Buffer.from('0102', 'hex')))).to.equal('SERIALIZATION')
      })

      it('rejects a key the inner serializer turns into null with SERIALIZATION', () => {
        const nullKeys: Serde<string> = {
          serializer: () => ({ serialize: () => null }),
          deserializer: () => Serdes.String().deserializer()
        }
        const windowed =
          kind === 'time-windowed' ? WindowedSerdes.timeWindowedSerdeFrom(nullKeys, 10) : WindowedSerdes.sessionWindowedSerdeFrom(nullKeys)
        const window = kind === 'time-windowed' ? new TimeWindow(0, 10) : new SessionWindow(0, 10)
        expect(codeOf(() => windowed.serializer().serialize('t', new Windowed('k', window)))).to.equal('SERIALIZATION')
      })

      it('passes the topic and headers to the inner serde', () => {
        const seen: unknown[] = []
        const spy: Serde<string> = {
          serializer: () => ({
            serialize: (topic, data, headers) => {
              seen.push(topic, headers)
              return Buffer.from(data ?? '')
            }
          }),
          deserializer: () => ({
            deserialize: (topic, data, headers) => {
              seen.push(topic, headers)
              return data?.toString() ?? null
            }
          })
        }
        const windowed =
          kind === 'time-windowed' ? WindowedSerdes.timeWindowedSerdeFrom(spy, 10) : WindowedSerdes.sessionWindowedSerdeFrom(spy)
        const headers = new Headers()
        const window = kind === 'time-windowed' ? new TimeWindow(0, 10) : new SessionWindow(0, 10)
        const bytes = windowed.serializer().serialize('topic-a', new Windowed('k', window), headers)
        windowed.deserializer().deserialize('topic-b', bytes, headers)
        expect(seen).to.deep.equal(['topic-a', headers, 'topic-b', headers])
      })
    })
  }
})
