/** The window and session key schema adapters of the segmented store and the key-range upper bound. */
import { expect } from 'chai'
import { keyRangeUpperBound, sessionSegmentedKeySchema, windowSegmentedKeySchema } from '../src/segmented-key-schema.js'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const long = (n: number): string => n.toString(16).padStart(16, '0')

describe('segmented key schemas', () => {
  it('keyRangeUpperBound covers keys that are prefixes of the bound, whatever their suffix', () => {
    const suffix = windowSegmentedKeySchema.maxSuffix
    // 'a' followed by zero bytes: the shorter key 'a' with a large timestamp sorts after 'a\0\0' + suffix
    const keyTo = hex('610000')
    const bound = keyRangeUpperBound(keyTo, suffix)
    const shorter = Buffer.concat([hex('61'), hex(long(Number.MAX_SAFE_INTEGER)), hex('7fffffff')])
    expect(Buffer.compare(shorter, bound)).to.be.at.most(0)
    expect(Buffer.compare(Buffer.concat([keyTo, suffix]), bound)).to.be.at.most(0)
    // usual keys: the bound is the key itself plus the greatest suffix
    expect(keyRangeUpperBound(hex('62'), suffix).equals(Buffer.concat([hex('62'), suffix]))).to.equal(true)
  })

  it('window keys are segmented by window start and match on key and start', () => {
    const key = Buffer.concat([hex('6b'), hex(long(1500)), hex('00000003')])
    expect(windowSegmentedKeySchema.segmentTimestamp(key)).to.equal(1500)
    expect(windowSegmentedKeySchema.matches(key, hex('6b'), hex('6b'), 1500, 1500)).to.equal(true)
    expect(windowSegmentedKeySchema.matches(key, hex('6b'), hex('6b'), 1501, 2000)).to.equal(false)
    expect(windowSegmentedKeySchema.matches(key, hex('6c'), undefined, 0, 2000)).to.equal(false)
    expect(windowSegmentedKeySchema.searchTimes(10, 20)).to.deep.equal([10, 20])
  })

  it('session keys are segmented by end and match sessions ending at or after from and starting at or before to', () => {
    const key = Buffer.concat([hex('6b'), hex(long(2000)), hex(long(1000))])
    expect(sessionSegmentedKeySchema.segmentTimestamp(key)).to.equal(2000)
    expect(sessionSegmentedKeySchema.matches(key, undefined, undefined, 2000, 1000)).to.equal(true)
    expect(sessionSegmentedKeySchema.matches(key, undefined, undefined, 2001, 5000)).to.equal(false)
    expect(sessionSegmentedKeySchema.matches(key, undefined, undefined, 0, 999)).to.equal(false)
    expect(sessionSegmentedKeySchema.searchTimes(10, 20)).to.deep.equal([10, Number.MAX_SAFE_INTEGER])
  })
})
