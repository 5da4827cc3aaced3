/**
 * close() while start() has not finished, with three stream threads: whatever start() started is
 * stopped (every thread ends DEAD), the client ends NOT_RUNNING, and no client of the instance
 * sends anything - no fetch, no heartbeat, no commit - once close() has resolved.
 */
import { expect } from 'chai'
import type { RequestRecord } from '@kstreams/testing/in-memory-kafka'
import type { App } from './streams-harness.js'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, sleep } from './streams-harness.js'

/** When close() resolved, and the requests logged by then (a request logged by then ended, so started, before). */
interface Closed {
  readonly at: number
  readonly logged: ReadonlySet<RequestRecord>
}

describe('KafkaStreams on the in-memory Kafka: close() during start()', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 6 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  const closedNow = (): Closed => ({ at: Date.now(), logged: new Set(h.kafka.requests()) })

  /** The instance is stopped for good: NOT_RUNNING, no thread left, nothing sent after close resolved (watched for `watchMs`). */
  async function expectStopped(app: App, closed: Closed, watchMs = 700): Promise<void> {
    await sleep(watchMs)
    expect(app.streams.state()).to.equal('NOT_RUNNING')
    expect(app.states.slice(-2)).to.deep.equal(['PENDING_SHUTDOWN', 'NOT_RUNNING'])
    expect(app.states).to.not.include('ERROR')
    expect(app.streams.metadataForLocalThreads()).to.deep.equal([])
    const late = h.kafka.requests().filter(r => r.clientId.startsWith(h.applicationId) && r.startMs >= closed.at && !closed.logged.has(r))
    expect(late.map(r => `${r.api} ${r.clientId}`)).to.deep.equal([])
  }

  it('close() right after start() was called (not awaited): start() resolves, no thread outlives the close', async () => {
    h.produce(100)
    const app = await h.create({ config: { numStreamThreads: 3 } })
    const starting = app.streams.start()
    await app.streams.close()
    const closed = closedNow()
    await starting
    await expectStopped(app, closed)
    expect(app.states).to.deep.equal(['REBALANCING', 'PENDING_SHUTDOWN', 'NOT_RUNNING'])
    // start() stopped before its first thread: the instance never reached the broker.
    expect(h.kafka.requests().filter(r => r.clientId.startsWith(h.applicationId))).to.deep.equal([])
  })

  it('close() while the three threads wait in a slow JoinGroup: every thread gives up its join and stops at once', async () => {
    h.produce(100)
    h.kafka.delay({ api: 'joinGroup', ms: 1500, times: 3, clientId: /-StreamThread-\d-consumer$/ })
    const app = await h.create({ config: { numStreamThreads: 3 } })
    await app.streams.start()
    expect(app.streams.metadataForLocalThreads().map(t => t.threadName)).to.deep.equal([
      'StreamThread-1',
      'StreamThread-2',
      'StreamThread-3'
    ])
    await sleep(100)
    expect(app.streams.state()).to.equal('REBALANCING')
    const started = Date.now()
    await app.streams.close()
    const closed = closedNow()
    expect(closed.at - started).to.be.below(1000) // did not wait for the JoinGroup answers
    await expectStopped(app, closed, 1800)
    expect(app.states).to.deep.equal(['REBALANCING', 'PENDING_SHUTDOWN', 'NOT_RUNNING'])
    // Nothing was processed or committed.
    expect(h.kafka.group(h.applicationId)?.committed.size ?? 0).to.equal(0)
  })

  it('close() while the threads are assigned and restoring: they stop, and commit nothing after close resolved', async () => {
    const first = await h.start()
    h.produce(3000)
    await h.settle()
    await first.streams.close()
    const app = await h.create({ config: { numStreamThreads: 3 } })
    h.kafka.delay({ api: 'fetch', ms: 300, times: Infinity, clientId: /-restore-consumer$/ })
    await app.streams.start()
    await eventually(() => app.streams.restoreProgress().length > 0)
    expect(app.streams.state()).to.equal('REBALANCING')
    await app.streams.close()
    const closed = closedNow()
    await expectStopped(app, closed)
  })
})
