import { expect } from 'chai'
import { decodeCommitMetadata, encodePartitionTime } from '../../src/runtime/partition-time-metadata.js'

describe('committed offset metadata (partition time + KIP-825 processor metadata)', () => {
  it('encodes the partition time alone with magic 1 (base64 of 9 bytes)', () => {
    const encoded = encodePartitionTime(1234)
    const bytes = Buffer.from(encoded, 'base64')
    expect([bytes.length, bytes[0], Number(bytes.readBigInt64BE(1))]).to.deep.equal([9, 1, 1234])
    expect(decodeCommitMetadata(encoded)).to.deep.equal({ partitionTime: 1234, processorMetadata: new Map() })
    expect(decodeCommitMetadata(encoded).partitionTime).to.equal(1234)
  })

  it('round-trips processor metadata with magic 2: count, then key length, UTF-8 key, int64 value per entry', () => {
    const metadata = new Map([
      ['KSTREAM-AGGREGATE-STATE-STORE-0000000001', 30000],
      ['zählen', -1],
      ['', 2 ** 40]
    ])
    const encoded = encodePartitionTime(99, metadata)
    const bytes = Buffer.from(encoded, 'base64')
    expect([bytes[0], Number(bytes.readBigInt64BE(1)), bytes.readInt32BE(9), bytes.readInt32BE(13)]).to.deep.equal([2, 99, 3, 40])
    expect(decodeCommitMetadata(encoded)).to.deep.equal({ partitionTime: 99, processorMetadata: metadata })
  })

  it('reads nothing from absent, foreign or truncated metadata', () => {
    expect(decodeCommitMetadata(undefined).partitionTime).to.equal(undefined)
    expect(decodeCommitMetadata('').processorMetadata.size).to.equal(0)
    expect(decodeCommitMetadata('not metadata').partitionTime).to.equal(undefined)
    const truncated = Buffer.from(encodePartitionTime(5, new Map([['k', 1]])), 'base64')
      .subarray(0, 20)
      .toString('base64')
    expect(decodeCommitMetadata(truncated)).to.deep.equal({ partitionTime: 5, processorMetadata: new Map() })
    expect(decodeCommitMetadata(encodePartitionTime(-1)).partitionTime).to.equal(undefined)
  })
})
