import { expect } from 'chai'
import { AssignorError } from '../../../src/runtime/assignment/assignor-error.js'
import { decodeAssignment, encodeAssignmentInfo, errorAssignmentInfo } from '../../../src/runtime/assignment/assignment-info.js'
import type { AssignmentInfoData } from '../../../src/runtime/assignment/assignment-info.js'
import { codeOf } from '../../state/helpers/expect-code.js'
import { hexLines } from './assignment-helpers.js'

const tp = (topic: string, partition: number) => ({ topic, partition })

const sample: AssignmentInfoData = {
  errorCode: AssignorError.NONE,
  errorMessage: '',
  nextRebalanceMs: 1000,
  activeTasks: new Map([['0_1', [tp('b', 1), tp('a', 1)]]]),
  standbyTasks: new Map([['1_1', [tp('c', 1)]]]),
  partitionsByHost: new Map([['h:1', [tp('a', 1)]]]),
  standbyPartitionsByHost: new Map([['h:1', [tp('a', 0)]]])
}
const partitions = [tp('b', 1), tp('a', 1)]

/**
 * What Kafka Streams 4.1.1 writes for the sample: `new AssignmentInfo(11, 11, [0_1, 0_1],
 * {1_1=[c-1]}, {h:1=[a-1]}, {h:1=[a-0]}, 0)` with next rebalance time 1000
 * (tests/java-streams WireFormats encode-assignment).
 */
const JAVA_BYTES = hexLines(`
  0000000b 0000000b                      # version 11, commonly supported 11
  00000002                               # active tasks, one per partition (a-1, b-1):
    00000000 00000001 00000000           #   0_1, no named topology
    00000000 00000001 00000000           #   0_1
  00000001                               # 1 standby task
    00000001 00000001 00000000           #   1_1
    00000001 0001 63 00000001            #   [c-1]
  00000001 00000000 0001 61              # topic dictionary: 0 -> a
  00000001 0001 68 00000001              # partitions by host: h:1
    00000001 00000000 00000001           #   [a-1]
  00000001 0001 68 00000001              # standby partitions by host: h:1
    00000001 00000000 00000000           #   [a-0]
  00000000                               # error code NONE
  00000000000003e8                       # next rebalance at 1000
`)

