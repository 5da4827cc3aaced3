/**
 * Authentication and authorization errors, as Kafka Streams treats them: fatal to the thread
 * wherever they come from, never retried. The thread dies, the uncaught-exception handler decides
 * (SHUTDOWN_CLIENT here, the default) and the client goes to ERROR: a fetch refused on one input
 * partition (no READ on the topic; Java's consumer throws TopicAuthorizationException from poll),
 * a broker that refuses the credentials on every fetch, and under exactly_once_v2 a send refused
 * in the transaction (no WRITE on the output), which must not be taken for a failed transaction
 * to try again.
 */
import { expect } from 'chai'
import type { KafkaErrorName } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, INPUT } from './streams-harness.js'

const CONSUMER = /-StreamThread-1-consumer$/
const PRODUCER = /-StreamThread-1-producer$/

describe('KafkaStreams on the in-memory Kafka: authentication and authorization errors are fatal', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 2 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('a fetch refused on an input partition (TOPIC_AUTHORIZATION_FAILED): the thread fails with it, the client goes to ERROR', async () => {
    const app = await h.start({ handlerResponse: 'SHUTDOWN_CLIENT' })
    h.produce(20)
    await h.settle()
    h.kafka.failNext({ api: 'fetch', topic: INPUT, partition: 1, error: 'TOPIC_AUTHORIZATION_FAILED', times: Infinity, clientId: CONSUMER })
    h.produce(20)
    await eventually(() => app.streams.state() === 'ERROR')
    expect(app.errors.map(e => (e as { errorName?: string }).errorName)).to.deep.equal(['TOPIC_AUTHORIZATION_FAILED'])
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING', 'PENDING_ERROR', 'ERROR'])
  })

  for (const error of ['SASL_AUTHENTICATION_FAILED', 'SSL_AUTHENTICATION_FAILED'] as const satisfies readonly KafkaErrorName[]) {
    it(`every fetch failing with ${error}: the thread fails with it, not retrying; ERROR`, async () => {
      const app = await h.start({ handlerResponse: 'SHUTDOWN_CLIENT' })
      h.produce(20)
      await h.settle()
      h.kafka.failNext({ api: 'fetch', error, times: Infinity, clientId: CONSUMER })
      h.produce(20)
      await eventually(() => app.streams.state() === 'ERROR')
      expect(app.errors.map(e => (e as { errorName?: string }).errorName)).to.deep.equal([error])
    })
  }

  it('exactly_once_v2: a send refused in the transaction (TOPIC_AUTHORIZATION_FAILED) fails the thread (SEND_FAILED); not a transaction to try again', async () => {
    const app = await h.start({ handlerResponse: 'SHUTDOWN_CLIENT', config: { processingGuarantee: 'exactly_once_v2' } })
    h.produce(20)
    await h.settle()
    const fault = h.kafka.failNext({ api: 'send', error: 'TOPIC_AUTHORIZATION_FAILED', times: Infinity, clientId: PRODUCER })
    h.produce(20)
    await eventually(() => app.streams.state() === 'ERROR')
    expect(fault.hits).to.equal(1)
    expect(app.errors.map(e => e.code)).to.deep.equal(['SEND_FAILED'])
    expect(app.errors[0]!.cause).to.have.property('errorName', 'TOPIC_AUTHORIZATION_FAILED')
  })
})
