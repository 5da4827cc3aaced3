import { expect } from 'chai'
import type { GroupCoordinatorPort } from '@kstreams/core'
import { errorNameOf, formGroup, isSettled, joinRequest, manualKafka } from './helpers.js'

describe('InMemoryKafka group coordinator: membership', () => {
  const setup = (): {
    kafka: ReturnType<typeof manualKafka>['kafka']
    scheduler: ReturnType<typeof manualKafka>['scheduler']
    port: (clientId: string) => GroupCoordinatorPort
  } => {
    const { kafka, scheduler } = manualKafka()
    const factory = kafka.clientFactory()
    return { kafka, scheduler, port: clientId => factory.groupCoordinator({ groupId: 'app', clientId }) }
  }
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  it('a first JoinGroup creates the group and a member id; the group goes Empty -> PreparingRebalance -> CompletingRebalance -> Stable', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const a = port('client-a')
    const join = a.joinGroup(joinRequest())
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
    scheduler.advance(0)
    const joined = await join
    expect(joined.memberId).to.match(/^client-a-[0-9a-f-]{36}$/)
    expect(joined).to.include({ generationId: 1, protocolName: 'range', leaderId: joined.memberId })
    expect(joined.members).to.deep.equal([{ memberId: joined.memberId, groupInstanceId: undefined, metadata: Buffer.from('subscription') }])
    expect(kafka.group('app')).to.include({
      state: 'CompletingRebalance',
      generationId: 1,
      leaderId: joined.memberId,
      protocolType: 'consumer'
    })
    const assignment = await a.syncGroup({
      generationId: 1,
      memberId: joined.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [{ memberId: joined.memberId, assignment: Buffer.from('all') }]
    })
    expect(assignment.toString()).to.equal('all')
    const group = kafka.group('app')!
    expect(group.state).to.equal('Stable')
    expect(group.members.map(m => [m.clientId, m.assignment.toString()])).to.deep.equal([['client-a', 'all']])
  })

  it('join barrier: with two members, a rejoin waits until the other member rejoined too', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    expect(ja!.generationId).to.equal(1)
    expect(jb!.leaderId).to.equal(ja!.leaderId)

    const rejoinA = a.joinGroup(joinRequest({ memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('changed') }] }))
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
    expect(await isSettled(rejoinA)).to.equal(false)
    expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId }))).to.equal('REBALANCE_IN_PROGRESS')
    const rejoinB = b.joinGroup(joinRequest({ memberId: jb!.memberId }))
    const [ra, rb] = await Promise.all([rejoinA, rejoinB])
    expect(ra.generationId).to.equal(2)
    expect(rb.generationId).to.equal(2)
    expect(kafka.group('app')?.state).to.equal('CompletingRebalance')
  })

  it("the leader keeps its role across rebalances; the leader alone gets every member's metadata", async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    const leaderId = ja!.leaderId
    const leader = ja!.memberId === leaderId ? { port: a, join: ja! } : { port: b, join: jb! }
    const follower = leader.port === a ? { port: b, join: jb! } : { port: a, join: ja! }
    expect(leader.join.members.map(m => m.memberId).sort()).to.deep.equal([ja!.memberId, jb!.memberId].sort())
    expect(follower.join.members).to.deep.equal([])

    // The follower rejoins first with new metadata; the leader keeps its role.
    const f = follower.port.joinGroup(
      joinRequest({ memberId: follower.join.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] })
    )
    const l = leader.port.joinGroup(joinRequest({ memberId: leader.join.memberId }))
    const [rf, rl] = await Promise.all([f, l])
    expect(rf.leaderId).to.equal(leaderId)
    expect(rl.leaderId).to.equal(leaderId)
    expect(rl.members.find(m => m.memberId === follower.join.memberId)?.metadata.toString()).to.equal('v2')
    expect(rf.members).to.deep.equal([])
  })

  it('a leader that does not rejoin in time is dropped and a rejoined member leads the next generation', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b], { request: { rebalanceTimeoutMs: 5000, sessionTimeoutMs: 60_000 } })
    const follower = ja!.memberId === ja!.leaderId ? { port: b, join: jb! } : { port: a, join: ja! }
    const rejoin = follower.port.joinGroup(
      joinRequest({
        memberId: follower.join.memberId,
        rebalanceTimeoutMs: 5000,
        sessionTimeoutMs: 60_000,
        protocols: [{ name: 'range', metadata: Buffer.from('v2') }]
      })
    )
    scheduler.advance(4999)
    expect(await isSettled(rejoin)).to.equal(false)
    scheduler.advance(1)
    const joined = await rejoin
    expect(joined).to.include({ generationId: 2, leaderId: follower.join.memberId })
    expect(joined.members.map(m => m.memberId)).to.deep.equal([follower.join.memberId])
    expect(kafka.group('app')?.members.map(m => m.memberId)).to.deep.equal([follower.join.memberId])
  })

  it('chooses the protocol every member supports with the most votes, and rejects a join without a common protocol or type', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const p = (names: string[]): Array<{ name: string; metadata: Buffer }> => names.map(name => ({ name, metadata: Buffer.from(name) }))
    const ja = port('a').joinGroup(joinRequest({ protocols: p(['cooperative', 'range']) }))
    const jb = port('b').joinGroup(joinRequest({ protocols: p(['range', 'cooperative']) }))
    const jc = port('c').joinGroup(joinRequest({ protocols: p(['range']) }))
    scheduler.advance(0)
    const [ra] = await Promise.all([ja, jb, jc])
    expect(ra.protocolName).to.equal('range')
    expect(ra.members.map(m => m.metadata.toString())).to.deep.equal(['range', 'range', 'range'])
    expect(await errorNameOf(port('d').joinGroup(joinRequest({ protocols: p(['sticky']) })))).to.equal('INCONSISTENT_GROUP_PROTOCOL')
    expect(await errorNameOf(port('e').joinGroup(joinRequest({ protocolType: 'connect' })))).to.equal('INCONSISTENT_GROUP_PROTOCOL')
    expect(kafka.group('app')?.members).to.have.length(3)
  })

  it('a follower rejoining a Stable group with the same metadata gets the current generation without a rebalance', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    const follower = ja!.memberId === ja!.leaderId ? { port: b, join: jb! } : { port: a, join: ja! }
    const again = await follower.port.joinGroup(joinRequest({ memberId: follower.join.memberId }))
    expect(again).to.include({ generationId: 1, leaderId: ja!.leaderId })
    expect(kafka.group('app')?.state).to.equal('Stable')
    const assignment = await follower.port.syncGroup({
      generationId: 1,
      memberId: follower.join.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    expect(assignment.toString()).to.equal(`for ${follower.join.memberId}`)
  })

  it('a member rejoining during CompletingRebalance with the same metadata gets the same answer again', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const a = port('a')
    const join = a.joinGroup(joinRequest())
    scheduler.advance(0)
    const first = await join
    const again = await a.joinGroup(joinRequest({ memberId: first.memberId }))
    expect(again).to.deep.equal(first)
    expect(kafka.group('app')?.state).to.equal('CompletingRebalance')
  })

  it('SyncGroup: followers wait for the leader; each gets its own assignment; a member left out gets empty bytes', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const ports = [port('a'), port('b'), port('c')]
    const joins = ports.map(p => p.joinGroup(joinRequest()))
    scheduler.advance(0)
    const responses = await Promise.all(joins)
    const leaderIndex = responses.findIndex(r => r.memberId === r.leaderId)
    const followers = responses.map((_r, i) => i).filter(i => i !== leaderIndex)
    const followerSyncs = followers.map(
      async i =>
        await ports[i]!.syncGroup({
          generationId: 1,
          memberId: responses[i]!.memberId,
          protocolType: 'consumer',
          protocolName: 'range',
          assignments: []
        })
    )
    expect(await isSettled(Promise.all(followerSyncs))).to.equal(false)
    const first = responses[followers[0]!]!.memberId
    const mine = await ports[leaderIndex]!.syncGroup({
      generationId: 1,
      memberId: responses[leaderIndex]!.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [
        { memberId: responses[leaderIndex]!.memberId, assignment: Buffer.from('L') },
        { memberId: first, assignment: Buffer.from('F') }
      ]
    })
    expect(mine.toString()).to.equal('L')
    expect((await Promise.all(followerSyncs)).map(b => b.toString())).to.deep.equal(['F', ''])
    expect(kafka.group('app')?.state).to.equal('Stable')
  })

  it('SyncGroup errors: UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, INCONSISTENT_GROUP_PROTOCOL, REBALANCE_IN_PROGRESS', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    const sync = (p: GroupCoordinatorPort, memberId: string, generationId: number, protocolName = 'range'): Promise<Buffer> =>
      p.syncGroup({ generationId, memberId, protocolType: 'consumer', protocolName, assignments: [] })
    expect(await errorNameOf(sync(a, 'nobody', 1))).to.equal('UNKNOWN_MEMBER_ID')
    expect(await errorNameOf(sync(a, ja!.memberId, 7))).to.equal('ILLEGAL_GENERATION')
    expect(await errorNameOf(sync(a, ja!.memberId, 1, 'sticky'))).to.equal('INCONSISTENT_GROUP_PROTOCOL')
    void b.joinGroup(joinRequest({ memberId: jb!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('new') }] }))
    expect(await errorNameOf(sync(a, ja!.memberId, 1))).to.equal('REBALANCE_IN_PROGRESS')
    expect(
      await errorNameOf(
        kafka
          .clientFactory()
          .groupCoordinator({ groupId: 'other', clientId: 'c' })
          .syncGroup({ generationId: 0, memberId: 'x', protocolType: '', protocolName: '', assignments: [] })
      )
    ).to.equal('UNKNOWN_MEMBER_ID')
  })

  it('a rebalance starting during CompletingRebalance answers the parked SyncGroups with REBALANCE_IN_PROGRESS', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const joins = [a.joinGroup(joinRequest()), b.joinGroup(joinRequest())]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    const follower = ja!.memberId === ja!.leaderId ? { port: b, join: jb! } : { port: a, join: ja! }
    const parked = follower.port.syncGroup({
      generationId: 1,
      memberId: follower.join.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    void port('c').joinGroup(joinRequest())
    expect(await errorNameOf(parked)).to.equal('REBALANCE_IN_PROGRESS')
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
  })

  it('Heartbeat: ok when Stable or CompletingRebalance, REBALANCE_IN_PROGRESS when PreparingRebalance, else UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const joins = [a.joinGroup(joinRequest()), b.joinGroup(joinRequest())]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    expect(kafka.group('app')?.state).to.equal('CompletingRebalance')
    await a.heartbeat({ generationId: 1, memberId: ja!.memberId })
    const leader = ja!.memberId === ja!.leaderId ? { port: a, join: ja! } : { port: b, join: jb! }
    const follower = leader.port === a ? { port: b, join: jb! } : { port: a, join: ja! }
    const followerSync = follower.port.syncGroup({
      generationId: 1,
      memberId: follower.join.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    await leader.port.syncGroup({
      generationId: 1,
      memberId: leader.join.memberId,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    await followerSync
    await a.heartbeat({ generationId: 1, memberId: ja!.memberId })
    expect(await errorNameOf(a.heartbeat({ generationId: 0, memberId: ja!.memberId }))).to.equal('ILLEGAL_GENERATION')
    expect(await errorNameOf(a.heartbeat({ generationId: 1, memberId: 'stranger' }))).to.equal('UNKNOWN_MEMBER_ID')
    expect(
      await errorNameOf(
        kafka.clientFactory().groupCoordinator({ groupId: 'other', clientId: 'x' }).heartbeat({ generationId: 1, memberId: 'm' })
      )
    ).to.equal('UNKNOWN_MEMBER_ID')
    void leader.port.joinGroup(joinRequest({ memberId: leader.join.memberId }))
    expect(await errorNameOf(follower.port.heartbeat({ generationId: 1, memberId: follower.join.memberId }))).to.equal(
      'REBALANCE_IN_PROGRESS'
    )
  })

  it('LeaveGroup removes the member and rebalances the rest; the last one leaving empties the group', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    await a.leaveGroup({ memberId: ja!.memberId })
    expect(kafka.group('app')).to.include({ state: 'PreparingRebalance', generationId: 1 })
    expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId }))).to.equal('REBALANCE_IN_PROGRESS')
    const rejoined = await b.joinGroup(joinRequest({ memberId: jb!.memberId }))
    expect(rejoined).to.include({ generationId: 2, leaderId: jb!.memberId })
    expect(await errorNameOf(a.leaveGroup({ memberId: ja!.memberId }))).to.equal('UNKNOWN_MEMBER_ID')
    await b.leaveGroup({ memberId: jb!.memberId })
    expect(kafka.group('app')).to.include({ state: 'Empty', generationId: 3, leaderId: undefined, protocolName: undefined })
    expect(await errorNameOf(b.heartbeat({ generationId: 3, memberId: jb!.memberId }))).to.equal('UNKNOWN_MEMBER_ID')
  })

  it('a member leaving during a rebalance no longer holds up the join of the others', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b, c] = [port('a'), port('b'), port('c')]
    const [ja, jb, jc] = await formGroup(scheduler, [a, b, c])
    const rejoinA = a.joinGroup(joinRequest({ memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] }))
    const rejoinB = b.joinGroup(joinRequest({ memberId: jb!.memberId }))
    await c.leaveGroup({ memberId: jc!.memberId })
    const [ra, rb] = await Promise.all([rejoinA, rejoinB])
    expect([ra.generationId, rb.generationId]).to.deep.equal([2, 2])
    expect(
      kafka
        .group('app')
        ?.members.map(m => m.memberId)
        .sort()
    ).to.deep.equal([ja!.memberId, jb!.memberId].sort())
  })

  it('a member parked in JoinGroup that leaves gets UNKNOWN_MEMBER_ID for its JoinGroup', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    const [a, b] = [port('a'), port('b')]
    const [ja] = await formGroup(scheduler, [a, b])
    const parked = a.joinGroup(joinRequest({ memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] }))
    await a.leaveGroup({ memberId: ja!.memberId })
    expect(await errorNameOf(parked)).to.equal('UNKNOWN_MEMBER_ID')
    expect(kafka.group('app')?.members).to.have.length(1)
  })

  it('rejects a session timeout outside the configured bounds with INVALID_SESSION_TIMEOUT', async () => {
    const { kafka } = manualKafka({ minSessionTimeoutMs: 6000 })
    cleanup = () => kafka.close()
    const port = kafka.clientFactory().groupCoordinator({ groupId: 'g', clientId: 'c' })
    expect(await errorNameOf(port.joinGroup(joinRequest({ sessionTimeoutMs: 300 })))).to.equal('INVALID_SESSION_TIMEOUT')
  })

  it('a JoinGroup with an unknown member id is UNKNOWN_MEMBER_ID', async () => {
    const { kafka, scheduler, port } = setup()
    cleanup = () => kafka.close()
    expect(await errorNameOf(port('a').joinGroup(joinRequest({ memberId: 'ghost' })))).to.equal('UNKNOWN_MEMBER_ID')
    await formGroup(scheduler, [port('b')])
    expect(await errorNameOf(port('a').joinGroup(joinRequest({ memberId: 'ghost' })))).to.equal('UNKNOWN_MEMBER_ID')
  })
})
