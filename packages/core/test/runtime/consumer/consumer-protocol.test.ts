import { expect } from 'chai'
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription
} from '../../../src/runtime/consumer/consumer-protocol.js'

// Bytes as Java's ConsumerProtocol writes them (schema ConsumerProtocolSubscription /
// ConsumerProtocolAssignment): int16 version, then the fields of that version.
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex')

describe('ConsumerProtocol envelopes', () => {
  it('writes a version-0 subscription byte for byte as Java does', () => {
    const bytes = encodeSubscription({ topics: ['a', 'bc'], userData: Buffer.from([1, 2]) })
    expect(bytes.toString('hex')).to.equal(hex('0000 00000002 0001 61 0002 6263 00000002 0102').toString('hex'))
    expect(decodeSubscription(bytes)).to.deep.equal({ topics: ['a', 'bc'], userData: Buffer.from([1, 2]) })
  })

  it('reads a version-3 subscription of a Java member: its owned partitions (generation and rack skipped)', () => {
    const v3 = hex(`0003 00000001 0001 74 00000001 07
      00000001 0001 74 00000002 00000000 00000001
      00000005
      0004 72 61 63 6b`)
    expect(decodeSubscription(v3)).to.deep.equal({
      topics: ['t'],
      userData: Buffer.from([7]),
      ownedPartitions: [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 1 }
      ]
    })
  })

  it('reads a null userData as empty', () => {
    expect(decodeSubscription(hex('0000 00000001 0001 74 ffffffff')).userData.length).to.equal(0)
  })

  it('writes an assignment with sorted partitions per topic and reads it back; empty bytes are an empty assignment', () => {
    const bytes = encodeAssignment({
      partitions: [
        { topic: 't', partition: 2 },
        { topic: 'u', partition: 0 },
        { topic: 't', partition: 0 }
      ],
      userData: Buffer.from('x')
    })
    expect(bytes.toString('hex')).to.equal(
      hex('0000 00000002 0001 74 00000002 00000000 00000002 0001 75 00000001 00000000 00000001 78').toString('hex')
    )
    expect(decodeAssignment(bytes)).to.deep.equal({
      partitions: [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 2 },
        { topic: 'u', partition: 0 }
      ],
      userData: Buffer.from('x')
    })
    expect(decodeAssignment(Buffer.alloc(0))).to.deep.equal({ partitions: [], userData: Buffer.alloc(0) })
    expect(decodeAssignment(encodeAssignment(undefined))).to.deep.equal({ partitions: [], userData: Buffer.alloc(0) })
  })

  it('rejects truncated bytes with a SerializationError naming the envelope', () => {
    expect(() => decodeSubscription(hex('0000 00000003 0001')))
      .to.throw()
      .with.property('code', 'SERIALIZATION')
    expect(() => decodeAssignment(hex('0000 00000001 0001 74 00000009'))).to.throw(/consumer protocol assignment/)
  })
})
