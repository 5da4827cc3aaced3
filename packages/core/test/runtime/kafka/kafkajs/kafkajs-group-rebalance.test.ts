/**
 * Rebalances of a two-member group on patched kafkajs against a real broker: the assignor bridge
 * (userData both ways, followers included), the revocation callback awaited before the re-join
 * (with a commit inside it), and leaving or staying in the group on stop.
 */
import { expect } from 'chai'
import type { AdminPort, GroupConsumerPort, KafkaClientFactory, ProducerPort } from '../../../../src/runtime/kafka/ports.js'
import { partitionKeys, RecordingHandlers, RoundRobinAssignor } from './group-test-doubles.js'
import { Cleanup, createTopic, record, sleep, testFactory, uniqueName, waitFor } from './kafka-test-env.js'

describe('kafkajs group rebalancing (broker)', function () {
  this.timeout(90_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort
  let producer: ProducerPort

  beforeEach(() => {
    cleanup = new Cleanup()
    factory = testFactory()
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
    producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })
  })
  afterEach(async () => { await cleanup.run() })

  const newConsumer = (groupId: string): GroupConsumerPort =>
    cleanup.add(factory.groupConsumer({ groupId, clientId: uniqueName('c') }), async c => { await c.stop({ leaveGroup: true }) })

  it('carries subscription userData to the leader and assignment userData to every member', async () => {
    const topic = await createTopic(admin, 4)
    const groupId = uniqueName('g')
    const assignor = (name: string): RoundRobinAssignor => new RoundRobinAssignor({
      subscriptionUserData: topics => Buffer.from(`${name}:${topics.join(',')}`),
      assignmentUserData: (memberId, members) => Buffer.from(`for ${memberId} of ${members.length}`)
    })
    const assignorA = assignor('A')
    const assignorB = assignor('B')
    const a = new RecordingHandlers()
    const b = new RecordingHandlers()
    const consumerA = newConsumer(groupId)
    await consumerA.start([topic], assignorA, a, 60_000)
    const consumerB = newConsumer(groupId)
    await consumerB.start([topic], assignorB, b, 60_000)
    await waitFor('both members assigned', () =>
      a.lastAssignment()?.userData.toString().endsWith('of 2') === true && b.lastAssignment()?.userData.toString().endsWith('of 2') === true)

    expect(a.lastAssignment()!.userData.toString()).to.equal(`for ${consumerA.memberId!} of 2`)
    expect(b.lastAssignment()!.userData.toString()).to.equal(`for ${consumerB.memberId!} of 2`)
    expect([...partitionKeys(a.lastAssignment()!.partitions), ...partitionKeys(b.lastAssignment()!.partitions)].sort())
      .to.deep.equal([0, 1, 2, 3].map(p => `${topic}-${p}`))
    expect(a.lastAssignment()!.partitions).to.have.length(2)

    // Exactly one of them led the two-member generation, and saw both subscriptions.
    const seen = [...assignorA.seen, ...assignorB.seen].filter(s => s.members.length === 2)
    expect(seen).to.have.length(1)
    expect(seen[0]!.members.map(m => m.userData.toString()).sort()).to.deep.equal([`A:${topic}`, `B:${topic}`])
    expect(seen[0]!.members.every(m => m.topics.length === 1 && m.topics[0] === topic)).to.equal(true)
    expect([...seen[0]!.partitionCounts]).to.deep.equal([[topic, 4]])
  })

  it('awaits onPartitionsRevoked (commit inside it included) before the new member gets its assignment', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    await producer.send([record(topic, 0, 'a'), record(topic, 1, 'b')])
    const a = new RecordingHandlers()
    const consumerA = newConsumer(groupId)
    let commitError: unknown = 'not called'
    a.hooks.onRevoked = async partitions => {
      await sleep(1500)
      commitError = await consumerA.commit(partitions.map(tp => ({ ...tp, offset: 1, metadata: 'from-revoke' }))).then(() => undefined, (e: unknown) => e)
    }
    await consumerA.start([topic], new RoundRobinAssignor(), a, 60_000)
    await waitFor('A consumed', () => a.values().length === 2)

    const b = new RecordingHandlers()
    await newConsumer(groupId).start([topic], new RoundRobinAssignor(), b, 60_000)
    await waitFor('A re-assigned', () => a.count('assigned') === 2)

    const revoked = a.events.find(e => e.type === 'revoked')
    if (revoked?.type !== 'revoked') throw new Error('no revocation')
    expect(partitionKeys(revoked.partitions)).to.deep.equal([`${topic}-0`, `${topic}-1`])
    expect(revoked.end - revoked.at).to.be.at.least(1400)
    const bAssigned = b.events.find(e => e.type === 'assigned')!
    expect(bAssigned.at).to.be.at.least(revoked.end)
    expect(commitError).to.equal(undefined)

    const committed = await consumerA.committed([{ topic, partition: 0 }, { topic, partition: 1 }])
    expect([...committed.values()]).to.deep.equal([{ offset: 1, metadata: 'from-revoke' }, { offset: 1, metadata: 'from-revoke' }])
    expect(a.lastAssignment()!.partitions).to.have.length(1)
    expect(b.lastAssignment()!.partitions).to.have.length(1)
    expect(a.maxActive).to.equal(1)
  })

  it('keeps a member whose revocation outlasts the session timeout in the group (heartbeats continue)', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    const a = new RecordingHandlers()
    const consumerA = newConsumer(groupId)
    let commitError: unknown = 'not called'
    a.hooks.onRevoked = async partitions => {
      await sleep(8000) // session timeout is 6 s
      commitError = await consumerA.commit(partitions.map(tp => ({ ...tp, offset: 0 }))).then(() => undefined, (e: unknown) => e)
    }
    await consumerA.start([topic], new RoundRobinAssignor(), a, 60_000)
    const memberId = consumerA.memberId

    const b = new RecordingHandlers()
    await newConsumer(groupId).start([topic], new RoundRobinAssignor(), b, 60_000)
    await waitFor('A re-assigned', () => a.count('assigned') === 2, 30_000)
    expect(commitError).to.equal(undefined)
    expect(consumerA.memberId).to.equal(memberId)
    expect(a.lastAssignment()!.partitions).to.have.length(1)
    expect(b.lastAssignment()!.partitions).to.have.length(1)
  })

  it('hands the partitions over at once with leaveGroup, and only after the session timeout without', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    const stay = new RecordingHandlers()
    const consumerStay = newConsumer(groupId)
    await consumerStay.start([topic], new RoundRobinAssignor(), stay, 60_000)

    const takeOver = async (leaveGroup: boolean): Promise<number> => {
      const other = cleanup.add(factory.groupConsumer({ groupId, clientId: uniqueName('c') }), async c => { await c.stop({ leaveGroup: true }) })
      await other.start([topic], new RoundRobinAssignor(), new RecordingHandlers(), 60_000)
      await waitFor('split', () => stay.lastAssignment()?.partitions.length === 1)
      const assignedBefore = stay.count('assigned')
      const stopped = Date.now()
      await other.stop({ leaveGroup })
      await waitFor('take over', () => stay.count('assigned') > assignedBefore && stay.lastAssignment()!.partitions.length === 2, 30_000)
      return Date.now() - stopped
    }

    expect(await takeOver(true)).to.be.below(4000)
    expect(await takeOver(false)).to.be.at.least(4000) // session timeout 6 s
  })
})
