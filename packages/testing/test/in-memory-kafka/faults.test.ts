import { expect } from 'chai'
import { Headers, isPartitionError, IllegalStateError } from '@kstreams/core'
import type { FetchRequest } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { errorNameOf, eventually, formGroup, isSettled, joinRequest, manualKafka } from './helpers.js'

const fetchAll = (partitions: number[], overrides: Partial<FetchRequest> = {}): FetchRequest => ({
  node: 1,
  partitions: partitions.map(partition => ({ topic: 't', partition, offset: 0 })),
  isolationLevel: 'READ_UNCOMMITTED',
  maxWaitMs: 0,
  maxBytes: 1 << 20,
  maxPartitionBytes: 1 << 20,
  ...overrides
})

describe('InMemoryKafka fault injection', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (): ReturnType<typeof manualKafka> => {
    const made = manualKafka()
    cleanup = () => made.kafka.close()
    made.kafka.createTopic('t', 2)
    return made
  }

  it('failNext fails the next matching request once (by default) with the named error, before the broker sees it', async () => {
    const { kafka, scheduler } = setup()
    const factory = kafka.clientFactory()
    const group = factory.groupCoordinator({ groupId: 'app', clientId: 'thread-1' })
    const [joined] = await formGroup(scheduler, [group])
    const generation = { generationId: 1, memberId: joined!.memberId }
    const fault = kafka.failNext({ api: 'commitOffsets', error: 'REQUEST_TIMED_OUT' })
    expect(await errorNameOf(group.commitOffsets(generation, [{ topic: 't', partition: 0, offset: 1 }]))).to.equal('REQUEST_TIMED_OUT')
    expect(kafka.group('app')?.committed.size).to.equal(0)
    expect(fault).to.include({ hits: 1, remaining: 0 })
    await group.commitOffsets(generation, [{ topic: 't', partition: 0, offset: 1 }])
    expect(kafka.group('app')?.committed.get('t-0')?.offset).to.equal(1)
  })

  it("a failure can carry retriable as Kafka's error table has it", async () => {
    const { kafka } = setup()
    const admin = kafka.clientFactory().admin({ clientId: 'admin' })
    kafka.failNext({ api: 'listTopics', error: 'NETWORK_EXCEPTION' })
    const error = (await admin.listTopics().catch((e: unknown) => e)) as {
      errorName: string
      retriable: boolean
      code: string
      errorCode: number
    }
    expect(error).to.include({ errorName: 'NETWORK_EXCEPTION', retriable: true, code: 'KAFKA', errorCode: 13 })
  })

  it('afterProcessing: the request takes effect, but the client sees the error', async () => {
    const { kafka } = setup()
    const producer = kafka.clientFactory().producer({ clientId: 'p' })
    kafka.failNext({ api: 'send', error: 'REQUEST_TIMED_OUT', afterProcessing: true })
    const sent = { topic: 't', partition: 0, key: null, value: Buffer.from('x'), headers: new Headers(), timestamp: 0 }
    expect(await errorNameOf(producer.send([sent]))).to.equal('REQUEST_TIMED_OUT')
    expect(kafka.topic('t').records(0)).to.have.length(1)
  })

  it('targets faults by client id (string or RegExp), group, topic, and counts times (Infinity until removed)', async () => {
    const { kafka, scheduler } = setup()
    const factory = kafka.clientFactory()
    const one = factory.groupCoordinator({ groupId: 'app', clientId: 'app-StreamThread-1-consumer' })
    const two = factory.groupCoordinator({ groupId: 'app', clientId: 'app-StreamThread-2-consumer' })
    const [j1, j2] = await formGroup(scheduler, [one, two], { request: { sessionTimeoutMs: 60_000 } })
    const fault = kafka.failNext({ api: 'heartbeat', error: 'COORDINATOR_NOT_AVAILABLE', clientId: /StreamThread-1/, times: Infinity })
    for (let i = 0; i < 3; i++)
      expect(await errorNameOf(one.heartbeat({ generationId: 1, memberId: j1!.memberId }))).to.equal('COORDINATOR_NOT_AVAILABLE')
    await two.heartbeat({ generationId: 1, memberId: j2!.memberId })
    expect(fault.hits).to.equal(3)
    fault.remove()
    await one.heartbeat({ generationId: 1, memberId: j1!.memberId })

    kafka.failNext({ api: ['heartbeat', 'commitOffsets'], error: 'NOT_COORDINATOR', groupId: 'other' })
    await one.heartbeat({ generationId: 1, memberId: j1!.memberId })
    kafka.failNext({ api: 'commitOffsets', error: 'UNKNOWN_TOPIC_OR_PARTITION', topic: 't', partition: 1, times: 2 })
    await one.commitOffsets({ generationId: 1, memberId: j1!.memberId }, [{ topic: 't', partition: 0, offset: 1 }])
    expect(
      await errorNameOf(one.commitOffsets({ generationId: 1, memberId: j1!.memberId }, [{ topic: 't', partition: 1, offset: 1 }]))
    ).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
    kafka.clearFaults()
    await one.commitOffsets({ generationId: 1, memberId: j1!.memberId }, [{ topic: 't', partition: 1, offset: 1 }])
    expect(() => kafka.failNext({ api: 'nope' as 'fetch', error: 'NETWORK_EXCEPTION' })).to.throw(/unknown api/)
  })

  it("a fetch failure targeted at a partition comes back as that partition's PartitionError", async () => {
    const { kafka } = setup()
    kafka.produce('t', [
      { value: 'a', partition: 0 },
      { value: 'b', partition: 1 }
    ])
    const fetcher = kafka.clientFactory().fetcher({ clientId: 'f' })
    kafka.failNext({ api: 'fetch', error: 'NOT_LEADER_OR_FOLLOWER', topic: 't', partition: 1 })
    const [p0, p1] = await fetcher.fetch(fetchAll([0, 1]))
    expect(isPartitionError(p0!)).to.equal(false)
    expect(isPartitionError(p1!) && p1.error.errorName).to.equal('NOT_LEADER_OR_FOLLOWER')
    const again = await fetcher.fetch(fetchAll([0, 1]))
    expect(again.every(x => !isPartitionError(x))).to.equal(true)
  })

  it('delay holds a request back for ms before the broker handles it', async () => {
    const { kafka, scheduler } = setup()
    const admin = kafka.clientFactory().admin({ clientId: 'admin' })
    kafka.delay({ api: 'createTopics', ms: 1000 })
    const creating = admin.createTopics([{ topic: 'late', numPartitions: 1, replicationFactor: 1, configs: {} }])
    scheduler.advance(999)
    expect(await isSettled(creating)).to.equal(false)
    expect(kafka.topics()).to.not.include('late')
    scheduler.advance(1)
    await creating
    expect(kafka.topics()).to.include('late')
    expect(() => kafka.delay({ api: 'fetch', ms: -1 })).to.throw(/non-negative/)
  })

  it('disconnect fails requests in flight and to come with NETWORK_EXCEPTION until reconnect; others are unaffected', async () => {
    const { kafka } = setup()
    const factory = kafka.clientFactory()
    const cut = factory.fetcher({ clientId: 'thread-1-restore' })
    const fine = factory.fetcher({ clientId: 'thread-2-restore' })
    const parked = cut.fetch(fetchAll([0], { maxWaitMs: 60_000 }))
    kafka.disconnect(/thread-1/)
    expect(await errorNameOf(parked)).to.equal('NETWORK_EXCEPTION')
    expect(await errorNameOf(cut.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED'))).to.equal('NETWORK_EXCEPTION')
    await fine.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED')
    kafka.reconnect(/thread-1/)
    await cut.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED')
    kafka.disconnect('thread-2-restore')
    kafka.disconnect('other')
    kafka.reconnect()
    await fine.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED')
  })

  it('a disconnected member stops heartbeating and is evicted after its session timeout (real timers)', async () => {
    const kafka = new InMemoryKafka()
    cleanup = () => kafka.close()
    const factory = kafka.clientFactory()
    const session = { sessionTimeoutMs: 300, rebalanceTimeoutMs: 5000 }
    const ports = [
      factory.groupCoordinator({ groupId: 'app', clientId: 'p1' }),
      factory.groupCoordinator({ groupId: 'app', clientId: 'p2' })
    ]
    const joins = await Promise.all(ports.map(async p => await p.joinGroup(joinRequest(session))))
    await Promise.all(
      ports.map(
        async (p, i) =>
          await p.syncGroup({
            generationId: 1,
            memberId: joins[i]!.memberId,
            protocolType: 'consumer',
            protocolName: 'range',
            assignments: []
          })
      )
    )
    const errors: string[] = []
    const beats = ports.map((p, i) =>
      setInterval(() => {
        p.heartbeat({ generationId: 1, memberId: joins[i]!.memberId }).catch((e: { errorName: string }) => {
          if (i === 1) errors.push(e.errorName)
        })
      }, 50)
    )
    try {
      kafka.disconnect('p2')
      await eventually(() => kafka.group('app')?.members.length === 1, 3000)
      expect(kafka.group('app')?.members[0]?.clientId).to.equal('p1')
      expect(errors).to.include('NETWORK_EXCEPTION')
    } finally {
      beats.forEach(clearInterval)
    }
  })

  it('evictMember removes a member as a session timeout would; a parked JoinGroup of an evicted member fails with UNKNOWN_MEMBER_ID', async () => {
    const { kafka, scheduler } = setup()
    const factory = kafka.clientFactory()
    const [a, b, c] = ['a', 'b', 'c'].map(clientId => factory.groupCoordinator({ groupId: 'app', clientId }))
    const [ja, jb, jc] = await formGroup(scheduler, [a!, b!, c!])
    kafka.evictMember('app', jc!.memberId)
    expect(kafka.group('app')).to.include({ state: 'PreparingRebalance' })
    expect(await errorNameOf(c!.heartbeat({ generationId: 1, memberId: jc!.memberId }))).to.equal('UNKNOWN_MEMBER_ID')
    const parked = a!.joinGroup(joinRequest({ memberId: ja!.memberId }))
    kafka.evictMember('app', ja!.memberId)
    expect(await errorNameOf(parked)).to.equal('UNKNOWN_MEMBER_ID')
    const joined = await b!.joinGroup(joinRequest({ memberId: jb!.memberId }))
    expect(joined).to.include({ generationId: 2, leaderId: jb!.memberId })
    expect(() => kafka.evictMember('app', 'nobody')).to.throw(/no member/)
  })

  it('a closed port refuses requests; close() of the kafka fails what is in flight with NETWORK_EXCEPTION', async () => {
    const { kafka } = setup()
    const factory = kafka.clientFactory()
    const fetcher = factory.fetcher({ clientId: 'f' })
    await fetcher.close()
    const refused = await fetcher.leaders([], false).catch((e: unknown) => e)
    expect(refused).to.be.instanceOf(IllegalStateError)
    const other = factory.fetcher({ clientId: 'g' })
    const parked = other.fetch(fetchAll([0], { maxWaitMs: 60_000 }))
    kafka.close()
    kafka.close()
    expect(await errorNameOf(parked)).to.equal('NETWORK_EXCEPTION')
    expect(await errorNameOf(other.listOffsets([{ topic: 't', partition: 0 }], 'latest', 'READ_UNCOMMITTED'))).to.equal('NETWORK_EXCEPTION')
  })
})
