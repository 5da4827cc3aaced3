import { expect } from 'chai'
import {
  decodeSubscriptionInfo,
  encodeSubscriptionInfo,
  isFutureSubscription,
  LATEST_OFFSET,
  SUBSCRIPTION_INFO_VERSION,
  UNKNOWN_OFFSET_SUM
} from '../../../src/runtime/assignment/subscription-info.js'
import type { SubscriptionInfoData } from '../../../src/runtime/assignment/subscription-info.js'
import { ByteWriter } from '../../../src/runtime/assignment/byte-writer.js'
import { codeOf } from '../../state/helpers/expect-code.js'
import { hexLines } from './assignment-helpers.js'

const sample: SubscriptionInfoData = {
  processId: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
  userEndpoint: 'h:1',
  taskOffsetSums: new Map([
    ['1_0', LATEST_OFFSET],
    ['2_12', 2 ** 40],
    ['0_1', 5]
  ]),
  errorCode: 0,
  uniqueField: 7
}

/**
 * What Kafka Streams 4.1.1 writes for the sample: `new SubscriptionInfo(11, 11, processId, "h:1",
 * sums, (byte) 7, 0, Map.of()).encode()` (tests/java-streams WireFormats encode-subscription).
 */
const JAVA_BYTES = hexLines(`
  0000000b 0000000b                          # version 11, latest supported 11
  0f1e2d3c4b5a69788796a5b4c3d2e1f0           # process id
  00000003 683a31                            # user endpoint "h:1"
  00000003                                   # 3 task offset sums
    00000000 00000001 0000000000000005 ffff  # 0_1 -> 5, no named topology
    00000001 00000000 fffffffffffffffe ffff  # 1_0 -> LATEST_OFFSET (-2)
    00000002 0000000c 0000010000000000 ffff  # 2_12 -> 2^40
  07                                         # unique field
  00000000                                   # error code
  00000000                                   # no client tags
`)

describe("SubscriptionInfo: Kafka Streams' encoding", () => {
  it('writes the bytes Kafka Streams 4.1.1 writes (version 11)', () => {
    expect(encodeSubscriptionInfo(sample).toString('hex')).to.equal(JAVA_BYTES.toString('hex'))
  })

  it("reads Kafka Streams' bytes: previous active tasks are those at LATEST_OFFSET", () => {
    const decoded = decodeSubscriptionInfo(JAVA_BYTES)
    expect(decoded).to.deep.include({
      version: SUBSCRIPTION_INFO_VERSION,
      latestSupportedVersion: 11,
      processId: sample.processId,
      userEndpoint: 'h:1',
      activeTasks: ['1_0'],
      standbyTasks: ['0_1', '2_12'],
      errorCode: 0,
      uniqueField: 7
    })
    expect([...decoded.taskOffsetSums]).to.deep.equal([
      ['0_1', 5],
      ['1_0', LATEST_OFFSET],
      ['2_12', 2 ** 40]
    ])
    expect(isFutureSubscription(decoded)).to.equal(false)
  })

  it('round-trips client tags, error codes, a negative unique field and an empty endpoint', () => {
    const decoded = decodeSubscriptionInfo(
      encodeSubscriptionInfo({
        ...sample,
        userEndpoint: '',
        clientTags: new Map([
          ['zone', 'eu-1'],
          ['rack', 'r7']
        ]),
        errorCode: 4,
        uniqueField: 200
      })
    )
    expect([...decoded.clientTags]).to.deep.equal([
      ['zone', 'eu-1'],
      ['rack', 'r7']
    ])
    expect(decoded.errorCode).to.equal(4)
    expect(decoded.uniqueField).to.equal(200 - 256)
    expect(decoded.userEndpoint).to.equal('')
  })

  it('reads a future version as version probing: only its version and latest supported version', () => {
    const future = new ByteWriter().int32(12).int32(13).bytes(Buffer.from('whatever comes next')).toBuffer()
    const decoded = decodeSubscriptionInfo(future)
    expect(isFutureSubscription(decoded)).to.equal(true)
    expect(decoded.version).to.equal(12)
    expect(decoded.latestSupportedVersion).to.equal(13)
  })

  it('reads older versions: 6 (task lists), 9 (nested offset sums)', () => {
    const pidBytes = Buffer.from(sample.processId.replaceAll('-', ''), 'hex')
    const v6 = new ByteWriter()
      .int32(6)
      .int32(6)
      .bytes(pidBytes)
      .int32(1)
      .int32(0)
      .int32(3) // prevTasks: 0_3
      .int32(1)
      .int32(1)
      .int32(2) // standbyTasks: 1_2
      .int32(3)
      .bytes(Buffer.from('h:1'))
      .toBuffer()
    const six = decodeSubscriptionInfo(v6)
    expect([...six.taskOffsetSums]).to.deep.equal([
      ['0_3', LATEST_OFFSET],
      ['1_2', UNKNOWN_OFFSET_SUM]
    ])
    expect(six.userEndpoint).to.equal('h:1')
    const v9 = new ByteWriter()
      .int32(9)
      .int32(9)
      .bytes(pidBytes)
      .int32(0)
      .int32(1) // one subtopology
      .int32(2)
      .int32(2) // two partitions
      .int32(0)
      .int64(10)
      .int32(5)
      .int64(-4) // an unknown per-partition sum
      .int8(1)
      .int32(0)
      .toBuffer()
    expect([...decodeSubscriptionInfo(v9).taskOffsetSums]).to.deep.equal([
      ['2_0', 10],
      ['2_5', UNKNOWN_OFFSET_SUM]
    ])
  })

  it('rejects invalid input when encoding', () => {
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, processId: 'not-a-uuid' }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, taskOffsetSums: new Map([['0_0', -1]]) }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, taskOffsetSums: new Map([['0_0', 1.5]]) }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, taskOffsetSums: new Map([['x', 1]]) }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, errorCode: -1 }))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('rejects truncated bytes, a version below 1, counts beyond the bytes left and named topologies', () => {
    expect(codeOf(() => decodeSubscriptionInfo(JAVA_BYTES.subarray(0, JAVA_BYTES.length - 1)))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeSubscriptionInfo(Buffer.alloc(0)))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeSubscriptionInfo(Buffer.from('00000000', 'hex')))).to.equal('SERIALIZATION')
    const countAt = 4 + 4 + 16 + 4 + 3
    const huge = Buffer.from(JAVA_BYTES)
    huge.writeUInt32BE(0x7fffffff, countAt)
    expect(codeOf(() => decodeSubscriptionInfo(huge))).to.equal('SERIALIZATION')
    const named = Buffer.from(JAVA_BYTES)
    named.writeInt16BE(0, countAt + 4 + 16) // the first task's named topology: "" instead of null
    expect(codeOf(() => decodeSubscriptionInfo(named))).to.equal('SERIALIZATION')
  })
})
