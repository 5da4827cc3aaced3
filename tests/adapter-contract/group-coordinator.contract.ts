/**
 * GroupCoordinatorPort contract against a real broker: JoinGroup (one member, two members,
 * static membership), SyncGroup with assignment bytes passed through, Heartbeat and its errors,
 * LeaveGroup, OffsetCommit and OffsetFetch with metadata, a commit with a stale generation,
 * require_stable (a capability), and finding the coordinator again after a lost connection.
 *
 * Subscription and assignment bytes are real ConsumerProtocol v0 bytes (consumer-protocol.ts);
 * one test uses another protocol type with arbitrary bytes.
 */
import { expect } from 'chai'
import { isKafkaError, type GroupCoordinatorPort, type JoinGroupRequest, type JoinGroupResponse } from '@kstreams/core'
import { offsetsAfterTransaction, type AdapterUnderTest } from './adapter-under-test.js'
import { assignmentBytes as consumerAssignment, subscriptionBytes } from './consumer-protocol.js'
import {
  clientsPerTest,
  createTopic,
  describeWithBroker,
  record,
  rejectionOf,
  testSettings,
  uniqueName,
  whenCoordinatorReady
} from './contract-env.js'

const PROTOCOL = 'kstreams-test-assignor'

/** Subscription bytes with `userData` (one topic, which need not exist). */
const subscription = (userData: string): Buffer => subscriptionBytes(['kst-subscribed'], userData)
const assignmentBytes = (userData: string): Buffer => consumerAssignment({ 'kst-subscribed': [0] }, userData)

function joinRequest(memberId: string, metadata: Buffer, overrides: Partial<JoinGroupRequest> = {}): JoinGroupRequest {
  return {
    memberId,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 15_000,
    protocolType: 'consumer',
    protocols: [{ name: PROTOCOL, metadata }],
    ...overrides
  }
}

/** A member alone in a new group, synced with `assignment`. */
export async function soleMember(
  port: GroupCoordinatorPort,
  metadata = subscription('solo'),
  assignment = assignmentBytes('all')
): Promise<JoinGroupResponse> {
  const joined = await whenCoordinatorReady(async () => await port.joinGroup(joinRequest('', metadata)))
  const bytes = await port.syncGroup({
    generationId: joined.generationId,
    memberId: joined.memberId,
    protocolType: 'consumer',
    protocolName: PROTOCOL,
    assignments: [{ memberId: joined.memberId, assignment }]
  })
  expect(bytes.equals(assignment)).to.equal(true)
  return joined
}

/** Joins `port` again as `memberId` (the sole member): a new generation, synced without assignments. */
export async function rejoin(port: GroupCoordinatorPort, memberId: string): Promise<JoinGroupResponse> {
  const joined = await port.joinGroup(joinRequest(memberId, subscription('solo')))
  await port.syncGroup({
    generationId: joined.generationId,
    memberId: joined.memberId,
    protocolType: 'consumer',
    protocolName: PROTOCOL,
    assignments: []
  })
  return joined
}

