/**
 * Sends of a stream thread's producer (changelog writes here) that fail: a retriable error (a
 * lost connection, a leader that moved) is sent again, as Java's producer retries until its
 * delivery timeout, without a rebalance or an ERROR; a fencing error (a fenced producer, a lost
 * sequence) closes the thread's tasks as lost and the member rejoins, without an ERROR; any
 * other error goes to the production exception handler ('fail' by default: the thread dies with
 * SEND_FAILED), fatal ones excepted (see production-handler.test.ts).
 */
import { expect } from 'chai'
import type { KafkaErrorName } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness } from './streams-harness.js'

const PRODUCER = /-StreamThread-1-producer$/

describe('KafkaStreams on the in-memory Kafka: send errors', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  for (const error of ['NETWORK_EXCEPTION', 'NOT_LEADER_OR_FOLLOWER', 'REQUEST_TIMED_OUT'] as const satisfies readonly KafkaErrorName[]) {
    it(`changelog sends answered ${error} are sent again; no ERROR, counts right`, async () => {
      const app = await h.start()
      h.produce(100)
      await h.settle()
      const fault = h.kafka.failNext({ api: 'send', error, times: 4, clientId: PRODUCER })
      const flowing = h.produceSlowly(200)
      await eventually(() => fault.remaining === 0)
      await flowing
      await h.verify()
      expect(fault.hits).to.equal(4)
      expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
    })
  }

  it('a send that took effect but whose answer was lost (REQUEST_TIMED_OUT after processing) is sent again: duplicates in the changelog, counts right', async () => {
    const app = await h.start()
    h.produce(100)
    await h.settle()
    const before = h.kafka.topic(h.changelog).allRecords().length
    const fault = h.kafka.failNext({ api: 'send', error: 'REQUEST_TIMED_OUT', afterProcessing: true, clientId: PRODUCER })
    h.produce(40)
    await eventually(() => fault.hits === 1)
    await h.verify()
    // At least once: the lost answer's records were appended twice.
    expect(h.kafka.topic(h.changelog).allRecords().length).to.be.greaterThan(before + 40)
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  for (const error of [
    'OUT_OF_ORDER_SEQUENCE_NUMBER',
    'UNKNOWN_PRODUCER_ID',
    'INVALID_PRODUCER_EPOCH',
    'PRODUCER_FENCED'
  ] as const satisfies readonly KafkaErrorName[]) {
    it(`at_least_once, default handlers: a send answered ${error} closes the tasks as lost and the member rejoins (Kafka's TaskMigratedException); no ERROR, nothing lost`, async () => {
      const app = await h.start()
      h.produce(100)
      await h.settle()
      const generation = h.kafka.group(h.applicationId)!.generationId
      const fault = h.kafka.failNext({ api: 'send', error, clientId: PRODUCER })
      const flowing = h.produceSlowly(200)
      await eventually(() => fault.hits === 1)
      await flowing
      await h.verify()
      expect(h.kafka.group(h.applicationId)!.generationId, 'rejoined').to.be.greaterThan(generation)
      expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING', 'REBALANCING', 'RUNNING'])
    })
  }

  it('a send error that is not retriable goes to the production exception handler: by default the thread fails with SEND_FAILED', async () => {
    const app = await h.start({ handlerResponse: 'SHUTDOWN_CLIENT' })
    h.produce(100)
    await h.settle()
    // Every send fails (a batch that fails is sent again in halves, to find the records at fault).
    h.kafka.failNext({ api: 'send', error: 'MESSAGE_TOO_LARGE', times: Infinity, clientId: PRODUCER })
    h.produce(10)
    await eventually(() => app.streams.state() === 'ERROR')
    expect(app.errors.map(e => e.code)).to.deep.equal(['SEND_FAILED'])
    expect(app.errors[0]!.cause).to.have.property('errorName', 'MESSAGE_TOO_LARGE')
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING', 'PENDING_ERROR', 'ERROR'])
  })
})
