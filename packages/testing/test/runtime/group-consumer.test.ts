/**
 * The runtime's main consumer (GroupConsumer: group member + fetcher) and its group-less reader
 * (AssignedPartitionReader) on the in-memory Kafka: where assigned partitions start, what
 * pause/resume/seek accept and what a pause does to a batch already fetched, and how a position
 * out of range is reset.
 */
import { expect } from 'chai'
import { isPartitionError, resolveStreamsConfig, silentLogger, systemClock, tpKey } from '@kstreams/core'
import type { AdminPort, FetchedBatch, FetchedRecord, KafkaClientFactory, TopicPartition, TopicPartitionOffset } from '@kstreams/core'
import { AssignedPartitionReader, GroupConsumer } from '@kstreams/core/internal'
import type { GroupAssignor, GroupMemberSubscription, MemberAssignment } from '@kstreams/core/internal'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'

const GROUP = 'consumers'
const TOPIC = 'in'
const CONFIG_INPUT = {
  applicationId: GROUP,
  sessionTimeoutMs: 500,
  heartbeatIntervalMs: 100,
  fetchMaxWaitMs: 50,
  retryBackoffMs: 20,
  defaultApiTimeoutMs: 1000
}
const config = resolveStreamsConfig(CONFIG_INPUT)

/** Every partition of the subscribed topics, round robin over the members. */
const roundRobin: GroupAssignor = {
  name: 'round-robin',
  subscriptionUserData: () => Buffer.alloc(0),
  assign: async (members: readonly GroupMemberSubscription[], counts: ReadonlyMap<string, number>) => {
    const partitions = [...counts].flatMap(([topic, n]) => Array.from({ length: n }, (_, partition) => ({ topic, partition })))
    return new Map<string, MemberAssignment>(
      members.map((m, i) => [m.memberId, { partitions: partitions.filter((_, j) => j % members.length === i), userData: Buffer.alloc(0) }])
    )
  }
}

const tp = (partition: number): TopicPartition => ({ topic: TOPIC, partition })
const offsetsOf = (batches: readonly FetchedBatch[], partition: number): number[] =>
  batches.filter(b => b.partition === partition).flatMap(b => b.records.map(r => r.offset))

/** The offsets a client's fetches asked for, of one partition. */
const fetchedAt = (kafka: InMemoryKafka, clientId: string, partition: number): number[] =>
  kafka
    .requests({ api: 'fetch', clientId })
    .flatMap(r => (r.partitions ?? []) as TopicPartitionOffset[])
    .filter(p => p.partition === partition)
    .map(p => p.offset)

/** `target` with one member replaced (its other methods still called on it, private fields and all). */
function withMember<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): T {
  return new Proxy(target, {
    get: (t, k) => {
      if (k === key) return value
      const member = Reflect.get(t, k, t) as unknown
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(t) : member
    }
  })
}

/**
 * The clients with fetch answers whose records are all left undecoded (`FetchedBatch.undecoded`),
 * as an adapter that decodes lazily gives them; `decoded` counts the records decoded so far.
 * Decoding the record at `failAt` (of any partition) throws.
 */
function undecodedFetches(clients: KafkaClientFactory, failAt?: number): { clients: KafkaClientFactory; decoded: () => number } {
  let decoded = 0
  const fetcher: KafkaClientFactory['fetcher'] = options => {
    const port = clients.fetcher(options)
    const fetch = async (request: Parameters<typeof port.fetch>[0]): ReturnType<typeof port.fetch> =>
      (await port.fetch(request)).map(answer => {
        if (isPartitionError(answer) || answer.records.length === 0) return answer
        const rest: FetchedRecord[] = [...answer.records]
        const undecoded = {
          next: (max: number): FetchedRecord[] => {
            if (rest.slice(0, max).some(r => r.offset === failAt)) throw new RangeError('corrupt record')
            const taken = rest.splice(0, max)
            decoded += taken.length
            return taken
          }
        }
        return { ...answer, records: [], undecoded }
      })
    return withMember(port, 'fetch', fetch)
  }
  return { clients: withMember(clients, 'fetcher', fetcher), decoded: () => decoded }
}

