import { expect } from 'chai'
import { AssignorError } from '../../../src/runtime/assignment/assignor-error.js'
import {
  ASSIGNMENT_INFO_VERSION,
  decodeAssignment,
  decodeAssignmentInfo,
  encodeAssignmentInfo,
  errorAssignmentInfo
} from '../../../src/runtime/assignment/assignment-info.js'
import type { AssignmentInfoData } from '../../../src/runtime/assignment/assignment-info.js'
import { codeOf } from '../../state/helpers/expect-code.js'
import { hexLines } from './assignment-helpers.js'

const sample: AssignmentInfoData = {
  errorCode: AssignorError.NONE,
  errorMessage: '',
  nextRebalanceMs: 1000,
  activeTasks: new Map([
    [
      '0_1',
      [
        { topic: 'b', partition: 1 },
        { topic: 'a', partition: 1 }
      ]
    ]
  ]),
  standbyTasks: new Map([['1_1', [{ topic: 'c', partition: 1 }]]]),
  partitionsByHost: new Map([
    [
      'h:1',
      [
        { topic: 'a', partition: 1 },
        { topic: 'b', partition: 1 }
      ]
    ]
  ]),
  standbyPartitionsByHost: new Map([['h:1', [{ topic: 'a', partition: 0 }]]])
}

describe('AssignmentInfo encoding', () => {
  it('matches the golden bytes of version 1', () => {
    const golden = hexLines(`
      0001                          # version 1
      00                            # error code NONE
      00000000000003e8              # next rebalance at 1000
      00000000                      # error message ""
      00000003 0001 61 0001 62 0001 63                # topic dictionary: a, b, c
      00000001                      # 1 active task
        00000000 00000001           # 0_1
        00000002 00000000 00000001 00000001 00000001  # a-1, b-1
      00000001                      # 1 standby task
        00000001 00000001           # 1_1
        00000001 00000002 00000001  # c-1
      00000001 0003 683a31          # partitions by host: h:1
        00000002 00000000 00000001 00000001 00000001  # a-1, b-1
      00000001 0003 683a31          # standby partitions by host: h:1
        00000001 00000000 00000000  # a-0
    `)
    expect(encodeAssignmentInfo(sample).toString('hex')).to.equal(golden.toString('hex'))
  })

  it('round-trips every field, with partitions sorted by topic and partition', () => {
    const decoded = decodeAssignmentInfo(encodeAssignmentInfo(sample))
    expect(decoded.version).to.equal(ASSIGNMENT_INFO_VERSION)
    expect(decoded.errorCode).to.equal(0)
    expect(decoded.errorMessage).to.equal('')
    expect(decoded.nextRebalanceMs).to.equal(1000)
    expect([...decoded.activeTasks]).to.deep.equal([
      [
        '0_1',
        [
          { topic: 'a', partition: 1 },
          { topic: 'b', partition: 1 }
        ]
      ]
    ])
    expect([...decoded.standbyTasks]).to.deep.equal([['1_1', [{ topic: 'c', partition: 1 }]]])
    expect([...decoded.partitionsByHost]).to.deep.equal([
      [
        'h:1',
        [
          { topic: 'a', partition: 1 },
          { topic: 'b', partition: 1 }
        ]
      ]
    ])
    expect([...decoded.standbyPartitionsByHost]).to.deep.equal([['h:1', [{ topic: 'a', partition: 0 }]]])
  })

  it('encodes "no follow-up rebalance" as -1 and decodes it as undefined', () => {
    const bytes = encodeAssignmentInfo({ ...sample, nextRebalanceMs: undefined })
    expect(bytes.readBigInt64BE(3)).to.equal(-1n)
    expect(decodeAssignmentInfo(bytes).nextRebalanceMs).to.equal(undefined)
  })

  it('carries an error code and message with no tasks', () => {
    const info = decodeAssignment({
      partitions: [],
      userData: encodeAssignmentInfo(errorAssignmentInfo(AssignorError.ASSIGNMENT_ERROR, 'Topics not co-partitioned: [{a=1, b=2}] ✗'))
    })
    expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
    expect(info.errorMessage).to.equal('Topics not co-partitioned: [{a=1, b=2}] ✗')
    expect(info.activeTasks.size + info.standbyTasks.size + info.partitionsByHost.size + info.standbyPartitionsByHost.size).to.equal(0)
  })

  it('round-trips many tasks and hosts sharing one topic dictionary', () => {
    const activeTasks = new Map<string, Array<{ topic: string; partition: number }>>()
    for (let p = 0; p < 50; p++) activeTasks.set(`${p % 3}_${p}`, [{ topic: `topic-${p % 5}`, partition: p }])
    const hosts = new Map([
      ['a:1', [{ topic: 'topic-1', partition: 3 }]],
      ['b:2', [{ topic: 'topic-4', partition: 9 }]]
    ])
    const decoded = decodeAssignmentInfo(encodeAssignmentInfo({ ...sample, activeTasks, partitionsByHost: hosts }))
    expect(new Map([...decoded.activeTasks].sort())).to.deep.equal(new Map([...activeTasks].sort()))
    expect(decoded.partitionsByHost).to.deep.equal(hosts)
  })

  it('rejects unknown versions, unknown error codes, bad topic indexes and truncated bytes', () => {
    const bytes = encodeAssignmentInfo(sample)
    const future = Buffer.from(bytes)
    future.writeUInt16BE(9, 0)
    expect(codeOf(() => decodeAssignmentInfo(future))).to.equal('SERIALIZATION')
    const badCode = Buffer.from(bytes)
    badCode.writeUInt8(99, 2)
    expect(codeOf(() => decodeAssignmentInfo(badCode))).to.equal('SERIALIZATION')
    const badIndex = Buffer.from(bytes)
    const firstPartitionTopicAt = 2 + 1 + 8 + 4 + 4 + 9 + 4 + 8 + 4
    badIndex.writeUInt32BE(7, firstPartitionTopicAt)
    expect(codeOf(() => decodeAssignmentInfo(badIndex))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeAssignmentInfo(bytes.subarray(0, 20)))).to.equal('SERIALIZATION')
  })

  it('rejects a negative nextRebalanceMs when encoding', () => {
    expect(codeOf(() => encodeAssignmentInfo({ ...sample, nextRebalanceMs: -5 }))).to.equal('ILLEGAL_ARGUMENT')
  })
})
