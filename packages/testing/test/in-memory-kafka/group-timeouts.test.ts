import { expect } from 'chai'
import type { GroupCoordinatorPort } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { errorNameOf, eventually, formGroup, isSettled, joinRequest, manualKafka } from './helpers.js'

describe('InMemoryKafka group coordinator: timeouts', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (
    options: Parameters<typeof manualKafka>[0] = {}
  ): ReturnType<typeof manualKafka> & { port: (clientId: string) => GroupCoordinatorPort } => {
    const made = manualKafka(options)
    cleanup = () => made.kafka.close()
    const factory = made.kafka.clientFactory()
    return { ...made, port: clientId => factory.groupCoordinator({ groupId: 'app', clientId }) }
  }
  const session = { sessionTimeoutMs: 300, rebalanceTimeoutMs: 10_000 }

  it('a member that stops heartbeating is removed after its session timeout and the group rebalances', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b], { request: session })
    scheduler.advance(150)
    await a.heartbeat({ generationId: 1, memberId: ja!.memberId })
    scheduler.advance(149)
    expect(kafka.group('app')?.members).to.have.length(2)
    // b's session ends 300 ms after its SyncGroup.
    scheduler.advance(1)
    expect(kafka.group('app')?.members.map(m => m.memberId)).to.deep.equal([ja!.memberId])
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
    expect(await errorNameOf(a.heartbeat({ generationId: 1, memberId: ja!.memberId }))).to.equal('REBALANCE_IN_PROGRESS')
    expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId }))).to.equal('UNKNOWN_MEMBER_ID')
    const rejoined = await a.joinGroup(joinRequest({ ...session, memberId: ja!.memberId }))
    expect(rejoined).to.include({ generationId: 2, leaderId: ja!.memberId })
  })

  it('heartbeats keep a member in the group well past its session timeout', async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const [ja] = await formGroup(scheduler, [a], { request: session })
    for (let t = 0; t < 10; t++) {
      scheduler.advance(250)
      await a.heartbeat({ generationId: 1, memberId: ja!.memberId })
    }
    expect(kafka.group('app')).to.include({ state: 'Stable', generationId: 1 })
  })

  it('a member parked in JoinGroup is not expired while it waits for the others', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b], { request: session })
    const parked = a.joinGroup(
      joinRequest({ ...session, memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] })
    )
    for (let t = 0; t < 8; t++) {
      scheduler.advance(200)
      expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId }))).to.equal('REBALANCE_IN_PROGRESS')
    }
    expect(await isSettled(parked)).to.equal(false)
    expect(kafka.group('app')?.members).to.have.length(2)
    const [ra, rb] = await Promise.all([parked, b.joinGroup(joinRequest({ ...session, memberId: jb!.memberId }))])
    expect([ra.generationId, rb.generationId]).to.deep.equal([2, 2])
  })

  it('a silent member does not hold a rebalance up beyond its session: the join completes without it', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const [ja] = await formGroup(scheduler, [a, b], { request: session })
    const parked = a.joinGroup(
      joinRequest({ ...session, memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] })
    )
    scheduler.advance(300)
    const joined = await parked
    expect(joined).to.include({ generationId: 2, leaderId: ja!.memberId })
    expect(kafka.group('app')?.members.map(m => m.memberId)).to.deep.equal([ja!.memberId])
  })

  it('a new member parked in its first JoinGroup expires on the new-member join timeout', async () => {
    const { kafka, scheduler, port } = setup({ newMemberJoinTimeoutMs: 1000 })
    const [a, c] = [port('a'), port('c')]
    const [ja] = await formGroup(scheduler, [a], { request: { sessionTimeoutMs: 60_000, rebalanceTimeoutMs: 60_000 } })
    const newcomer = c.joinGroup(joinRequest({ sessionTimeoutMs: 60_000, rebalanceTimeoutMs: 60_000 }))
    scheduler.advance(999)
    expect(await isSettled(newcomer)).to.equal(false)
    scheduler.advance(1)
    expect(await errorNameOf(newcomer)).to.equal('UNKNOWN_MEMBER_ID')
    expect(kafka.group('app')?.members.map(m => m.memberId)).to.deep.equal([ja!.memberId])
  })

  it('a member that never sends SyncGroup is removed after the rebalance timeout and the group rebalances', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const joins = [
      a.joinGroup(joinRequest({ sessionTimeoutMs: 60_000, rebalanceTimeoutMs: 5000 })),
      b.joinGroup(joinRequest({ sessionTimeoutMs: 60_000, rebalanceTimeoutMs: 5000 }))
    ]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    const leader = ja!.memberId === ja!.leaderId ? { port: a, join: ja! } : { port: b, join: jb! }
    await leader.port.syncGroup({
      generationId: 1,
      memberId: leader.join.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    expect(kafka.group('app')?.state).to.equal('Stable')
    scheduler.advance(5000)
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
    expect(kafka.group('app')?.members.map(m => m.memberId)).to.deep.equal([leader.join.memberId])
  })

  it('group.initial.rebalance.delay.ms: the first join waits, and waits longer while new members keep coming', async () => {
    const { kafka, scheduler, port } = setup({ initialRebalanceDelayMs: 3000 })
    const first = port('a').joinGroup(joinRequest())
    scheduler.advance(1000)
    const second = port('b').joinGroup(joinRequest())
    scheduler.advance(1999)
    expect(await isSettled(first)).to.equal(false)
    scheduler.advance(1)
    expect(await isSettled(first)).to.equal(false)
    scheduler.advance(3000)
    const [r1, r2] = await Promise.all([first, second])
    expect([r1.generationId, r2.generationId]).to.deep.equal([1, 1])
    expect(kafka.group('app')?.members).to.have.length(2)
  })

  it('with real timers: a 300 ms session expires a silent member while the other keeps heartbeating', async function () {
    this.timeout(5000)
    const kafka = new InMemoryKafka()
    cleanup = () => kafka.close()
    const factory = kafka.clientFactory()
    const [a, b] = [
      factory.groupCoordinator({ groupId: 'app', clientId: 'a' }),
      factory.groupCoordinator({ groupId: 'app', clientId: 'b' })
    ]
    const [ja, jb] = await Promise.all([a.joinGroup(joinRequest(session)), b.joinGroup(joinRequest(session))])
    const leader = ja.memberId === ja.leaderId ? { port: a, join: ja } : { port: b, join: jb }
    const follower = leader.port === a ? { port: b, join: jb } : { port: a, join: ja }
    await Promise.all([
      leader.port.syncGroup({
        generationId: 1,
        memberId: leader.join.memberId,
        protocolType: 'consumer',
        protocolName: 'range',
        assignments: []
      }),
      follower.port.syncGroup({
        generationId: 1,
        memberId: follower.join.memberId,
        protocolType: 'consumer',
        protocolName: 'range',
        assignments: []
      })
    ])
    const beat = setInterval(() => {
      leader.port.heartbeat({ generationId: 1, memberId: leader.join.memberId }).catch(() => {})
    }, 50)
    try {
      await eventually(() => kafka.group('app')?.members.length === 1, 2000)
      expect(kafka.group('app')?.members[0]?.memberId).to.equal(leader.join.memberId)
      expect(await errorNameOf(leader.port.heartbeat({ generationId: 1, memberId: leader.join.memberId }))).to.equal(
        'REBALANCE_IN_PROGRESS'
      )
    } finally {
      clearInterval(beat)
    }
  })
})
