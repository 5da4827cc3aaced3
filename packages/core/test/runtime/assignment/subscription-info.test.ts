import { expect } from 'chai'
import {
  decodeSubscriptionInfo,
  encodeSubscriptionInfo,
  LATEST_OFFSET,
  SUBSCRIPTION_INFO_VERSION,
  UNKNOWN_OFFSET_SUM
} from '../../../src/runtime/assignment/subscription-info.js'
import type { SubscriptionInfoData } from '../../../src/runtime/assignment/subscription-info.js'
import { codeOf } from '../../state/helpers/expect-code.js'
import { hexLines } from './assignment-helpers.js'

const sample: SubscriptionInfoData = {
  processId: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
  userEndpoint: 'h:1',
  taskOffsetSums: new Map([
    ['1_0', LATEST_OFFSET],
    ['0_1', 5]
  ]),
  activeTasks: ['1_0'],
  standbyTasks: ['0_1'],
  errorCode: 0,
  uniqueField: 7
}

describe('SubscriptionInfo encoding', () => {
  it('matches the golden bytes of version 1', () => {
    const golden = hexLines(`
      0001 0001                              # version 1, latest supported 1
      0f1e2d3c4b5a69788796a5b4c3d2e1f0       # process id
      0003 683a31                            # endpoint "h:1"
      00 07                                  # error code, unique field
      00000002                               # 2 offset sums, in task order
        00000000 00000001 0000000000000005   # 0_1 -> 5
        00000001 00000000 fffffffffffffffe   # 1_0 -> LATEST_OFFSET (-2)
      00000001 00000001 00000000             # active: 1_0
      00000001 00000000 00000001             # standby: 0_1
    `)
    expect(encodeSubscriptionInfo(sample).toString('hex')).to.equal(golden.toString('hex'))
  })

  it('round-trips every field', () => {
    const decoded = decodeSubscriptionInfo(
      encodeSubscriptionInfo({
        ...sample,
        taskOffsetSums: new Map([
          ['3_12', UNKNOWN_OFFSET_SUM],
          ['0_0', 2 ** 40],
          ['2_1', LATEST_OFFSET]
        ]),
        errorCode: 4,
        uniqueField: 255
      })
    )
    expect(decoded.version).to.equal(SUBSCRIPTION_INFO_VERSION)
    expect(decoded.latestSupportedVersion).to.equal(1)
    expect(decoded.processId).to.equal(sample.processId)
    expect(decoded.userEndpoint).to.equal('h:1')
    expect([...decoded.taskOffsetSums]).to.deep.equal([
      ['0_0', 2 ** 40],
      ['2_1', LATEST_OFFSET],
      ['3_12', UNKNOWN_OFFSET_SUM]
    ])
    expect(decoded.activeTasks).to.deep.equal(['1_0'])
    expect(decoded.standbyTasks).to.deep.equal(['0_1'])
    expect(decoded.errorCode).to.equal(4)
    expect(decoded.uniqueField).to.equal(255)
  })

  it('round-trips an empty endpoint and empty task lists; upper-case process ids come back lower-case', () => {
    const decoded = decodeSubscriptionInfo(
      encodeSubscriptionInfo({
        ...sample,
        processId: sample.processId.toUpperCase(),
        userEndpoint: '',
        taskOffsetSums: new Map(),
        activeTasks: [],
        standbyTasks: []
      })
    )
    expect(decoded).to.deep.include({ processId: sample.processId, userEndpoint: '', activeTasks: [], standbyTasks: [] })
    expect(decoded.taskOffsetSums.size).to.equal(0)
  })

  it('writes equal content as equal bytes whatever the input order', () => {
    const a = encodeSubscriptionInfo({
      ...sample,
      activeTasks: ['1_0', '0_2', '0_10'],
      taskOffsetSums: new Map([
        ['0_2', 1],
        ['0_10', 2]
      ])
    })
    const b = encodeSubscriptionInfo({
      ...sample,
      activeTasks: ['0_10', '1_0', '0_2', '0_2'],
      taskOffsetSums: new Map([
        ['0_10', 2],
        ['0_2', 1]
      ])
    })
    expect(a.equals(b)).to.equal(true)
    expect(decodeSubscriptionInfo(a).activeTasks).to.deep.equal(['0_2', '0_10', '1_0'])
  })

  it('rejects invalid input when encoding', () => {
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, processId: 'not-a-uuid' }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, taskOffsetSums: new Map([['0_0', -1]]) }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, taskOffsetSums: new Map([['0_0', 1.5]]) }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, activeTasks: ['x'] }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeSubscriptionInfo({ ...sample, errorCode: 256 }))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('rejects unknown versions, truncated and trailing bytes when decoding', () => {
    const bytes = encodeSubscriptionInfo(sample)
    const future = Buffer.from(bytes)
    future.writeUInt16BE(2, 0)
    expect(codeOf(() => decodeSubscriptionInfo(future))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeSubscriptionInfo(bytes.subarray(0, bytes.length - 1)))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeSubscriptionInfo(Buffer.concat([bytes, Buffer.from([0])])))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeSubscriptionInfo(Buffer.alloc(0)))).to.equal('SERIALIZATION')
  })

  it('rejects a count larger than the bytes left and a negative offset sum other than the sentinels', () => {
    const bytes = Buffer.from(encodeSubscriptionInfo(sample))
    const countAt = 2 + 2 + 16 + 2 + 3 + 2
    const huge = Buffer.from(bytes)
    huge.writeUInt32BE(0x7fffffff, countAt)
    expect(codeOf(() => decodeSubscriptionInfo(huge))).to.equal('SERIALIZATION')
    const negative = Buffer.from(bytes)
    negative.writeBigInt64BE(-7n, countAt + 4 + 8)
    expect(codeOf(() => decodeSubscriptionInfo(negative))).to.equal('SERIALIZATION')
  })
})
