/**
 * Offset commits that time out: the group member retries them within defaultApiTimeoutMs, the
 * stream thread tries again at its next iterations (processing goes on meanwhile) until they have
 * failed for taskTimeoutMs, and only then does the thread fail, with a typed error, through the
 * uncaught-exception handler (Kafka Streams' task.timeout.ms).
 */
import { expect } from 'chai'
import type { StreamsError } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, sleep } from './streams-harness.js'

const THREAD_1 = /-StreamThread-1-consumer$/

describe('KafkaStreams on the in-memory Kafka: commits timing out', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('a few REQUEST_TIMED_OUT answers are retried by the group member; no ERROR, counts right', async () => {
    await h.start({ config: { numStreamThreads: 2 } })
    h.produce(200)
    await h.settle()
    const fault = h.kafka.failNext({ api: 'commitOffsets', error: 'REQUEST_TIMED_OUT', times: 3, clientId: THREAD_1 })
    const flowing = h.produceSlowly(200)
    await eventually(() => fault.remaining === 0)
    await flowing
    await h.verify()
    const commits = h.kafka.requests({ api: 'commitOffsets', clientId: THREAD_1 })
    const firstFailure = commits.findIndex(r => r.error === 'REQUEST_TIMED_OUT')
    // Three failures in a row, then the same commit went through: no rebalance in between.
    expect(commits.slice(firstFailure, firstFailure + 4).map(r => r.error)).to.deep.equal([
      'REQUEST_TIMED_OUT',
      'REQUEST_TIMED_OUT',
      'REQUEST_TIMED_OUT',
      undefined
    ])
    expect(h.apps[0]!.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  it('commits failing for longer than defaultApiTimeoutMs are tried again at the next iterations while processing goes on', async () => {
    await h.start({ config: { numStreamThreads: 1, defaultApiTimeoutMs: 300 } })
    h.produce(200)
    await h.settle()
    const committedBefore = h.kafka.group(h.applicationId)!.committed
    const fault = h.kafka.failNext({ api: 'commitOffsets', error: 'REQUEST_TIMED_OUT', times: Infinity, clientId: THREAD_1 })
    h.produce(100)
    // Processed although no commit goes through: the thread does not stop at a failed commit.
    await eventually(() => sum(h.storeContents()) === 300)
    await sleep(700) // more than two commit attempts of defaultApiTimeoutMs each
    expect(h.kafka.group(h.applicationId)!.committed).to.deep.equal(committedBefore)
    const hits = fault.hits
    fault.remove()
    await h.verify()
    expect(hits).to.be.greaterThan(5)
    expect(h.apps[0]!.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  it('commits failing for longer than taskTimeoutMs fail the thread with a typed error, through the handler', async () => {
    const app = await h.start({
      config: { numStreamThreads: 1, taskTimeoutMs: 2000, defaultApiTimeoutMs: 500 },
      handlerResponse: 'SHUTDOWN_CLIENT'
    })
    h.produce(200)
    await h.settle()
    const committedBefore = h.kafka.group(h.applicationId)!.committed
    h.kafka.failNext({ api: 'commitOffsets', error: 'REQUEST_TIMED_OUT', times: Infinity, clientId: THREAD_1 })
    h.produce(100)
    const started = Date.now()
    await eventually(() => app.streams.state() === 'ERROR', 10_000)
    const elapsed = Date.now() - started
    expect(app.errors).to.have.length(1)
    const error: StreamsError = app.errors[0]!
    expect(error.code).to.equal('KAFKA')
    expect(error.cause).to.have.property('errorName', 'REQUEST_TIMED_OUT')
    expect(error.cause).to.have.property('retriable', true)
    expect(elapsed).to.be.within(2000, 6000)
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING', 'PENDING_ERROR', 'ERROR'])
    // Nothing was committed once the commits began to fail.
    expect(h.kafka.group(h.applicationId)!.committed).to.deep.equal(committedBefore)
  })
})

const sum = (m: ReadonlyMap<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0)
