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
          taskOffsetSums: new Map([['0_1', LATEST_OFFSET]]),
          activeTasks: new Set(['0_1']),
          standbyTasks: ['1_0']
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
      expect([...first.taskOffsetSums]).to.deep.equal([['0_1', LATEST_OFFSET]])
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
