/**
 * The runtime's consumer-group member (ConsumerCoordinator) on the in-memory Kafka: each
 * transition of the classic protocol as Kafka Streams uses it, and each injected fault.
 */
import { expect } from 'chai'
import { KafkaRequestError, ManualClock, silentLogger, systemClock, type Clock, type TopicPartition } from '@kstreams/core'
import { ConsumerCoordinator, type GroupAssignor, type GroupMemberSubscription, type MemberAssignment } from '@kstreams/core/internal'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'

const GROUP = 'app'
const TOPIC = 'in'

/** Round-robin over the partitions of every subscribed topic; each member's userData says who it is and who the leader saw. */
class TestAssignor implements GroupAssignor {
  readonly name = 'test'
  readonly seen: GroupMemberSubscription[][] = []
  constructor(readonly tag: string) {}
  subscriptionUserData(): Buffer {
    return Buffer.from(this.tag)
  }
  async assign(members: readonly GroupMemberSubscription[], counts: ReadonlyMap<string, number>): Promise<Map<string, MemberAssignment>> {
    this.seen.push([...members])
    const partitions: TopicPartition[] = []
    for (const topic of new Set(members.flatMap(m => m.topics))) {
      for (let p = 0; p < (counts.get(topic) ?? 0); p++) partitions.push({ topic, partition: p })
    }
    const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : 1))
    return new Map(
      sorted.map((m, i) => [
        m.memberId,
        {
          partitions: partitions.filter((_, j) => j % sorted.length === i),
          userData: Buffer.from(`for ${m.userData.toString()}`)
        }
      ])
    )
  }
}

type Event = ['revoked' | 'lost', TopicPartition[]] | ['assigned', MemberAssignment]

interface Member {
  readonly coordinator: ConsumerCoordinator
  readonly events: Event[]
  readonly assignor: TestAssignor
  /** Calls ensureActiveGroup until it returns (a poll loop of one iteration). */
  poll: () => Promise<void>
}

function member(
  kafka: InMemoryKafka,
  tag: string,
  options: {
    clock?: Clock
    sessionTimeoutMs?: number
    maxPollIntervalMs?: number
    onRevoked?: (c: ConsumerCoordinator) => Promise<void>
    onAssigned?: () => Promise<void>
  } = {}
): Member {
  const events: Event[] = []
  const assignor = new TestAssignor(tag)
  const factory = kafka.client()({
    bootstrapServers: [],
    clientId: tag,
    ssl: undefined,
    sasl: undefined,
    connectionTimeoutMs: 1000,
    requestTimeoutMs: 1000,
    logger: silentLogger
  })
  const coordinator: ConsumerCoordinator = new ConsumerCoordinator({
    port: factory.groupCoordinator({ groupId: GROUP, clientId: tag }),
    groupId: GROUP,
    clientId: tag,
    assignor,
    listener: {
      onPartitionsRevoked: async p => {
        events.push(['revoked', [...p]])
        await options.onRevoked?.(coordinator)
      },
      onPartitionsLost: async p => {
        events.push(['lost', [...p]])
      },
      onPartitionsAssigned: async a => {
        events.push(['assigned', a])
        await options.onAssigned?.()
      }
    },
    subscription: async () => [TOPIC],
    partitionCounts: async topics => new Map(topics.map(t => [t, kafka.topic(t)?.partitions ?? 0])),
    onAssignment: () => {},
    onAssignmentCleared: () => {},
    onRejoinNeeded: () => {},
    sessionTimeoutMs: options.sessionTimeoutMs ?? 600,
    maxPollIntervalMs: options.maxPollIntervalMs ?? 30_000,
    heartbeatIntervalMs: 50,
    retryBackoffMs: 10,
    defaultApiTimeoutMs: 2000,
    clock: options.clock ?? systemClock,
    logger: silentLogger
  })
  return {
    coordinator,
    events,
    assignor,
    poll: async () => {
      await coordinator.ensureActiveGroup()
    }
  }
}

const lastAssignment = (m: Member): MemberAssignment => m.events.filter(e => e[0] === 'assigned').at(-1)![1] as MemberAssignment