export function groupCoordinatorContract(adapter: AdapterUnderTest): void {
  describeWithBroker(`${adapter.name} GroupCoordinatorPort (broker)`, function () {
    this.timeout(60_000)
    const clients = clientsPerTest(() => adapter.client(testSettings()))
    const coordinator = (groupId: string): GroupCoordinatorPort => clients().coordinator(groupId)

    it('lets a first member join (member id required, then given) as the leader, with its own subscription bytes', async () => {
      const port = coordinator(uniqueName('g'))
      const metadata = subscription('first member \u0000\u00ff')
      const joined = await whenCoordinatorReady(async () => await port.joinGroup(joinRequest('', metadata)))
      expect(joined.memberId).to.be.a('string').and.not.equal('')
      expect(joined.leaderId).to.equal(joined.memberId)
      expect(joined.protocolName).to.equal(PROTOCOL)
      expect(joined.generationId).to.be.greaterThan(0)
      expect(joined.members).to.have.length(1)
      expect(joined.members[0]!.memberId).to.equal(joined.memberId)
      expect(joined.members[0]!.groupInstanceId).to.equal(undefined)
      expect(joined.members[0]!.metadata.equals(metadata)).to.equal(true)
    })

    it('rebalances two members: the leader sees both subscriptions, each member syncs its own assignment bytes', async () => {
      const groupId = uniqueName('g')
      const a = coordinator(groupId)
      const b = coordinator(groupId)
      const first = await soleMember(a, subscription('sub-a'))

      // b's join waits for the group to rebalance; a learns of it from its heartbeat and re-joins.
      const bJoin = b.joinGroup(joinRequest('', subscription('sub-b')))
      let heartbeatError: unknown
      for (let i = 0; i < 100 && heartbeatError === undefined; i++) {
        heartbeatError = await a.heartbeat({ generationId: first.generationId, memberId: first.memberId }).then(
          () => undefined,
          (e: unknown) => e
        )
        if (heartbeatError === undefined) await new Promise(resolve => setTimeout(resolve, 50))
      }
      expect(isKafkaError(heartbeatError, 'REBALANCE_IN_PROGRESS')).to.equal(true)
      const [aJoined, bJoined] = await Promise.all([a.joinGroup(joinRequest(first.memberId, subscription('sub-a'))), bJoin])

      expect(aJoined.generationId).to.equal(first.generationId + 1)
      expect(bJoined.generationId).to.equal(aJoined.generationId)
      const [leader, follower] = aJoined.leaderId === aJoined.memberId ? [aJoined, bJoined] : [bJoined, aJoined]
      expect(follower.leaderId).to.equal(leader.memberId)
      expect(follower.members).to.deep.equal([])
      const subscriptions = new Map(leader.members.map(m => [m.memberId, m.metadata.toString('hex')]))
      expect(subscriptions).to.deep.equal(
        new Map([
          [aJoined.memberId, subscription('sub-a').toString('hex')],
          [bJoined.memberId, subscription('sub-b').toString('hex')]
        ])
      )

      const bytesFor = (memberId: string): Buffer => assignmentBytes(`assignment of ${memberId}`)
      const leaderPort = leader === aJoined ? a : b
      const followerPort = leader === aJoined ? b : a
      const sync = { generationId: leader.generationId, protocolType: 'consumer', protocolName: PROTOCOL }
      const [leaderBytes, followerBytes] = await Promise.all([
        leaderPort.syncGroup({
          ...sync,
          memberId: leader.memberId,
          assignments: [leader, follower].map(m => ({ memberId: m.memberId, assignment: bytesFor(m.memberId) }))
        }),
        followerPort.syncGroup({ ...sync, memberId: follower.memberId, assignments: [] })
      ])
      expect(leaderBytes.equals(bytesFor(leader.memberId))).to.equal(true)
      expect(followerBytes.equals(bytesFor(follower.memberId))).to.equal(true)
      await leaderPort.heartbeat({ generationId: leader.generationId, memberId: leader.memberId })
      await followerPort.heartbeat({ generationId: follower.generationId, memberId: follower.memberId })
    })

    it('passes arbitrary bytes through for a protocol type other than consumer', async () => {
      const port = coordinator(uniqueName('g'))
      const metadata = Buffer.from([0, 1, 2, 255, 0, 42])
      const assignment = Buffer.from([9, 8, 0, 7])
      const request = joinRequest('', metadata, { protocolType: 'kstreams-test' })
      const joined = await whenCoordinatorReady(async () => await port.joinGroup(request))
      expect(joined.members.map(m => m.metadata.toString('hex'))).to.deep.equal([metadata.toString('hex')])
      const bytes = await port.syncGroup({
        generationId: joined.generationId,
        memberId: joined.memberId,
        protocolType: 'kstreams-test',
        protocolName: PROTOCOL,
        assignments: [{ memberId: joined.memberId, assignment }]
      })
      expect(bytes.toString('hex')).to.equal(assignment.toString('hex'))
    })

    it('gives a member without an assignment empty bytes', async () => {
      const port = coordinator(uniqueName('g'))
      const joined = await whenCoordinatorReady(async () => await port.joinGroup(joinRequest('', subscription('x'))))
      const bytes = await port.syncGroup({
        generationId: joined.generationId,
        memberId: joined.memberId,
        protocolType: 'consumer',
        protocolName: PROTOCOL,
        assignments: []
      })
      expect(bytes.length).to.equal(0)
    })

    it('heartbeats, and names UNKNOWN_MEMBER_ID for a bogus member and ILLEGAL_GENERATION for a wrong generation', async () => {
      const port = coordinator(uniqueName('g'))
      const joined = await soleMember(port)
      await port.heartbeat({ generationId: joined.generationId, memberId: joined.memberId })

      const unknown = await rejectionOf(port.heartbeat({ generationId: joined.generationId, memberId: 'bogus-member' }))
      expect(isKafkaError(unknown, 'UNKNOWN_MEMBER_ID'), String(unknown)).to.equal(true)
      expect((unknown as { retriable: boolean }).retriable).to.equal(false)

      const illegal = await rejectionOf(port.heartbeat({ generationId: joined.generationId + 5, memberId: joined.memberId }))
      expect(isKafkaError(illegal, 'ILLEGAL_GENERATION'), String(illegal)).to.equal(true)
      expect((illegal as { errorCode: number }).errorCode).to.equal(22)
    })

    it('leaves the group: the member is gone afterwards', async () => {
      const port = coordinator(uniqueName('g'))
      const joined = await soleMember(port)
      await port.leaveGroup({ memberId: joined.memberId, reason: 'test is done' })
      const gone = await rejectionOf(port.heartbeat({ generationId: joined.generationId, memberId: joined.memberId }))
      expect(isKafkaError(gone, 'UNKNOWN_MEMBER_ID'), String(gone)).to.equal(true)
    })

    it('commits offsets with metadata and fetches them back; partitions without a commit are absent', async () => {
      const topic = await createTopic(clients().admin, 3)
      const groupId = uniqueName('g')
      const port = coordinator(groupId)
      const joined = await soleMember(port)
      const generation = { generationId: joined.generationId, memberId: joined.memberId }
      const metadata = '{"t":1700000000000,"note":"ünïcode"}'
      await port.commitOffsets(generation, [
        { topic, partition: 0, offset: 42, metadata },
        { topic, partition: 2, offset: 7 }
      ])
      await port.commitOffsets(generation, [])

      const tps = [0, 1, 2].map(partition => ({ topic, partition }))
      const committed = await port.fetchCommittedOffsets(tps)
      expect([...committed]).to.deep.equal([
        [`${topic}-0`, { offset: 42, metadata }],
        [`${topic}-2`, { offset: 7, metadata: undefined }]
      ])
      expect((await port.fetchCommittedOffsets([])).size).to.equal(0)

      // Another client of the same group reads the same.
      const other = coordinator(groupId)
      expect([...(await other.fetchCommittedOffsets(tps, { requireStable: true }))]).to.deep.equal([...committed])
    })

    it('rejects a commit in a stale generation with ILLEGAL_GENERATION and keeps what was committed', async () => {
      const topic = await createTopic(clients().admin, 1)
      const port = coordinator(uniqueName('g'))
      const first = await soleMember(port)
      await port.commitOffsets({ generationId: first.generationId, memberId: first.memberId }, [{ topic, partition: 0, offset: 3 }])

      // The leader re-joining starts a new generation.
      const second = await rejoin(port, first.memberId)
      expect(second.generationId).to.equal(first.generationId + 1)

      const stale = await rejectionOf(
        port.commitOffsets({ generationId: first.generationId, memberId: first.memberId }, [{ topic, partition: 0, offset: 9 }])
      )
      expect(isKafkaError(stale, 'ILLEGAL_GENERATION'), String(stale)).to.equal(true)
      expect((await port.fetchCommittedOffsets([{ topic, partition: 0 }])).get(`${topic}-0`)?.offset).to.equal(3)
    })

    it('carries group.instance.id for a static member (join, members list, heartbeat, leave)', async () => {
      const port = coordinator(uniqueName('g'))
      const groupInstanceId = uniqueName('instance')
      const joined = await whenCoordinatorReady(
        async () => await port.joinGroup(joinRequest('', subscription('static'), { groupInstanceId }))
      )
      expect(joined.members.map(m => m.groupInstanceId)).to.deep.equal([groupInstanceId])
      await port.syncGroup({
        generationId: joined.generationId,
        memberId: joined.memberId,
        groupInstanceId,
        protocolType: 'consumer',
        protocolName: PROTOCOL,
        assignments: []
      })
      await port.heartbeat({ generationId: joined.generationId, memberId: joined.memberId, groupInstanceId })

      // Another member id for the same instance is fenced.
      const fenced = await rejectionOf(port.heartbeat({ generationId: joined.generationId, memberId: 'someone-else', groupInstanceId }))
      expect(isKafkaError(fenced, 'FENCED_INSTANCE_ID'), String(fenced)).to.equal(true)
      await port.leaveGroup({ memberId: joined.memberId, groupInstanceId })
    })

    it('refuses requests once closed (ILLEGAL_STATE), and closes twice without error', async () => {
      const port = clients().factory.groupCoordinator({ groupId: uniqueName('g'), clientId: uniqueName('member') })
      await soleMember(port)
      await port.close()
      await port.close()
      const closed = await rejectionOf(port.heartbeat({ generationId: 1, memberId: 'x' }))
      expect((closed as { code: string }).code).to.equal('ILLEGAL_STATE')
    })

    const requireStable = adapter.capabilities.requireStable
      ? 'fetches committed offsets with requireStable, and names UNSTABLE_OFFSET_COMMIT (retriable) while a transaction holds offsets of the group'
      : 'ignores requireStable (no OffsetFetch require_stable): offsets a transaction holds are absent until it commits'
    it(requireStable, async () => {
      const topic = await createTopic(clients().admin, 1)
      const groupId = uniqueName('g')
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      await tx.init()
      await tx.begin()
      await producer.send([record(topic, 0, 'v')])
      await whenCoordinatorReady(async () => {
        await tx.sendOffsets(groupId, { generationId: -1, memberId: '' }, [{ topic, partition: 0, offset: 5, metadata: 'pending' }])
      })
      const port = coordinator(groupId)
      const tp = [{ topic, partition: 0 }]
      if (adapter.capabilities.requireStable) {
        const unstable = await rejectionOf(port.fetchCommittedOffsets(tp, { requireStable: true }))
        expect(isKafkaError(unstable, 'UNSTABLE_OFFSET_COMMIT'), String(unstable)).to.equal(true)
        expect((unstable as { retriable: boolean }).retriable).to.equal(true)
      } else {
        expect((await port.fetchCommittedOffsets(tp, { requireStable: true })).size).to.equal(0)
      }
      // Without requireStable the pending offsets are not visible yet.
      expect((await port.fetchCommittedOffsets(tp)).size).to.equal(0)
      await tx.commit()
      const committed = await offsetsAfterTransaction(adapter, port, tp, 1)
      expect([...committed]).to.deep.equal([[`${topic}-0`, { offset: 5, metadata: 'pending' }]])
    })

    it('finds the coordinator again after a lost connection (the next request succeeds)', async () => {
      const port = coordinator(uniqueName('g'))
      const joined = await soleMember(port)
      await port.heartbeat({ generationId: joined.generationId, memberId: joined.memberId })
      // A request that fails as a whole (connection refused) names NETWORK_EXCEPTION.
      const unreachable = adapter.client(testSettings({ bootstrapServers: ['127.0.0.1:1'], connectionTimeoutMs: 1000 }))
      const lost = clients().cleanup.add(
        unreachable.groupCoordinator({ groupId: uniqueName('g'), clientId: uniqueName('member') }),
        async c => {
          await c.close()
        }
      )
      const error = await rejectionOf(lost.heartbeat({ generationId: 1, memberId: 'm' }))
      expect(isKafkaError(error, 'NETWORK_EXCEPTION'), String(error)).to.equal(true)
      expect((error as { retriable: boolean }).retriable).to.equal(true)
      await port.heartbeat({ generationId: joined.generationId, memberId: joined.memberId })
    })
  })
}
