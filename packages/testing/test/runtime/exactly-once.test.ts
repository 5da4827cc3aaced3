/**
 * processingGuarantee exactly_once_v2 on the in-memory Kafka (which has transactions, the
 * transaction coordinator's fencing, KIP-447 generation checks and require_stable): one
 * transaction per thread and commit, holding the output, the changelog writes and the input
 * offsets; a commit step failing retriably is sent again (up to max.block.ms), a failed send or
 * another failed commit aborts it and the tasks process again from the committed offsets;
 * fencing closes them as lost. The checks are exact: every key's count equals its true
 * count (no duplicate, no loss), and the changelog read read_committed equals the stores.
 */
import { expect } from 'chai'
import { ConfigError, KafkaStreams, type KafkaErrorName, type StreamsConfig } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { countingTopology, Harness, memberOf, sleep, type App } from './streams-harness.js'
import { eventually } from '../in-memory-kafka/helpers.js'

const EOS = { processingGuarantee: 'exactly_once_v2' } as const

/** The harness's checks, exact: no key above its true count either, and only committed changelog records count. */
async function verifyExactlyOnce(h: Harness): Promise<void> {
  await h.verify()
  const contents = h.storeContents()
  expect(sortedEntries(contents), 'stores == true counts').to.deep.equal(sortedEntries(h.trueCounts))
  expect(sortedEntries(h.changelogReplay('READ_COMMITTED')), 'committed changelog == true counts').to.deep.equal(
    sortedEntries(h.trueCounts)
  )
}

const sortedEntries = (m: ReadonlyMap<string, number>): Array<[string, number]> => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