describe("AssignmentInfo: Kafka Streams' encoding", () => {
  it('writes the bytes Kafka Streams 4.1.1 writes (version 11)', () => {
    expect(encodeAssignmentInfo(sample).toString('hex')).to.equal(JAVA_BYTES.toString('hex'))
  })

  it("reads Kafka Streams' bytes, pairing the active task list with the partitions sorted by topic and partition", () => {
    const decoded = decodeAssignment({ partitions, userData: JAVA_BYTES })
    expect(decoded.version).to.equal(11)
    expect(decoded.commonlySupportedVersion).to.equal(11)
    expect(decoded.errorCode).to.equal(0)
    expect(decoded.errorMessage).to.equal('')
    expect(decoded.nextRebalanceMs).to.equal(1000)
    expect([...decoded.activeTasks]).to.deep.equal([['0_1', [tp('a', 1), tp('b', 1)]]])
    expect([...decoded.standbyTasks]).to.deep.equal([['1_1', [tp('c', 1)]]])
    expect([...decoded.partitionsByHost]).to.deep.equal([['h:1', [tp('a', 1)]]])
    expect([...decoded.standbyPartitionsByHost]).to.deep.equal([['h:1', [tp('a', 0)]]])
  })

  it('encodes "no follow-up rebalance" as Long.MAX_VALUE and decodes it as undefined; 0 means right away', () => {
    const none = encodeAssignmentInfo({ ...sample, nextRebalanceMs: undefined })
    expect(none.readBigInt64BE(none.length - 8)).to.equal(0x7fffffffffffffffn)
    expect(decodeAssignment({ partitions, userData: none }).nextRebalanceMs).to.equal(undefined)
    expect(decodeAssignment({ partitions, userData: encodeAssignmentInfo({ ...sample, nextRebalanceMs: 0 }) }).nextRebalanceMs).to.equal(0)
  })

  it("carries a kstreams leader's error message after the fields Kafka Streams reads; without one, the code's description", () => {
    const bytes = encodeAssignmentInfo(errorAssignmentInfo(AssignorError.ASSIGNMENT_ERROR, 'Topics not co-partitioned: [{a=1, b=2}] ✗'))
    const info = decodeAssignment({ partitions: [], userData: bytes })
    expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
    expect(info.errorMessage).to.equal('Topics not co-partitioned: [{a=1, b=2}] ✗')
    expect(info.activeTasks.size + info.standbyTasks.size + info.partitionsByHost.size + info.standbyPartitionsByHost.size).to.equal(0)
    const javaError = bytes.subarray(0, bytes.length - 4 - Buffer.byteLength('Topics not co-partitioned: [{a=1, b=2}] ✗'))
    expect(decodeAssignment({ partitions: [], userData: javaError }).errorMessage).to.contain('could not compute a task assignment')
  })

  it('writes versions 7 to 9 without the named-topology field of task ids, and reads them back', () => {
    const v9 = encodeAssignmentInfo({ ...sample, version: 9, commonlySupportedVersion: 9 })
    expect(v9.length).to.equal(JAVA_BYTES.length - 3 * 4)
    const decoded = decodeAssignment({ partitions, userData: v9 })
    expect(decoded.version).to.equal(9)
    expect([...decoded.activeTasks]).to.deep.equal([['0_1', [tp('a', 1), tp('b', 1)]]])
    expect([...decoded.standbyTasks.keys()]).to.deep.equal(['1_1'])
  })

  it('round-trips many tasks and hosts sharing one topic dictionary, IPv6 hosts and non-ASCII host names', () => {
    const activeTasks = new Map<string, Array<{ topic: string; partition: number }>>()
    for (let p = 0; p < 50; p++) activeTasks.set(`${p % 3}_${p}`, [tp(`topic-${p % 5}`, p)])
    const hosts = new Map([
      ['a:1', [tp('topic-1', 3)]],
      ['[::1]:2', [tp('topic-4', 9)]],
      ['hôte:3', []]
    ])
    const userData = encodeAssignmentInfo({ ...sample, activeTasks, partitionsByHost: hosts })
    const decoded = decodeAssignment({ partitions: [...activeTasks.values()].flat(), userData })
    expect(new Map([...decoded.activeTasks].sort())).to.deep.equal(new Map([...activeTasks].sort()))
    expect(decoded.partitionsByHost).to.deep.equal(hosts)
  })

  it('rejects unsupported versions, unknown error codes, bad topic indexes, a task list not matching the partitions and truncated bytes', () => {
    const future = Buffer.from(JAVA_BYTES)
    future.writeInt32BE(12, 0)
    expect(codeOf(() => decodeAssignment({ partitions, userData: future }))).to.equal('SERIALIZATION')
    const old = Buffer.from(JAVA_BYTES)
    old.writeInt32BE(6, 0)
    expect(codeOf(() => decodeAssignment({ partitions, userData: old }))).to.equal('SERIALIZATION')
    const badCode = Buffer.from(JAVA_BYTES)
    badCode.writeInt32BE(99, JAVA_BYTES.length - 12)
    expect(codeOf(() => decodeAssignment({ partitions, userData: badCode }))).to.equal('SERIALIZATION')
    const badIndex = Buffer.from(JAVA_BYTES)
    badIndex.writeInt32BE(7, JAVA_BYTES.indexOf(Buffer.from('000000010001680000000100000001', 'hex')) + 15)
    expect(codeOf(() => decodeAssignment({ partitions, userData: badIndex }))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeAssignment({ partitions: [tp('a', 1)], userData: JAVA_BYTES }))).to.equal('SERIALIZATION')
    expect(codeOf(() => decodeAssignment({ partitions, userData: JAVA_BYTES.subarray(0, 20) }))).to.equal('SERIALIZATION')
  })

  it('rejects a negative nextRebalanceMs and a version it cannot write when encoding', () => {
    expect(codeOf(() => encodeAssignmentInfo({ ...sample, nextRebalanceMs: -5 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => encodeAssignmentInfo({ ...sample, version: 6 }))).to.equal('ILLEGAL_ARGUMENT')
  })
})