describe('GroupConsumer and AssignedPartitionReader on the in-memory Kafka', function () {
  this.timeout(10_000)
  let kafka: InMemoryKafka
  let clients: KafkaClientFactory
  let admin: AdminPort
  const consumers: GroupConsumer[] = []

  beforeEach(() => {
    kafka = new InMemoryKafka()
    kafka.createTopic(TOPIC, 2)
    clients = kafka.clientFactory()
    admin = clients.admin({ clientId: 'test-admin' })
  })

  afterEach(async () => {
    for (const c of consumers.splice(0)) await c.close({ leaveGroup: true })
    await admin.close()
    kafka.close()
  })

  function consumer(clientId: string, fetchMaxWaitMs = config.fetchMaxWaitMs): GroupConsumer {
    const c = new GroupConsumer({
      clients,
      groupId: GROUP,
      clientId,
      topics: [TOPIC],
      assignor: roundRobin,
      listener: { onPartitionsRevoked: async () => {}, onPartitionsLost: async () => {}, onPartitionsAssigned: async () => {} },
      admin: clients.admin({ clientId: `${clientId}-admin` }),
      config: { ...config, fetchMaxWaitMs },
      resetPolicy: () => 'earliest',
      clock: systemClock,
      logger: silentLogger
    })
    consumers.push(c)
    return c
  }

  /** Polls until each `partition` has handed out its `count` records (or more), for up to 5 s; returns every batch polled. */
  async function pollFor(c: GroupConsumer, counts: Readonly<Record<number, number>>): Promise<FetchedBatch[]> {
    const batches: FetchedBatch[] = []
    const deadline = Date.now() + 5000
    const done = (): boolean => Object.entries(counts).every(([p, n]) => offsetsOf(batches, Number(p)).length >= n)
    while (!done() && Date.now() < deadline) batches.push(...(await c.poll(100)))
    return batches
  }

  const produce = (partition: number, n: number): void => {
    kafka.produce(
      TOPIC,
      Array.from({ length: n }, (_, i) => ({ partition, value: `v${i}` }))
    )
  }

  it('starts at the committed offsets, else at the earliest offset (the log start)', async () => {
    produce(0, 10)
    produce(1, 10)
    const first = consumer('first')
    await first.poll(0)
    await first.commit([{ topic: TOPIC, partition: 0, offset: 5 }])
    await first.close({ leaveGroup: true })
    await admin.deleteRecords([{ topic: TOPIC, partition: 1, offset: 3 }])

    const second = consumer('second')
    const batches = await pollFor(second, { 0: 5, 1: 7 })
    expect(
      second
        .assignment()
        .map(p => p.partition)
        .sort()
    ).to.deep.equal([0, 1])
    expect(offsetsOf(batches, 0)).to.deep.equal([5, 6, 7, 8, 9])
    expect(offsetsOf(batches, 1)).to.deep.equal([3, 4, 5, 6, 7, 8, 9])
  })

  it('pause, resume and seek accept assigned partitions only; seek moves the position', async () => {
    kafka.createTopic('other', 1)
    produce(0, 10)
    const c = consumer('c')
    expect(() => {
      c.pause([tp(0)])
    })
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE') // nothing assigned yet
    await pollFor(c, { 0: 10 })
    for (const call of [
      () => {
        c.pause([{ topic: 'other', partition: 0 }])
      },
      () => {
        c.resume([tp(2)])
      },
      () => {
        c.seek({ topic: TOPIC, partition: 5, offset: 0 })
      }
    ]) {
      expect(call).to.throw().with.property('code', 'ILLEGAL_STATE')
    }
    expect(() => {
      c.seek({ ...tp(0), offset: -1 })
    })
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    c.seek({ ...tp(0), offset: 7 })
    expect(offsetsOf(await pollFor(c, { 0: 3 }), 0)).to.deep.equal([7, 8, 9])
  })

  it('a batch fetched before a pause is not handed out while paused, and comes after resume, where it left off', async () => {
    produce(0, 5)
    produce(1, 5)
    const c = consumer('c', 5000)
    await pollFor(c, { 0: 5 })
    const producedAt = Date.now()
    produce(0, 3)
    // The fetch in flight (sent before poll returned, waiting up to 5 s for data) answers with the new records: they wait in the buffer.
    await eventually(() => kafka.requests({ api: 'fetch', clientId: 'c' }).some(r => r.endMs >= producedAt && r.error === undefined))
    c.pause([tp(0)])
    produce(1, 2)
    const whilePaused = [...(await c.poll(200)), ...(await c.poll(200))]
    expect(offsetsOf(whilePaused, 0)).to.deep.equal([])
    expect(offsetsOf(whilePaused, 1)).to.deep.equal([5, 6])
    c.resume([tp(0)])
    expect(offsetsOf(await pollFor(c, { 0: 3 }), 0)).to.deep.equal([5, 6, 7])
  })

  it('a position below the log start (records deleted) is out of range: reset to the earliest offset', async () => {
    produce(0, 10)
    const c = consumer('c')
    await pollFor(c, { 0: 10 })
    await admin.deleteRecords([{ topic: TOPIC, partition: 0, offset: 6 }])
    c.seek({ ...tp(0), offset: 2 })
    expect(offsetsOf(await pollFor(c, { 0: 4 }), 0)).to.deep.equal([6, 7, 8, 9])
    expect(fetchedAt(kafka, 'c', 0)).to.include(2)
  })

  it('a committed offset beyond the end is out of range: reset to the earliest offset', async () => {
    produce(0, 4)
    const first = consumer('first')
    await first.poll(0)
    await first.commit([{ topic: TOPIC, partition: 0, offset: 100 }])
    await first.close({ leaveGroup: true })
    const second = consumer('second')
    expect(offsetsOf(await pollFor(second, { 0: 4 }), 0)).to.deep.equal([0, 1, 2, 3])
    expect(fetchedAt(kafka, 'second', 0)).to.include(100)
  })

  it('AssignedPartitionReader: an out-of-range reset comes as an empty batch whose nextOffset is the new position', async () => {
    produce(0, 10)
    await admin.deleteRecords([{ topic: TOPIC, partition: 0, offset: 6 }])
    const reader = AssignedPartitionReader.create(clients, 'reader', config, silentLogger, 'restoreConsumer')
    try {
      reader.assign([
        { ...tp(0), offset: 2 },
        { ...tp(1), offset: undefined }
      ])
      const batches: FetchedBatch[] = []
      const deadline = Date.now() + 5000
      while (offsetsOf(batches, 0).length < 4 && Date.now() < deadline) batches.push(...(await reader.poll(100)))
      const forP0 = batches.filter(b => b.partition === 0)
      expect(forP0[0]).to.deep.include({ topic: TOPIC, partition: 0, records: [], nextOffset: 6 })
      expect(forP0.slice(1).flatMap(b => b.records.map(r => r.offset))).to.deep.equal([6, 7, 8, 9])
      expect(batches.filter(b => b.partition === 1).flatMap(b => b.records)).to.deep.equal([])
      expect(
        kafka
          .requests({ api: 'listOffsets', clientId: 'reader' })
          .flatMap(r => r.partitions!.map(p => tpKey(p.topic, p.partition)))
          .sort()
      ).to.deep.equal([`${TOPIC}-0`, `${TOPIC}-1`])
    } finally {
      await reader.close()
    }
  })

  /**
   * 25 records on partition 0 and 4 on partition 1, read from 0 by a reader handing out at most 10
   * per poll; checks each poll's count and that every record came in order, then runs `more`.
   */
  async function readLimited(
    factory: KafkaClientFactory,
    clientId: string,
    more: (reader: AssignedPartitionReader, polls: FetchedBatch[][]) => Promise<void>,
    eachPoll: (handedOut: number) => void = () => {}
  ): Promise<void> {
    produce(0, 25)
    produce(1, 4)
    const limited = resolveStreamsConfig({ ...CONFIG_INPUT, restoreConsumer: { 'max.poll.records': 10, 'fetch.min.bytes': 1 } })
    const reader = AssignedPartitionReader.create(factory, clientId, limited, silentLogger, 'restoreConsumer')
    try {
      reader.assign([
        { ...tp(0), offset: 0 },
        { ...tp(1), offset: 0 }
      ])
      const polls: FetchedBatch[][] = []
      const handedOut = (): number => polls.flat().reduce((n, b) => n + b.records.length, 0)
      const deadline = Date.now() + 5000
      while (handedOut() < 29 && Date.now() < deadline) {
        polls.push(await reader.poll(100))
        eachPoll(handedOut())
      }
      for (const poll of polls) expect(poll.reduce((n, b) => n + b.records.length, 0)).to.be.at.most(10)
      expect(offsetsOf(polls.flat(), 0)).to.deep.equal(Array.from({ length: 25 }, (_, i) => i))
      expect(offsetsOf(polls.flat(), 1)).to.deep.equal([0, 1, 2, 3])
      await more(reader, polls)
    } finally {
      await reader.close()
    }
  }

  it('max.poll.records: a poll hands out at most that many records, the rest of a fetched batch at the next polls, in order', async () => {
    await readLimited(clients, 'limited', async (_reader, polls) => {
      // A split batch says where the next record is; fetches go on from past what was handed out.
      for (const b of polls.flat().filter(x => x.records.length > 0)) expect(b.nextOffset).to.be.above(b.records.at(-1)!.offset)
      expect(fetchedAt(kafka, 'limited', 0)[0]).to.equal(0)
    })
  })

  it('max.poll.records: records an adapter left undecoded are decoded as the polls hand them out, in order, and fetching goes on past them', async () => {
    const lazy = undecodedFetches(clients)
    await readLimited(
      lazy.clients,
      'lazy',
      async (reader, polls) => {
        for (const b of polls.flat()) {
          expect(b.undecoded).to.equal(undefined)
          if (b.records.length > 0) expect(b.nextOffset).to.equal(b.records.at(-1)!.offset + 1)
        }
        produce(0, 3)
        const later: FetchedBatch[] = []
        const deadline = Date.now() + 5000
        while (offsetsOf(later, 0).length < 3 && Date.now() < deadline) later.push(...(await reader.poll(100)))
        expect(offsetsOf(later, 0)).to.deep.equal([25, 26, 27])
        expect(fetchedAt(kafka, 'lazy', 0)).to.include(25)
      },
      // Never more decoded than handed out, and the one record per partition that tells where its rest starts.
      handedOut => expect(lazy.decoded()).to.be.within(handedOut, handedOut + 2)
    )
  })

  it('a record that cannot be decoded fails the poll that reaches it with KAFKA naming the partition and offset, and the next', async () => {
    produce(1, 30)
    const lazy = undecodedFetches(clients, 12)
    const limited = resolveStreamsConfig({ ...CONFIG_INPUT, restoreConsumer: { 'max.poll.records': 10, 'fetch.min.bytes': 1 } })
    const reader = AssignedPartitionReader.create(lazy.clients, 'corrupt', limited, silentLogger, 'restoreConsumer')
    try {
      reader.assign([{ ...tp(1), offset: 0 }])
      const handedOut: FetchedBatch[] = []
      const deadline = Date.now() + 5000
      let failure: unknown
      while (failure === undefined && Date.now() < deadline) {
        try {
          handedOut.push(...(await reader.poll(100)))
        } catch (err) {
          failure = err
        }
      }
      expect(offsetsOf(handedOut, 1)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(failure).to.have.property('code', 'KAFKA')
      expect((failure as Error).message)
        .to.contain(`${TOPIC}-1`)
        .and.contain('offset 10')
      expect((failure as Error).cause).to.be.instanceOf(RangeError)
      // It stays where it was: the next poll fails the same way.
      const again = await reader.poll(100).then(
        () => undefined,
        (err: unknown) => err
      )
      expect(again).to.have.property('code', 'KAFKA')
    } finally {
      await reader.close()
    }
  })

  it('max.poll.records: fetched batches go out in the order they arrived, so a partition fetched again waits behind the others', async () => {
    produce(0, 6)
    produce(1, 6)
    const limited = resolveStreamsConfig({ ...CONFIG_INPUT, restoreConsumer: { 'max.poll.records': 4 } })
    const reader = AssignedPartitionReader.create(clients, 'ordered', limited, silentLogger, 'restoreConsumer')
    try {
      reader.assign([
        { ...tp(0), offset: 0 },
        { ...tp(1), offset: 0 }
      ])
      const handedOut: string[] = []
      const take = async (): Promise<void> => {
        for (const b of await reader.poll(100)) for (const r of b.records) handedOut.push(`${b.partition}:${r.offset}`)
      }
      const deadline = Date.now() + 5000
      while (!handedOut.includes('0:5') && Date.now() < deadline) await take()
      // Partition 0 is drained and fetched again; its new records arrive while 1 still has records buffered.
      const fetchesOf0 = fetchedAt(kafka, 'ordered', 0).length
      produce(0, 4)
      await eventually(() => fetchedAt(kafka, 'ordered', 0).length > fetchesOf0 || handedOut.includes('1:5'))
      await new Promise(resolve => setTimeout(resolve, 150))
      while (handedOut.length < 16 && Date.now() < deadline) await take()
      const rest = handedOut.slice(handedOut.indexOf('0:5') + 1)
      // Everything of partition 1 comes before the records partition 0 got later.
      expect(rest.indexOf('1:5')).to.be.below(rest.indexOf('0:6'))
      expect(handedOut.filter(r => r.startsWith('0:'))).to.deep.equal(Array.from({ length: 10 }, (_, i) => `0:${i}`))
    } finally {
      await reader.close()
    }
  })

  it('AssignedPartitionReader: a partition assigned again at its position keeps what was fetched; one with an endOffset is not fetched at or past it', async () => {
    produce(0, 10)
    produce(1, 10)
    const limited = resolveStreamsConfig({ ...CONFIG_INPUT, restoreConsumer: { 'max.poll.records': 5 } })
    const reader = AssignedPartitionReader.create(clients, 'kept', limited, silentLogger, 'restoreConsumer')
    try {
      reader.assign([
        { ...tp(0), offset: 0, endOffset: 10 },
        { ...tp(1), offset: 0, endOffset: 10 }
      ])
      const batches: FetchedBatch[] = []
      const deadline = Date.now() + 5000
      while (offsetsOf(batches, 0).length < 5 && Date.now() < deadline) batches.push(...(await reader.poll(100)))
      const next1 = batches.filter(b => b.partition === 1).at(-1)?.nextOffset ?? 0
      // Partition 0 is done with (as a restore that completed); 1 stays at its position.
      reader.assign([{ ...tp(1), offset: next1, endOffset: 10 }])
      while (offsetsOf(batches, 1).length < 10 && Date.now() < deadline) batches.push(...(await reader.poll(100)))
      expect(offsetsOf(batches, 1)).to.deep.equal(Array.from({ length: 10 }, (_, i) => i))
      // Partition 1 was fetched once from 0: the records fetched before the new assignment were kept.
      expect(fetchedAt(kafka, 'kept', 1)).to.deep.equal([0])
      // At its end offset a partition is not fetched again (no fetch waiting out fetch.max.wait.ms there).
      await reader.poll(150)
      expect(fetchedAt(kafka, 'kept', 1)).to.deep.equal([0])
    } finally {
      await reader.close()
    }
  })
})
