import { expect } from 'chai'
import type { GroupCoordinatorPort } from '@kstreams/core'
import { errorNameOf, joinRequest, manualKafka } from './helpers.js'

describe('InMemoryKafka group coordinator: static membership (group.instance.id)', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (): ReturnType<typeof manualKafka> & { port: (clientId: string) => GroupCoordinatorPort } => {
    const made = manualKafka()
    cleanup = () => made.kafka.close()
    const factory = made.kafka.clientFactory()
    return { ...made, port: clientId => factory.groupCoordinator({ groupId: 'app', clientId }) }
  }
  const syncAll = async (
    ports: GroupCoordinatorPort[],
    joins: Array<{ memberId: string; leaderId: string; generationId: number }>,
    instanceIds: string[]
  ): Promise<Buffer[]> =>
    await Promise.all(
      joins.map(
        async (j, i) =>
          await ports[i]!.syncGroup({
            generationId: j.generationId,
            memberId: j.memberId,
            groupInstanceId: instanceIds[i],
            protocolType: 'consumer',
            protocolName: 'range',
            assignments:
              j.memberId === j.leaderId
                ? joins.map(m => ({ memberId: m.memberId, assignment: Buffer.from(`to-${m.memberId.slice(0, 2)}`) }))
                : []
          })
      )
    )

  it('a restarted static member takes its place back without a rebalance; the old member id is fenced', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const joins = [a.joinGroup(joinRequest({ groupInstanceId: 'i1' })), b.joinGroup(joinRequest({ groupInstanceId: 'i2' }))]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    expect(ja!.memberId).to.match(/^i1-/)
    const before = await syncAll([a, b], [ja!, jb!], ['i1', 'i2'])

    const restarted = port('b-restarted')
    const again = await restarted.joinGroup(joinRequest({ groupInstanceId: 'i2' }))
    expect(again.memberId).to.not.equal(jb!.memberId)
    expect(again).to.include({ generationId: 1, leaderId: ja!.leaderId })
    expect(again.members).to.deep.equal([])
    expect(kafka.group('app')).to.include({ state: 'Stable', generationId: 1 })
    const assignment = await restarted.syncGroup({
      generationId: 1,
      memberId: again.memberId,
      groupInstanceId: 'i2',
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: []
    })
    expect(assignment).to.deep.equal(before[1])
    expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId, groupInstanceId: 'i2' }))).to.equal(
      'FENCED_INSTANCE_ID'
    )
    expect(await errorNameOf(b.heartbeat({ generationId: 1, memberId: jb!.memberId }))).to.equal('UNKNOWN_MEMBER_ID')
    expect(await errorNameOf(b.commitOffsets({ generationId: 1, memberId: jb!.memberId, groupInstanceId: 'i2' }, []))).to.equal(
      'FENCED_INSTANCE_ID'
    )
    expect(
      kafka
        .group('app')
        ?.members.map(m => m.clientId)
        .sort()
    ).to.deep.equal(['a', 'b-restarted'])
  })

  it('a static member that misses a rebalance keeps its place; a dynamic one would be dropped', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const request = { sessionTimeoutMs: 60_000, rebalanceTimeoutMs: 5000 }
    const joins = [
      a.joinGroup(joinRequest({ ...request, groupInstanceId: 'i1' })),
      b.joinGroup(joinRequest({ ...request, groupInstanceId: 'i2' }))
    ]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    await syncAll([a, b], [ja!, jb!], ['i1', 'i2'])
    const rejoin = a.joinGroup(
      joinRequest({
        ...request,
        memberId: ja!.memberId,
        groupInstanceId: 'i1',
        protocols: [{ name: 'range', metadata: Buffer.from('v2') }]
      })
    )
    scheduler.advance(5000)
    const joined = await rejoin
    expect(joined.generationId).to.equal(2)
    expect(
      kafka
        .group('app')
        ?.members.map(m => m.memberId)
        .sort()
    ).to.deep.equal([ja!.memberId, jb!.memberId].sort())
  })

  it('a parked JoinGroup of the old member id fails with FENCED_INSTANCE_ID when the instance rejoins', async () => {
    const { scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const joins = [a.joinGroup(joinRequest({ groupInstanceId: 'i1' })), b.joinGroup(joinRequest({ groupInstanceId: 'i2' }))]
    scheduler.advance(0)
    const [ja, jb] = await Promise.all(joins)
    await syncAll([a, b], [ja!, jb!], ['i1', 'i2'])
    const parked = b.joinGroup(
      joinRequest({ memberId: jb!.memberId, groupInstanceId: 'i2', protocols: [{ name: 'range', metadata: Buffer.from('v2') }] })
    )
    void port('b2').joinGroup(joinRequest({ groupInstanceId: 'i2', protocols: [{ name: 'range', metadata: Buffer.from('v2') }] }))
    expect(await errorNameOf(parked)).to.equal('FENCED_INSTANCE_ID')
  })

  it('LeaveGroup may name a static member by its group instance id alone', async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const join = a.joinGroup(joinRequest({ groupInstanceId: 'i1' }))
    scheduler.advance(0)
    await join
    await port('admin').leaveGroup({ memberId: '', groupInstanceId: 'i1' })
    expect(kafka.group('app')).to.include({ state: 'Empty' })
    expect(await errorNameOf(port('admin').leaveGroup({ memberId: '', groupInstanceId: 'i1' }))).to.equal('UNKNOWN_MEMBER_ID')
  })
})
