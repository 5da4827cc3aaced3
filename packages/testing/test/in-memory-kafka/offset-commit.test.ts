import { expect } from 'chai'
import type { GroupCoordinatorPort } from '@kstreams/core'
import { errorNameOf, formGroup, joinRequest, manualKafka } from './helpers.js'

describe('InMemoryKafka group coordinator: OffsetCommit and OffsetFetch', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (): ReturnType<typeof manualKafka> & { port: (clientId: string) => GroupCoordinatorPort } => {
    const made = manualKafka()
    cleanup = () => made.kafka.close()
    made.kafka.createTopic('in', 2)
    const factory = made.kafka.clientFactory()
    return { ...made, port: clientId => factory.groupCoordinator({ groupId: 'app', clientId }) }
  }

  it('a member of the current generation commits in Stable; OffsetFetch returns offsets and metadata, "" when none was given', async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const [ja] = await formGroup(scheduler, [a])
    await a.commitOffsets({ generationId: 1, memberId: ja!.memberId }, [
      { topic: 'in', partition: 0, offset: 5, metadata: 'partition-time=42' },
      { topic: 'in', partition: 1, offset: 7 }
    ])
    const fetched = await a.fetchCommittedOffsets([
      { topic: 'in', partition: 0 },
      { topic: 'in', partition: 1 },
      { topic: 'other', partition: 0 }
    ])
    expect([...fetched]).to.deep.equal([
      ['in-0', { offset: 5, metadata: 'partition-time=42' }],
      ['in-1', { offset: 7, metadata: '' }]
    ])
    expect([...kafka.group('app')!.committed.keys()]).to.deep.equal(['in-0', 'in-1'])
  })

  it('commits are accepted in PreparingRebalance (eager revocation commits before rejoining)', async () => {
    const { kafka, scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    void a.joinGroup(joinRequest({ memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] }))
    expect(kafka.group('app')?.state).to.equal('PreparingRebalance')
    await b.commitOffsets({ generationId: 1, memberId: jb!.memberId }, [{ topic: 'in', partition: 1, offset: 3 }])
    expect(kafka.group('app')?.committed.get('in-1')?.offset).to.equal(3)
  })

  it('commits are REBALANCE_IN_PROGRESS in CompletingRebalance', async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const join = a.joinGroup(joinRequest())
    scheduler.advance(0)
    const ja = await join
    expect(kafka.group('app')?.state).to.equal('CompletingRebalance')
    expect(
      await errorNameOf(a.commitOffsets({ generationId: 1, memberId: ja.memberId }, [{ topic: 'in', partition: 0, offset: 1 }]))
    ).to.equal('REBALANCE_IN_PROGRESS')
  })

  it('an unknown member is UNKNOWN_MEMBER_ID and an old generation ILLEGAL_GENERATION', async () => {
    const { scheduler, port } = setup()
    const [a, b] = [port('a'), port('b')]
    const [ja, jb] = await formGroup(scheduler, [a, b])
    expect(
      await errorNameOf(a.commitOffsets({ generationId: 1, memberId: 'stranger' }, [{ topic: 'in', partition: 0, offset: 1 }]))
    ).to.equal('UNKNOWN_MEMBER_ID')
    expect(
      await errorNameOf(a.commitOffsets({ generationId: 0, memberId: ja!.memberId }, [{ topic: 'in', partition: 0, offset: 1 }]))
    ).to.equal('ILLEGAL_GENERATION')
    // After a rebalance the old generation is fenced.
    const rejoins = [
      a.joinGroup(joinRequest({ memberId: ja!.memberId, protocols: [{ name: 'range', metadata: Buffer.from('v2') }] })),
      b.joinGroup(joinRequest({ memberId: jb!.memberId }))
    ]
    await Promise.all(rejoins)
    expect(
      await errorNameOf(b.commitOffsets({ generationId: 1, memberId: jb!.memberId }, [{ topic: 'in', partition: 0, offset: 1 }]))
    ).to.equal('ILLEGAL_GENERATION')
  })

  it('without a generation (-1, no member id) commits only to an Empty or unknown group; a generation for an unknown group is ILLEGAL_GENERATION', async () => {
    const { kafka, scheduler, port } = setup()
    const factory = kafka.clientFactory()
    const simple = factory.groupCoordinator({ groupId: 'simple', clientId: 's' })
    await simple.commitOffsets({ generationId: -1, memberId: '' }, [{ topic: 'in', partition: 0, offset: 9 }])
    expect(kafka.group('simple')).to.include({ state: 'Empty', generationId: 0 })
    expect(kafka.group('simple')?.committed.get('in-0')?.offset).to.equal(9)
    const unknown = factory.groupCoordinator({ groupId: 'nobody', clientId: 's' })
    expect(
      await errorNameOf(unknown.commitOffsets({ generationId: 3, memberId: 'm' }, [{ topic: 'in', partition: 0, offset: 1 }]))
    ).to.equal('ILLEGAL_GENERATION')
    const a = port('a')
    await formGroup(scheduler, [a])
    expect(await errorNameOf(a.commitOffsets({ generationId: -1, memberId: '' }, [{ topic: 'in', partition: 0, offset: 1 }]))).to.equal(
      'UNKNOWN_MEMBER_ID'
    )
  })

  it('an unknown topic fails the call with UNKNOWN_TOPIC_OR_PARTITION while the other partitions commit; metadata over 4096 chars is OFFSET_METADATA_TOO_LARGE', async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const [ja] = await formGroup(scheduler, [a])
    const generation = { generationId: 1, memberId: ja!.memberId }
    expect(
      await errorNameOf(
        a.commitOffsets(generation, [
          { topic: 'gone', partition: 0, offset: 1 },
          { topic: 'in', partition: 0, offset: 4 }
        ])
      )
    ).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    expect(kafka.group('app')?.committed.get('in-0')?.offset).to.equal(4)
    expect(await errorNameOf(a.commitOffsets(generation, [{ topic: 'in', partition: 1, offset: 1, metadata: 'x'.repeat(4097) }]))).to.equal(
      'OFFSET_METADATA_TOO_LARGE'
    )
  })

  it("a commit in Stable keeps the member's session alive like a heartbeat", async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const [ja] = await formGroup(scheduler, [a], { request: { sessionTimeoutMs: 300 } })
    for (let i = 1; i <= 5; i++) {
      scheduler.advance(250)
      await a.commitOffsets({ generationId: 1, memberId: ja!.memberId }, [{ topic: 'in', partition: 0, offset: i }])
    }
    expect(kafka.group('app')).to.include({ state: 'Stable', generationId: 1 })
  })

  it("the admin port reads a group's committed offsets", async () => {
    const { kafka, scheduler, port } = setup()
    const a = port('a')
    const [ja] = await formGroup(scheduler, [a])
    await a.commitOffsets({ generationId: 1, memberId: ja!.memberId }, [{ topic: 'in', partition: 1, offset: 11 }])
    const admin = kafka.clientFactory().admin({ clientId: 'admin' })
    expect([
      ...(await admin.committedOffsets('app', [
        { topic: 'in', partition: 0 },
        { topic: 'in', partition: 1 }
      ]))
    ]).to.deep.equal([['in-1', 11]])
    expect([...(await admin.committedOffsets('unknown-group', [{ topic: 'in', partition: 1 }]))]).to.deep.equal([])
  })
})