describe('ConsumerCoordinator on the in-memory Kafka', function () {
  this.timeout(10_000)
  let kafka: InMemoryKafka
  const members: Member[] = []

  beforeEach(() => {
    kafka = new InMemoryKafka()
    kafka.createTopic(TOPIC, 4)
  })

  afterEach(async () => {
    for (const m of members.splice(0)) await m.coordinator.close(false)
    kafka.close()
  })

  const join = (tag: string, options: Parameters<typeof member>[2] = {}): Member => {
    const m = member(kafka, tag, options)
    members.push(m)
    return m
  }

  it('a lone member joins as leader: the assignor sees its subscription userData, it gets its own assignment userData', async () => {
    const a = join('a')
    expect(a.coordinator.state).to.equal('UNJOINED')
    await a.poll()
    expect(a.coordinator.state).to.equal('STABLE')
    expect(a.assignor.seen).to.have.length(1)
    expect(a.assignor.seen[0]!.map(s => [s.topics, s.userData.toString()])).to.deep.equal([[[TOPIC], 'a']])
    expect(a.events).to.have.length(1)
    expect(lastAssignment(a).partitions).to.have.length(4)
    expect(lastAssignment(a).userData.toString()).to.equal('for a')
    const group = kafka.group(GROUP)!
    expect(group.state).to.equal('Stable')
    expect(group.generationId).to.equal(a.coordinator.generation.generationId)
    expect(group.leaderId).to.equal(a.coordinator.memberId)
  })

  it('a second member makes the first revoke (committing in its old generation) and rejoin; each gets its own assignment', async () => {
    let commitInRevocation: unknown
    const a = join('a', {
      onRevoked: async c => {
        try {
          await c.commitOffsets([{ topic: TOPIC, partition: 0, offset: 5 }])
        } catch (e) {
          commitInRevocation = e
        }
      }
    })
    await a.poll()
    const b = join('b')
    const joining = b.poll()
    await eventually(() => a.coordinator.rejoinNeeded)
    await Promise.all([a.poll(), joining])
    expect(commitInRevocation).to.equal(undefined)
    expect(kafka.group(GROUP)!.committed.get(`${TOPIC}-0`)?.offset).to.equal(5)
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'revoked', 'assigned'])
    expect(b.events.map(e => e[0])).to.deep.equal(['assigned'])
    expect(lastAssignment(a).userData.toString()).to.equal('for a')
    expect(lastAssignment(b).userData.toString()).to.equal('for b')
    expect([...lastAssignment(a).partitions, ...lastAssignment(b).partitions]).to.have.length(4)
    expect(a.coordinator.generation.generationId).to.equal(b.coordinator.generation.generationId)
    // The leader ran the assignor on both subscriptions.
    const leader = [a, b].find(m => m.coordinator.memberId === kafka.group(GROUP)!.leaderId)!
    expect(
      leader.assignor.seen
        .at(-1)!
        .map(s => s.userData.toString())
        .sort()
    ).to.deep.equal(['a', 'b'])
  })

  it('heartbeats on their own timer: a member that does not poll for longer than the session timeout stays in the group', async () => {
    const a = join('a', { sessionTimeoutMs: 300 })
    await a.poll()
    const generation = a.coordinator.generation.generationId
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(kafka.group(GROUP)!.members.map(m => m.memberId)).to.deep.equal([a.coordinator.memberId])
    expect(a.coordinator.rejoinNeeded).to.equal(false)
    await a.poll()
    expect(a.coordinator.generation.generationId).to.equal(generation)
  })

  it('an evicted member finds out from its heartbeat: partitions lost (not revoked), then it rejoins as a new member', async () => {
    const a = join('a')
    await a.poll()
    const first = a.coordinator.memberId
    kafka.evictMember(GROUP, first)
    await eventually(() => a.coordinator.state === 'UNJOINED')
    expect(a.coordinator.generation.generationId).to.equal(-1)
    await a.poll()
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'lost', 'assigned'])
    expect(a.coordinator.memberId).to.not.equal(first)
    expect(a.coordinator.state).to.equal('STABLE')
  })

  it('a member whose client was cut off past its session timeout is evicted; after reconnecting it loses its partitions and rejoins', async () => {
    const a = join('a', { sessionTimeoutMs: 300 })
    await a.poll()
    kafka.disconnect('a')
    await eventually(() => kafka.group(GROUP)!.members.length === 0)
    kafka.reconnect()
    await eventually(() => a.coordinator.state === 'UNJOINED')
    await a.poll()
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'lost', 'assigned'])
  })

  it('after a gap longer than the session timeout the membership is confirmed before a commit: an evicted member commits nothing', async () => {
    const clock = new ManualClock(Date.now())
    const a = join('a', { clock, sessionTimeoutMs: 300 })
    await a.poll()
    await a.coordinator.close(false).then(() => undefined) // stop its heartbeats, as a stopped process
    members.splice(0)
    const b = join('b', { clock, sessionTimeoutMs: 300 })
    await b.poll()
    kafka.evictMember(GROUP, b.coordinator.memberId)
    clock.advance(1000)
    kafka.clearRequests()
    const error = await b.coordinator.commitOffsets([{ topic: TOPIC, partition: 0, offset: 1 }]).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.have.property('code', 'TASK_MIGRATED')
    expect(kafka.requests({ api: 'commitOffsets' })).to.have.length(0)
    expect(kafka.requests({ api: 'heartbeat' }).length).to.be.greaterThan(0)
  })

  it('confirmMembership: true while heartbeats go through; after a gap past the session timeout it asks, and an evicted member is out', async () => {
    const clock = new ManualClock(Date.now())
    const a = join('a', { clock, sessionTimeoutMs: 300 })
    await a.poll()
    kafka.clearRequests()
    expect(await a.coordinator.confirmMembership()).to.equal(true)
    expect(kafka.requests({ api: 'heartbeat' })).to.have.length(0)
    kafka.evictMember(GROUP, a.coordinator.memberId)
    clock.advance(1000)
    expect(await a.coordinator.confirmMembership()).to.equal(false)
    expect(kafka.requests({ api: 'heartbeat' }).map(r => r.error)).to.include('UNKNOWN_MEMBER_ID')
    expect(a.coordinator.state).to.equal('UNJOINED')
  })

  it("an error the listener throws from onPartitionsAssigned is the poll's, even a retriable one (no JoinGroup retry)", async () => {
    let calls = 0
    const a = join('a', {
      onAssigned: async () => {
        if (calls++ === 0) throw new KafkaRequestError('REQUEST_TIMED_OUT', 'listener')
      }
    })
    const error = await a.poll().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.have.property('errorName', 'REQUEST_TIMED_OUT')
    expect(kafka.requests({ api: 'joinGroup' })).to.have.length(1)
    expect(a.coordinator.state).to.equal('STABLE')
    expect(calls).to.equal(1)
  })

  it('a commit in a generation the group left behind is TASK_MIGRATED and the member loses its partitions', async () => {
    const a = join('a')
    await a.poll()
    kafka.failNext({ api: 'commitOffsets', error: 'ILLEGAL_GENERATION' })
    const error = await a.coordinator.commitOffsets([{ topic: TOPIC, partition: 0, offset: 1 }]).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.have.property('code', 'TASK_MIGRATED')
    expect(a.coordinator.generation.generationId).to.equal(-1)
    await a.poll()
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'lost', 'assigned'])
  })

  it('a commit answered REBALANCE_IN_PROGRESS is TASK_MIGRATED and asks for a rejoin (the generation stays)', async () => {
    const a = join('a')
    await a.poll()
    kafka.failNext({ api: 'commitOffsets', error: 'REBALANCE_IN_PROGRESS' })
    const error = await a.coordinator.commitOffsets([{ topic: TOPIC, partition: 0, offset: 1 }]).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.have.property('code', 'TASK_MIGRATED')
    expect(a.coordinator.rejoinNeeded).to.equal(true)
    await a.poll()
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'revoked', 'assigned'])
  })

  it('transient commit errors are retried; past defaultApiTimeoutMs the last one is thrown, retriable', async () => {
    const a = join('a')
    await a.poll()
    kafka.failNext({ api: 'commitOffsets', error: 'REQUEST_TIMED_OUT', times: 2 })
    kafka.failNext({ api: 'commitOffsets', error: 'COORDINATOR_NOT_AVAILABLE' })
    await a.coordinator.commitOffsets([{ topic: TOPIC, partition: 1, offset: 7 }])
    expect(kafka.group(GROUP)!.committed.get(`${TOPIC}-1`)?.offset).to.equal(7)
    kafka.failNext({ api: 'commitOffsets', error: 'NETWORK_EXCEPTION', times: 1000 })
    const started = Date.now()
    const error = await a.coordinator.commitOffsets([{ topic: TOPIC, partition: 1, offset: 8 }]).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(Date.now() - started).to.be.within(1500, 5000)
    expect(error).to.have.property('retriable', true)
    expect(error).to.have.property('errorName', 'NETWORK_EXCEPTION')
    expect(a.coordinator.state).to.equal('STABLE')
  })

  it('JoinGroup and SyncGroup errors: coordinator errors and a lost member id are retried, an authorization error is fatal', async () => {
    const a = join('a')
    kafka.failNext({ api: 'joinGroup', error: 'COORDINATOR_NOT_AVAILABLE' })
    kafka.failNext({ api: 'syncGroup', error: 'UNKNOWN_MEMBER_ID' })
    await a.poll()
    expect(a.coordinator.state).to.equal('STABLE')
    expect(kafka.requests({ api: 'joinGroup' })).to.have.length(3)
    a.coordinator.requestRejoin('test')
    kafka.failNext({ api: 'joinGroup', error: 'GROUP_AUTHORIZATION_FAILED' })
    const error = await a.poll().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.have.property('errorName', 'GROUP_AUTHORIZATION_FAILED')
  })

  it('requestRejoin (enforceRebalance) makes a new generation; the member revokes first', async () => {
    const a = join('a')
    await a.poll()
    const generation = a.coordinator.generation.generationId
    a.coordinator.requestRejoin('probing rebalance')
    expect(a.coordinator.rejoinNeeded).to.equal(true)
    await a.poll()
    expect(a.coordinator.generation.generationId).to.equal(generation + 1)
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'revoked', 'assigned'])
  })

  it('a member that does not poll for maxPollIntervalMs leaves the group; its next poll loses its partitions and rejoins', async () => {
    const a = join('a', { maxPollIntervalMs: 300 })
    await a.poll()
    await eventually(() => kafka.group(GROUP)!.members.length === 0, 3000)
    expect(kafka.requests({ api: 'leaveGroup' })).to.have.length(1)
    await a.poll()
    expect(a.events.map(e => e[0])).to.deep.equal(['assigned', 'lost', 'assigned'])
  })

  it('close(leaveGroup) sends LeaveGroup (the group moves on at once); close without it leaves the member to expire', async () => {
    const a = join('a')
    const b = join('b')
    await Promise.all([a.poll(), b.poll()])
    await a.coordinator.close(true)
    expect(kafka.requests({ api: 'leaveGroup' })).to.have.length(1)
    await eventually(() => b.coordinator.rejoinNeeded)
    await b.poll()
    expect(lastAssignment(b).partitions).to.have.length(4)
  })

  it('interrupt() gives up a JoinGroup that waits for other members', async () => {
    const a = join('a', { sessionTimeoutMs: 5000 })
    const b = join('b', { sessionTimeoutMs: 5000, maxPollIntervalMs: 60_000 })
    await Promise.all([a.poll(), b.poll()])
    // b stops polling; a rejoins and waits in JoinGroup for b (up to b's rebalance timeout).
    a.coordinator.requestRejoin('test')
    const waiting = a.poll()
    await eventually(() => kafka.group(GROUP)!.state === 'PreparingRebalance')
    const started = Date.now()
    a.coordinator.interrupt()
    await waiting
    expect(Date.now() - started).to.be.below(500)
  })
})
