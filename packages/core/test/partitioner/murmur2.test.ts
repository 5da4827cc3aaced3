import { expect } from 'chai'
import { StreamsError } from '../../src/errors.js'
import { murmur2, partitionFor } from '../../src/partitioner/murmur2.js'

// Java: org.apache.kafka.common.utils.UtilsTest#testMurmur2.
const javaVectors: Array<[string, number]> = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107]
]

// Extra vectors from an independent port using unsigned arithmetic (which matches the six Java
// vectors): empty input, and bytes >= 0x80, which Java reads as negative and masks with 0xff.
const byteVectors: Array<[string, number]> = [
  ['', 275646681],
  ['ff', -311467685],
  ['8081fe', 796990047],
  ['fffefdfcfbfaf9', -166236347],
  ['68c3a96c6c6f', 614509002]
]

describe('murmur2', () => {
  for (const [text, expected] of javaVectors) {
    it(`matches Java Utils.murmur2 for "${text}"`, () => {
      expect(murmur2(Buffer.from(text, 'utf8'))).to.equal(expected)
    })
  }

  for (const [hexText, expected] of byteVectors) {
    it(`hashes bytes [${hexText}] to ${expected}`, () => {
      expect(murmur2(Buffer.from(hexText, 'hex'))).to.equal(expected)
    })
  }

  it('reads only the view it is given, not the rest of the backing buffer', () => {
    const backing = Buffer.from('xxfoobaryy', 'utf8')
    expect(murmur2(backing.subarray(2, 8))).to.equal(-790332482)
    expect(murmur2(new Uint8Array(backing.buffer, backing.byteOffset + 2, 6))).to.equal(-790332482)
  })

  it('returns a signed 32-bit integer', () => {
    for (let n = 0; n < 64; n++) {
      const h = murmur2(Buffer.alloc(n, n * 37))
      expect(h | 0).to.equal(h)
    }
  })
})

describe('partitionFor', () => {
  // (murmur2 & 0x7fffffff) % n, computed independently for the Java vectors.
  const expected: Array<[string, number, number, number]> = [
    ['21', 0, 0, 40],
    ['foobar', 0, 6, 66],
    ['a-little-bit-long-string', 2, 8, 12],
    ['a-little-bit-longer-string', 2, 11, 19],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', 2, 5, 77],
    ['abc', 0, 3, 7]
  ]
  for (const [key, p3, p12, p100] of expected) {
    it(`places "${key}" like Java's default partitioner`, () => {
      const keyBytes = Buffer.from(key, 'utf8')
      expect(partitionFor(keyBytes, 3)).to.equal(p3)
      expect(partitionFor(keyBytes, 12)).to.equal(p12)
      expect(partitionFor(keyBytes, 100)).to.equal(p100)
    })
  }

  it('always returns a partition in [0, numPartitions)', () => {
    for (let i = 0; i < 500; i++) {
      const p = partitionFor(Buffer.from(`key-${i}`), 7)
      expect(p).to.be.at.least(0).and.below(7)
      expect(Number.isInteger(p)).to.equal(true)
    }
  })

  it('rejects a partition count that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, NaN]) {
      let caught: unknown
      try {
        partitionFor(Buffer.from('k'), bad)
      } catch (err) {
        caught = err
      }
      expect(caught).to.be.instanceOf(StreamsError)
      expect((caught as StreamsError).code).to.equal('ILLEGAL_ARGUMENT')
    }
  })
})