describe('KafkaStreams on the in-memory Kafka: exactly_once_v2', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  /** An instance with `config`, settled on 200 records, then 300 more flowing; `restores` are those after the start. */
  async function startFlowing(config: StreamsConfig): Promise<{ app: App; restores: number[]; flowing: Promise<void> }> {
    const restores: number[] = []
    const app = await h.start({
      config,
      restoreListener: {
        onRestoreStart: tp => {
          restores.push(tp.partition)
        }
      }
    })
    h.produce(200)
    await h.settle()
    const flowing = h.produceSlowly(300)
    await sleep(100)
    restores.length = 0
    return { app, restores, flowing }
  }

  it('commits output, changelog and offsets in one transaction per commit: sendOffsets with the generation, no plain offset commit', async () => {
    await h.start({ config: EOS })
    h.produce(300)
    await verifyExactlyOnce(h)
    const sendOffsets = h.kafka.requests({ api: 'sendOffsets' })
    expect(sendOffsets.length, 'TxnOffsetCommits').to.be.greaterThan(0)
    expect(h.kafka.requests({ api: 'commitTransaction' }).length).to.be.greaterThan(0)
    expect(h.kafka.requests({ api: 'commitOffsets' }), 'plain OffsetCommits').to.deep.equal([])
    // Nothing uncommitted is left behind: the changelog's committed records are all its records.
    const changelog = h.kafka.topic(h.changelog)
    for (let p = 0; p < changelog.partitions; p++) expect(changelog.lastStableOffset(p)).to.equal(changelog.highWatermark(p))
  })

  for (const [api, error] of [
    ['commitTransaction', 'REQUEST_TIMED_OUT'],
    ['commitTransaction', 'NOT_COORDINATOR'],
    ['commitTransaction', 'COORDINATOR_NOT_AVAILABLE'],
    ['commitTransaction', 'COORDINATOR_LOAD_IN_PROGRESS'],
    ['commitTransaction', 'CONCURRENT_TRANSACTIONS'],
    ['sendOffsets', 'NOT_COORDINATOR'],
    ['sendOffsets', 'REQUEST_TIMED_OUT']
  ] as const satisfies ReadonlyArray<readonly ['commitTransaction' | 'sendOffsets', KafkaErrorName]>) {
    it(`${api} failing once with ${error} (retriable) is sent again: the transaction commits, nothing aborted, wiped or restored, counts exact`, async () => {
      const { app, restores, flowing } = await startFlowing(EOS)
      const fault = h.kafka.failNext({ api, error, clientId: /-StreamThread-1-producer$/ })
      await flowing
      await verifyExactlyOnce(h)
      expect(fault.hits).to.equal(1)
      expect(h.kafka.requests({ api: 'abortTransaction' }), 'aborts').to.deep.equal([])
      expect(restores, 'restores after the fault').to.deep.equal([])
      expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
    })
  }

  it('a retriable commit error that lasts past max.block.ms aborts the transaction; the tasks are wiped, restored and process again from the committed offsets: counts exact, no ERROR', async () => {
    const { app, restores, flowing } = await startFlowing({ ...EOS, producer: { 'max.block.ms': 300 } })
    const fault = h.kafka.failNext({
      api: 'commitTransaction',
      error: 'COORDINATOR_NOT_AVAILABLE',
      times: Number.POSITIVE_INFINITY,
      clientId: /-StreamThread-1-producer$/
    })
    await eventually(() => h.kafka.requests({ api: 'abortTransaction' }).length > 0)
    fault.remove()
    await flowing
    await verifyExactlyOnce(h)
    expect(fault.hits, 'EndTxn sent again until max.block.ms').to.be.greaterThan(1)
    expect(restores.length, 'tasks restored after the abort').to.be.greaterThan(0)
    expect(app.states.filter(s => s === 'ERROR' || s === 'PENDING_ERROR')).to.deep.equal([])
  })

  it('a commit failing with an error that is not retriable (TRANSACTION_ABORTABLE) is aborted at once; the tasks process again from the committed offsets: counts exact, no ERROR', async () => {
    const app = await h.start({ config: EOS })
    h.produce(200)
    await h.settle()
    const flowing = h.produceSlowly(300)
    await sleep(100)
    const fault = h.kafka.failNext({ api: 'commitTransaction', error: 'TRANSACTION_ABORTABLE', clientId: /-StreamThread-1-producer$/ })
    await flowing
    await verifyExactlyOnce(h)
    expect(fault.hits).to.equal(1)
    expect(h.kafka.requests({ api: 'abortTransaction' }).length, 'aborts').to.be.greaterThan(0)
    expect(app.streams.state()).to.equal('RUNNING')
  })

  it('a commit that went through but whose answer was lost counts nothing twice (the offsets were committed with it)', async () => {
    await h.start({ config: EOS })
    h.produce(200)
    await h.settle()
    const flowing = h.produceSlowly(300)
    await sleep(100)
    const fault = h.kafka.failNext({ api: 'commitTransaction', error: 'REQUEST_TIMED_OUT', afterProcessing: true, clientId: /-producer$/ })
    await flowing
    await verifyExactlyOnce(h)
    expect(fault.hits).to.equal(1)
  })

  it('a send failing inside the transaction aborts it: nothing of it is visible read_committed, counts exact', async () => {
    await h.start({ config: EOS })
    h.produce(200)
    await h.settle()
    const flowing = h.produceSlowly(300)
    await sleep(100)
    const fault = h.kafka.failNext({ api: 'send', error: 'NOT_LEADER_OR_FOLLOWER', clientId: /-producer$/ })
    await flowing
    await verifyExactlyOnce(h)
    expect(fault.hits).to.equal(1)
  })

  for (const error of ['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH'] as const satisfies readonly KafkaErrorName[]) {
    it(`a producer fenced (${error}) closes the thread's tasks as lost, replaces the producer and rejoins: counts exact, no ERROR`, async () => {
      const app = await h.start({ config: EOS })
      h.produce(200)
      await h.settle()
      const generation = h.kafka.group(h.applicationId)!.generationId
      const flowing = h.produceSlowly(300)
      await sleep(100)
      h.kafka.failNext({ api: 'commitTransaction', error, clientId: /-producer$/ })
      await flowing
      await verifyExactlyOnce(h)
      expect(h.kafka.group(h.applicationId)!.generationId, 'rejoined').to.be.greaterThan(generation)
      // The fenced producer was replaced: a new InitProducerId bumped the epoch.
      expect(h.kafka.transactionalIds()[0]!.epoch).to.be.greaterThan(0)
      expect(app.streams.state()).to.equal('RUNNING')
    })
  }

  it('an evicted member (a zombie) cannot commit its transaction: the group rejects its generation, it rejoins, counts exact', async () => {
    await h.start({ config: { ...EOS, numStreamThreads: 2 } })
    h.produce(200)
    await h.settle()
    const evicted = memberOf(h.kafka, h.applicationId, 'StreamThread-1-consumer')!
    const flowing = h.produceSlowly(300)
    await sleep(100)
    h.kafka.evictMember(h.applicationId, evicted.memberId)
    await flowing
    await verifyExactlyOnce(h)
  })

  it('two instances, one closed mid-stream, the other joining: every count exact', async () => {
    await h.start({ config: EOS })
    h.produce(200)
    await h.settle()
    const second = await h.start({ config: EOS })
    await h.produceSlowly(200)
    await second.streams.close()
    await h.produceSlowly(200)
    await verifyExactlyOnce(h)
  })

  it('the transactional id is <applicationId>-<processId>-<thread index>, the same after a restart on the same state directory', async () => {
    const app = await h.start({ config: EOS })
    h.produce(50)
    await h.settle()
    const [first, ...others] = h.kafka.transactionalIds()
    expect(others).to.deep.equal([])
    expect(first!.transactionalId).to.match(new RegExp(`^${h.applicationId}-[0-9a-f-]{36}-1$`))
    await app.streams.close()
    await h.start({ config: { ...EOS, stateDir: h.stateDirOf(app) } })
    h.produce(50)
    await verifyExactlyOnce(h)
    const [again, ...more] = h.kafka.transactionalIds()
    expect(more).to.deep.equal([])
    expect(again!.transactionalId).to.equal(first!.transactionalId)
    expect(again!.epoch, 'the restart bumped the epoch (fencing its predecessor)').to.be.greaterThan(first!.epoch)
  })

  it('refuses a transaction timeout below the commit interval, naming transactionTimeoutMs', () => {
    const kafka = new InMemoryKafka()
    try {
      expect(
        () =>
          new KafkaStreams(
            countingTopology(),
            { applicationId: 'x', ...EOS, commitIntervalMs: 5000, transactionTimeoutMs: 1000 },
            { client: kafka.client() }
          )
      )
        .to.throw(ConfigError)
        .with.property('key', 'transactionTimeoutMs')
    } finally {
      kafka.close()
    }
  })

  it("shouldThrowIfTransactionTimeoutSmallerThanCommitIntervalForEOS: producer['transaction.timeout.ms'] counts, over transactionTimeoutMs", () => {
    const kafka = new InMemoryKafka()
    try {
      const make = (producer: Record<string, number>) =>
        new KafkaStreams(
          countingTopology(),
          { applicationId: 'x', ...EOS, commitIntervalMs: 10000, transactionTimeoutMs: 60000, producer },
          { client: kafka.client() }
        )
      expect(() => make({ 'transaction.timeout.ms': 3000 }))
        .to.throw(ConfigError)
        .with.property('key', 'producer.transaction.timeout.ms')
      expect(make({ 'transaction.timeout.ms': 20000 }).state()).to.equal('CREATED')
    } finally {
      kafka.close()
    }
  })
})
