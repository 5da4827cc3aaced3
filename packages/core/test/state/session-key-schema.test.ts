import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { SessionKeySchema } from '../../src/state/session-key-schema.js'
import { SessionWindow, Windowed } from '../../src/state/windowed.js'
import { codeOf } from './helpers/expect-code.js'

interface GoldenCase {
  name: string
  keyHex: string
  start: number
  end: number
  hex: string
}
const golden = JSON.parse(readFileSync(new URL('./fixtures/session-key.json', import.meta.url), 'utf8')) as { cases: GoldenCase[] }
const hex = (h: string): Buffer => Buffer.from(h, 'hex')

describe('SessionKeySchema', () => {
  describe('golden bytes', () => {
    for (const c of golden.cases) {
      it(`writes ${c.name} as [key][8-byte end][8-byte start]`, () => {
        expect(SessionKeySchema.toBinary(hex(c.keyHex), c.start, c.end).toString('hex')).to.equal(c.hex)
        expect(SessionKeySchema.toBinaryWindowed(new Windowed(hex(c.keyHex), new SessionWindow(c.start, c.end))).toString('hex')).to.equal(
          c.hex
        )
      })

      it(`reads key, start and end back from ${c.name}`, () => {
        const binary = hex(c.hex)
        expect(SessionKeySchema.extractKeyBytes(binary).toString('hex')).to.equal(c.keyHex)
        expect(SessionKeySchema.extractStartTimestamp(binary)).to.equal(c.start)
        expect(SessionKeySchema.extractEndTimestamp(binary)).to.equal(c.end)
        const windowed = SessionKeySchema.fromBinary(binary)
        expect(windowed.key.toString('hex')).to.equal(c.keyHex)
        expect(windowed.window).to.be.instanceOf(SessionWindow)
        expect([windowed.window.start, windowed.window.end]).to.deep.equal([c.start, c.end])
      })
    }
  })

  it('fixed-size ranges: lower is (end = max(0, from), start = 0), upper is (end = Long.MAX_VALUE, start = to)', () => {
    const key = Buffer.from('k')
    expect(SessionKeySchema.lowerRangeFixedSize(key, 10).toString('hex')).to.equal('6b' + '000000000000000a' + '0000000000000000')
    expect(SessionKeySchema.lowerRangeFixedSize(key, -3).toString('hex')).to.equal('6b' + '0000000000000000' + '0000000000000000')
    expect(SessionKeySchema.upperRangeFixedSize(key, 20).toString('hex')).to.equal('6b' + '7fffffffffffffff' + '0000000000000014')
  })

  it('rejects keys shorter than 16 bytes with SERIALIZATION, and an end before the start with ILLEGAL_ARGUMENT', () => {
    expect(codeOf(() => SessionKeySchema.fromBinary(Buffer.alloc(15)))).to.equal('SERIALIZATION')
    expect(codeOf(() => SessionKeySchema.extractEndTimestamp(Buffer.alloc(8)))).to.equal('SERIALIZATION')
    expect(codeOf(() => SessionKeySchema.fromBinary(SessionKeySchema.toBinary(Buffer.alloc(0), 10, 5)))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => SessionKeySchema.toBinary(Buffer.alloc(0), 0.5, 1))).to.equal('SERIALIZATION')
  })
})
