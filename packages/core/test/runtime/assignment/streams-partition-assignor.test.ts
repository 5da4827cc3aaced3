import { expect } from 'chai'
import { AssignorError } from '../../../src/runtime/assignment/assignor-error.js'
import { StreamsPartitionAssignor } from '../../../src/runtime/assignment/streams-partition-assignor.js'
import type { StreamsPartitionAssignorConfig } from '../../../src/runtime/assignment/streams-partition-assignor.js'
import { decodeSubscriptionInfo, LATEST_OFFSET } from '../../../src/runtime/assignment/subscription-info.js'
import type { TopicPartition } from '../../../src/runtime/kafka/ports.js'
import { codeOf } from '../../state/helpers/expect-code.js'
import { assignorFor, decodeAll, InMemoryAdmin, pid, sub, subscription, topologyOf } from './assignment-helpers.js'

const tp = (topic: string, partition: number): TopicPartition => ({ topic, partition })

describe('StreamsPartitionAssignor', () => {
  describe('tasks from partitions', () => {
    it('makes one task per partition of the largest source topic; task s_p gets partition p of each source', async () => {
      const admin = new InMemoryAdmin({ a: 3, b: 2, c: 1 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a', 'b'] }), sub(1, { sourceTopics: ['c'] })]), admin)
      const result = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics))
      const info = result.get('m1')!
      expect(info.errorCode).to.equal(AssignorError.NONE)
      expect([...info.activeTasks]).to.deep.equal([
        ['0_0', [tp('a', 0), tp('b', 0)]],
        ['0_1', [tp('a', 1), tp('b', 1)]],
        ['0_2', [tp('a', 2)]],
        ['1_0', [tp('c', 0)]]
      ])
      expect(info.standbyTasks.size).to.equal(0)
    })

    it("assigns the source partitions of a member's active tasks as its partitions", async () => {
      const admin = new InMemoryAdmin({ a: 4 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const assignments = await assignor.assign(
        [subscription({ memberId: 'm1', process: 1 }), subscription({ memberId: 'm2', process: 1 })],
        admin.topics
      )
      const decoded = decodeAll(assignments)
      for (const [memberId, assignment] of assignments) {
        expect(assignment.partitions).to.deep.equal([...decoded.get(memberId)!.activeTasks.values()].flat())
        expect(assignment.partitions).to.have.length(2)
      }
    })

    it('returns NONE with no tasks when a pattern matches no topic', async () => {
      const admin = new InMemoryAdmin({ other: 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourcePatterns: [/clicks-.*/] })]), admin)
      const info = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get('m1')!
      expect(info.errorCode).to.equal(AssignorError.NONE)
      expect(info.activeTasks.size).to.equal(0)
    })
  })

  describe('pattern subscriptions', () => {
    it("matches whole topic names among the known topics, skipping this application's internal topics", async () => {
      const admin = new InMemoryAdmin({ 'clicks-eu': 2, 'clicks-us': 1, 'x-clicks-eu': 5, 'app-clicks-store-changelog': 5 })
      const topology = topologyOf([sub(0, { sourcePatterns: [/.*clicks-.*/], changelogTopics: ['app-clicks-store-changelog'] })])
      const assignor = assignorFor(topology, admin)
      const info = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get('m1')!
      expect(info.errorMessage).to.equal('')
      expect([...info.activeTasks.keys()]).to.deep.equal(['0_0', '0_1', '0_2', '0_3', '0_4'])
      expect(info.activeTasks.get('0_0')).to.deep.equal([tp('clicks-eu', 0), tp('clicks-us', 0), tp('x-clicks-eu', 0)])
      expect(info.activeTasks.get('0_4')).to.deep.equal([tp('x-clicks-eu', 4)])
    })

    it('reports a topic that feeds two sub-topologies as an assignment error', async () => {
      const admin = new InMemoryAdmin({ 'clicks-eu': 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['clicks-eu'] }), sub(1, { sourcePatterns: [/clicks-.*/] })]), admin)
      const info = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get('m1')!
      expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
      expect(info.errorMessage).to.contain('clicks-eu')
    })
  })

  describe('errors every member receives', () => {
    it('co-partitioning mismatch -> ASSIGNMENT_ERROR naming the topics and counts, no partitions', async () => {
      const admin = new InMemoryAdmin({ left: 3, right: 2 })
      const assignor = assignorFor(
        topologyOf([sub(0, { sourceTopics: ['left', 'right'] })], { copartitionGroups: [['left', 'right']] }),
        admin
      )
      const assignments = await assignor.assign(
        [subscription({ memberId: 'm1', process: 1 }), subscription({ memberId: 'm2', process: 2 })],
        admin.topics
      )
      for (const [memberId, info] of decodeAll(assignments)) {
        expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
        expect(info.errorMessage).to.equal('Topics not co-partitioned: [{left=3, right=2}]')
        expect(info.activeTasks.size).to.equal(0)
        expect(assignments.get(memberId)!.partitions).to.deep.equal([])
      }
      expect(admin.created).to.deep.equal([])
    })

    it('missing source topic -> INCOMPLETE_SOURCE_TOPIC_METADATA naming it', async () => {
      const admin = new InMemoryAdmin({ a: 1 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a', 'gone'] })]), admin)
      const info = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get('m1')!
      expect(info.errorCode).to.equal(AssignorError.INCOMPLETE_SOURCE_TOPIC_METADATA)
      expect(info.errorMessage).to.contain('gone')
    })

    it('a member asking for shutdown -> SHUTDOWN_REQUESTED for all', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const result = decodeAll(
        await assignor.assign(
          [
            subscription({ memberId: 'm1', process: 1 }),
            subscription({ memberId: 'm2', process: 2, errorCode: AssignorError.SHUTDOWN_REQUESTED })
          ],
          admin.topics
        )
      )
      expect([...result.values()].map(info => info.errorCode)).to.deep.equal([
        AssignorError.SHUTDOWN_REQUESTED,
        AssignorError.SHUTDOWN_REQUESTED
      ])
    })

    it('an unreadable subscription -> ASSIGNMENT_ERROR naming the member', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const result = decodeAll(
        await assignor.assign(
          [subscription({ memberId: 'm1', process: 1 }), { memberId: 'bad', topics: [], userData: Buffer.from([0, 9]) }],
          admin.topics
        )
      )
      expect(result.get('m1')!.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
      expect(result.get('bad')!.errorMessage).to.contain('bad')
    })

    it('an unreadable subscription names the member and the version it claims', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const truncated = Buffer.from('0000000b0000000b0f1e', 'hex')
      const old = Buffer.from('000000050000000500', 'hex')
      for (const [userData, expected] of [
        [truncated, 'subscription version 11'],
        [old, 'version 5'],
        [Buffer.from([0, 9]), 'subscription version unknown']
      ] as const) {
        const result = decodeAll(
          await assignor.assign([subscription({ memberId: 'm1', process: 1 }), { memberId: 'odd-one', topics: [], userData }], admin.topics)
        )
        for (const info of result.values()) {
          expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
          expect(info.errorMessage).to.contain('odd-one').and.to.contain(expected)
        }
      }
    })

    it('version probing: a member speaking a newer version gets no tasks and an assignment in version 11; the others get every task', async () => {
      const admin = new InMemoryAdmin({ a: 4 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const newer = Buffer.from('0000000c0000000c' + 'ab'.repeat(40), 'hex')
      const plan = await assignor.assign(
        [subscription({ memberId: 'm1', process: 1 }), { memberId: 'future', topics: [], userData: newer }],
        admin.topics
      )
      const infos = decodeAll(plan)
      expect(plan.get('future')!.partitions).to.deep.equal([])
      expect(infos.get('future')).to.deep.include({ version: 11, commonlySupportedVersion: 11, errorCode: 0 })
      expect(infos.get('future')!.activeTasks.size).to.equal(0)
      expect([...infos.get('m1')!.activeTasks.keys()]).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
      expect(infos.get('m1')!.commonlySupportedVersion).to.equal(11)
    })

    it('answers in the lowest version any member used, with the lowest latest supported version', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
      const pidBytes = Buffer.from(pid(2).replaceAll('-', ''), 'hex')
      const v9 = Buffer.concat([
        Buffer.from('0000000900000009', 'hex'),
        pidBytes,
        Buffer.from('00000000' + '00000000' + '01' + '00000000', 'hex')
      ])
      const infos = decodeAll(
        await assignor.assign([subscription({ memberId: 'm1', process: 1 }), { memberId: 'm2', topics: [], userData: v9 }], admin.topics)
      )
      for (const info of infos.values()) expect(info).to.deep.include({ version: 9, commonlySupportedVersion: 9 })
    })

    it('cooperative members: a task still owned by another member is held back, kept as a standby where it has state, and its new owner rebalances right away', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      const topology = topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })])
      const assignor = assignorFor(topology, admin)
      // A Java member owned both partitions; a kstreams member with state of 0_1 joins.
      const plan = await assignor.assign(
        [
          subscription({ memberId: 'java', process: 1, active: ['0_0', '0_1'], owned: [tp('a', 0), tp('a', 1)] }),
          subscription({ memberId: 'kstreams', process: 2, offsets: { '0_1': 0 } })
        ],
        admin.topics
      )
      const infos = decodeAll(plan)
      const java = infos.get('java')!
      const kstreams = infos.get('kstreams')!
      expect([...java.activeTasks.keys()]).to.deep.equal(['0_0'])
      expect(java.nextRebalanceMs).to.equal(undefined)
      expect(kstreams.activeTasks.size).to.equal(0)
      expect(plan.get('kstreams')!.partitions).to.deep.equal([])
      expect([...kstreams.standbyTasks.keys()]).to.deep.equal(['0_1'])
      expect(kstreams.nextRebalanceMs).to.equal(0)

      // The Java member gave a-1 up and rejoined: now it moves.
      const next = decodeAll(
        await assignor.assign(
          [
            subscription({ memberId: 'java', process: 1, active: ['0_0'], owned: [tp('a', 0)] }),
            subscription({ memberId: 'kstreams', process: 2, offsets: { '0_1': 0 }, standby: ['0_1'] })
          ],
          admin.topics
        )
      )
      expect([...next.get('java')!.activeTasks.keys()]).to.deep.equal(['0_0'])
      expect([...next.get('kstreams')!.activeTasks.keys()]).to.deep.equal(['0_1'])
      expect(next.get('kstreams')!.nextRebalanceMs).to.equal(undefined)
    })

    it('an existing internal topic with the wrong partition count -> ASSIGNMENT_ERROR', async () => {
      const admin = new InMemoryAdmin({ a: 2, 'app-s-changelog': 5 })
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })]), admin)
      const info = decodeAll(await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get('m1')!
      expect(info.errorCode).to.equal(AssignorError.ASSIGNMENT_ERROR)
      expect(info.errorMessage).to.contain('app-s-changelog')
    })

    it('lets AdminPort failures other than end offsets propagate', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      admin.createTopics = async () => {
        throw new Error('broker down')
      }
      const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })]), admin)
      let caught: unknown
      try {
        await assignor.assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)
      } catch (error) {
        caught = error
      }
      expect((caught as Error).message).to.equal('broker down')
    })
  })

  it('logs assignment errors, unplaceable standbys and probing rebalances through the logger', async () => {
    const lines: string[] = []
    const record =
      (level: string) =>
      (first: unknown, message?: string): void => {
        lines.push(`${level} ${typeof first === 'string' ? first : message}`)
      }
    const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') }
    const admin = new InMemoryAdmin({ a: 2, b: 3 })
    const make = (topology: ReturnType<typeof topologyOf>) =>
      new StreamsPartitionAssignor({
        topology,
        admin,
        logger,
        config: { applicationId: 'app', numStandbyReplicas: 1 },
        localState: () => ({ processId: pid(1), taskOffsetSums: new Map(), activeTasks: [], standbyTasks: [] })
      })
    await make(topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })])).assign(
      [subscription({ memberId: 'm1', process: 1 })],
      admin.topics
    )
    expect(lines.filter(line => line.startsWith('warn'))).to.have.length(1)
    await make(topologyOf([sub(0, { sourceTopics: ['a', 'b'] })], { copartitionGroups: [['a', 'b']] })).assign(
      [subscription({ memberId: 'm1', process: 1 })],
      admin.topics
    )
    expect(lines.filter(line => line.startsWith('error'))).to.have.length(1)
    expect(lines.at(-1)).to.contain('Topics not co-partitioned')
  })

  describe('subscription userData', () => {
    it('encodes the local state and changes the unique field on every join', () => {
      const assignor = new StreamsPartitionAssignor({
        topology: topologyOf([]),
        admin: new InMemoryAdmin(),
        config: { applicationId: 'app' },
        localState: () => ({
          processId: pid(3),
          userEndpoint: 'host:9000',
          taskOffsetSums: new Map([['1_0', 7]]),
          activeTasks: new Set(['0_1'])
        })
      })
      const first = decodeSubscriptionInfo(assignor.subscriptionUserData(['a']))
      const second = decodeSubscriptionInfo(assignor.subscriptionUserData(['a']))
      expect(first).to.deep.include({
        processId: pid(3),
        userEndpoint: 'host:9000',
        activeTasks: ['0_1'],
        standbyTasks: ['1_0'],
        errorCode: 0
      })
      expect([...first.taskOffsetSums]).to.deep.equal([
        ['0_1', LATEST_OFFSET],
        ['1_0', 7]
      ])
      expect(second.uniqueField).to.not.equal(first.uniqueField)
      expect(assignor.name).to.equal('stream')
    })

    it('rejects invalid config values with INVALID_CONFIG', () => {
      const make = (config: Partial<StreamsPartitionAssignorConfig>) => () => assignorFor(topologyOf([]), new InMemoryAdmin(), config)
      expect(codeOf(make({ numStandbyReplicas: -1 }))).to.equal('INVALID_CONFIG')
      expect(codeOf(make({ acceptableRecoveryLag: 1.5 }))).to.equal('INVALID_CONFIG')
      expect(codeOf(make({ maxWarmupReplicas: 0 }))).to.equal('INVALID_CONFIG')
      expect(codeOf(make({ probingRebalanceIntervalMs: 1000 }))).to.equal('INVALID_CONFIG')
      expect(codeOf(make({ replicationFactor: 0 }))).to.equal('INVALID_CONFIG')
      expect(codeOf(make({ applicationId: '' }))).to.equal('INVALID_CONFIG')
    })
  })
})
