import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { WindowKeySchema } from '../../src/state/window-key-schema.js'
import { TimeWindow } from '../../src/state/windowed.js'
import { codeOf } from './helpers/expect-code.js'

interface GoldenCase {
  name: string
  keyHex: string
  timestamp: number
  seqnum: number
  hex: string
}
const golden = JSON.parse(readFileSync(new URL('./fixtures/window-store-key.json', import.meta.url), 'utf8')) as { cases: GoldenCase[] }
const hex = (h: string): Buffer => Buffer.from(h, 'hex')

describe('WindowKeySchema', () => {
  describe('store key golden bytes', () => {
    for (const c of golden.cases) {
      it(`writes ${c.name} as [key][8-byte start][4-byte seqnum]`, () => {
        expect(WindowKeySchema.toStoreKeyBinary(hex(c.keyHex), c.timestamp, c.seqnum).toString('hex')).to.equal(c.hex)
      })

      it(`reads key, start and seqnum back from ${c.name}`, () => {
        const binary = hex(c.hex)
        expect(WindowKeySchema.extractStoreKeyBytes(binary).toString('hex')).to.equal(c.keyHex)
        expect(WindowKeySchema.extractStoreTimestamp(binary)).to.equal(c.timestamp)
        expect(WindowKeySchema.extractStoreSequence(binary)).to.equal(c.seqnum)
      })
    }
  })

  it('fromStoreKey gives the key bytes and the window [start, start + windowSize)', () => {
    const windowed = WindowKeySchema.fromStoreKey(WindowKeySchema.toStoreKeyBinary(Buffer.from('k'), 1000, 7), 500)
    expect(windowed.key.toString()).to.equal('k')
    expect(windowed.window).to.be.instanceOf(TimeWindow)
    expect([windowed.window.start, windowed.window.end]).to.deep.equal([1000, 1500])
    expect(WindowKeySchema.extractStoreWindow(WindowKeySchema.toStoreKeyBinary(Buffer.alloc(0), 3, 0), 2).end).to.equal(5)
  })

  it('the windowed-serde form is [key][8-byte start] and reads back with the window size', () => {
    const binary = WindowKeySchema.toBinary(Buffer.from('k'), 1700000000000)
    expect(binary.toString('hex')).to.equal('6b0000018bcfe56800')
    expect(WindowKeySchema.extractKeyBytes(binary).toString()).to.equal('k')
    expect(WindowKeySchema.extractWindowStart(binary)).to.equal(1700000000000)
    const windowed = WindowKeySchema.fromBinary(binary, 60000)
    expect([windowed.key.toString(), windowed.window.start, windowed.window.end]).to.deep.equal(['k', 1700000000000, 1700000060000])
  })

  it('timeWindowForSize caps the end at Number.MAX_SAFE_INTEGER, as Kafka caps it at Long.MAX_VALUE', () => {
    expect(WindowKeySchema.timeWindowForSize(10, Number.MAX_SAFE_INTEGER).end).to.equal(Number.MAX_SAFE_INTEGER)
    expect(WindowKeySchema.timeWindowForSize(10, 5).end).to.equal(15)
  })

  it('lower and upper fixed-size ranges bracket every store key of a key in [from, to]', () => {
    const key = Buffer.from('k')
    expect(WindowKeySchema.lowerRangeFixedSize(key, -5).toString('hex')).to.equal('6b' + '0000000000000000' + '00000000')
    expect(WindowKeySchema.lowerRangeFixedSize(key, 10).toString('hex')).to.equal('6b' + '000000000000000a' + '00000000')
    expect(WindowKeySchema.upperRangeFixedSize(key, 20).toString('hex')).to.equal('6b' + '0000000000000014' + '7fffffff')
    const inside = WindowKeySchema.toStoreKeyBinary(key, 15, 99)
    expect(Buffer.compare(WindowKeySchema.lowerRangeFixedSize(key, 10), inside)).to.equal(-1)
    expect(Buffer.compare(inside, WindowKeySchema.upperRangeFixedSize(key, 20))).to.equal(-1)
  })

  it('rejects keys too short to hold the suffix with SERIALIZATION', () => {
    expect(codeOf(() => WindowKeySchema.extractStoreKeyBytes(Buffer.alloc(11)))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.extractStoreTimestamp(Buffer.alloc(3)))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.extractStoreSequence(Buffer.alloc(0)))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.fromBinary(Buffer.alloc(7), 10))).to.equal('SERIALIZATION')
    expect(WindowKeySchema.extractStoreKeyBytes(Buffer.alloc(12)).length).to.equal(0)
  })

  it('rejects timestamps that are not safe integers and seqnums outside int32 with SERIALIZATION', () => {
    const key = Buffer.from('k')
    expect(codeOf(() => WindowKeySchema.toStoreKeyBinary(key, 1.5, 0))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.toStoreKeyBinary(key, 2 ** 53, 0))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.toStoreKeyBinary(key, 0, 2 ** 31))).to.equal('SERIALIZATION')
    expect(codeOf(() => WindowKeySchema.toBinary(key, NaN))).to.equal('SERIALIZATION')
    expect(WindowKeySchema.toStoreKeyBinary(key, 0, -1).subarray(9).toString('hex')).to.equal('ffffffff')
  })
})
