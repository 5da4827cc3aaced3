/**
 * The mapping of kafkajs errors to KafkaRequestErrors, without a broker: Kafka's current names by
 * protocol code (kafkajs' old names replaced), codes kafkajs does not know, the retriers'
 * wrappers unwrapped to the root error, connection failures and timeouts, kstreams' own errors
 * passed through, and anything else.
 */
import { createRequire } from 'node:module'
import { expect } from 'chai'
import * as kafkajsErrors from 'kafkajs'
import { IllegalStateError, isKafkaError, KafkaRequestError, SerializationError } from '@kstreams/core'
import { CLIENT_ERROR, toKafkaRequestError } from '../src/kafkajs-errors.js'

const require = createRequire(import.meta.url)
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode: (code: number) => Error & { type: string; retriable: boolean }
}

/** A kafkajs error, made as kafkajs makes it (its type declarations do not list every class or argument). */
function kafkajsError(className: string, ...args: unknown[]): Error {
  const ErrorClass = (kafkajsErrors as unknown as Record<string, new (...a: unknown[]) => Error>)[className]!
  return new ErrorClass(...args)
}

function mapped(error: unknown): KafkaRequestError {
  const result = toKafkaRequestError(error, 'Test request')
  expect(result).to.be.instanceOf(KafkaRequestError)
  return result as KafkaRequestError
}

describe('kafkajs error mapping', () => {
  it('names protocol errors as Kafka does today, by code, whatever kafkajs calls them', () => {
    const cases: Array<[number, string, string, boolean]> = [
      [16, 'NOT_COORDINATOR_FOR_GROUP', 'NOT_COORDINATOR', true],
      [15, 'GROUP_COORDINATOR_NOT_AVAILABLE', 'COORDINATOR_NOT_AVAILABLE', true],
      [14, 'GROUP_LOAD_IN_PROGRESS', 'COORDINATOR_LOAD_IN_PROGRESS', true],
      [6, 'NOT_LEADER_FOR_PARTITION', 'NOT_LEADER_OR_FOLLOWER', true],
      [25, 'UNKNOWN_MEMBER_ID', 'UNKNOWN_MEMBER_ID', false],
      [22, 'ILLEGAL_GENERATION', 'ILLEGAL_GENERATION', false],
      [27, 'REBALANCE_IN_PROGRESS', 'REBALANCE_IN_PROGRESS', false],
      [1, 'OFFSET_OUT_OF_RANGE', 'OFFSET_OUT_OF_RANGE', false],
      [47, 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_EPOCH', false]
    ]
    for (const [code, kafkajsType, name, retriable] of cases) {
      const cause = createErrorFromCode(code)
      expect(cause.type).to.equal(kafkajsType)
      const error = mapped(cause)
      expect(error.errorName, kafkajsType).to.equal(name)
      expect(error.errorCode).to.equal(code)
      expect(error.retriable, name).to.equal(retriable)
      expect(error.code).to.equal('KAFKA')
      expect(error.cause).to.equal(cause)
      expect(error.message).to.include('Test request failed').and.include(`(${name})`)
      expect(isKafkaError(error, name as never)).to.equal(true)
    }
  })

  it("keeps kafkajs' type for codes outside Kafka's table here, with kafkajs' retriable flag", () => {
    const error = mapped(createErrorFromCode(51))
    expect(error).to.deep.include({ errorName: 'CONCURRENT_TRANSACTIONS', errorCode: 51, retriable: true })
  })

  it('recovers codes kafkajs does not know from its message', () => {
    expect(mapped(createErrorFromCode(90))).to.deep.include({ errorName: 'PRODUCER_FENCED', errorCode: 90, retriable: false })
    expect(mapped(createErrorFromCode(120))).to.deep.include({ errorName: 'TRANSACTION_ABORTABLE', errorCode: 120 })
    expect(mapped(createErrorFromCode(999))).to.deep.include({ errorName: 'KAFKA_ERROR_999', errorCode: 999, retriable: false })
  })

  it("unwraps the retriers' wrappers to the root error", () => {
    const root = createErrorFromCode(16)
    const retried = kafkajsError('KafkaJSNumberOfRetriesExceeded', root, { retryCount: 5, retryTime: 100 })
    expect(mapped(retried)).to.deep.include({ errorName: 'NOT_COORDINATOR', retriable: true })
    expect(mapped(retried).cause).to.equal(retried)
    const bailed = kafkajsError('KafkaJSNonRetriableError', createErrorFromCode(25), { cause: createErrorFromCode(25) })
    expect(mapped(bailed).errorName).to.equal('UNKNOWN_MEMBER_ID')
    const connection = kafkajsError('KafkaJSNumberOfRetriesExceeded', kafkajsError('KafkaJSConnectionError', 'Connection timeout'), {
      retryCount: 5,
      retryTime: 100
    })
    expect(mapped(connection).errorName).to.equal('NETWORK_EXCEPTION')
    const aggregate = kafkajsError('KafkaJSAggregateError', 'several', [createErrorFromCode(36)])
    expect(mapped(aggregate).errorName).to.equal('TOPIC_ALREADY_EXISTS')
  })

  it('names connection failures NETWORK_EXCEPTION and unanswered requests REQUEST_TIMED_OUT', () => {
    for (const error of [
      kafkajsError('KafkaJSConnectionError', 'Connection error: ECONNREFUSED'),
      kafkajsError('KafkaJSConnectionClosedError', 'Closed connection', { host: 'h', port: 1 }),
      kafkajsError('KafkaJSBrokerNotFound', 'Broker 3 not found in the cached metadata'),
      kafkajsError('KafkaJSNoBrokerAvailableError')
    ]) {
      expect(mapped(error), error.name).to.deep.include({ errorName: 'NETWORK_EXCEPTION', errorCode: 13, retriable: true })
    }
    expect(mapped(kafkajsError('KafkaJSRequestTimeoutError', 'Request Fetch(key: 1, version: 11) timed out'))).to.deep.include({
      errorName: 'REQUEST_TIMED_OUT',
      errorCode: 7,
      retriable: true
    })
    expect(mapped(kafkajsError('KafkaJSGroupCoordinatorNotFound', 'Failed to find group coordinator')).errorName).to.equal(
      'COORDINATOR_NOT_AVAILABLE'
    )
    expect(mapped(kafkajsError('KafkaJSServerDoesNotSupportApiKey', 'no', { apiKey: 1, apiName: 'Fetch' })).errorName).to.equal(
      'UNSUPPORTED_VERSION'
    )
  })

  it("passes kstreams' own errors through, and names anything else CLIENT_ERROR", () => {
    const own = new SerializationError('null header')
    expect(toKafkaRequestError(own, 'x')).to.equal(own)
    const illegal = new IllegalStateError('closed')
    expect(toKafkaRequestError(illegal, 'x')).to.equal(illegal)

    const bug = mapped(new TypeError('boom'))
    expect(bug).to.deep.include({ errorName: CLIENT_ERROR, errorCode: -1, retriable: false })
    expect(mapped(kafkajsError('KafkaJSNonRetriableError', 'Transaction state exception')).retriable).to.equal(false)
    expect(mapped('a string').errorName).to.equal(CLIENT_ERROR)
  })

  it('a TLS handshake refused on a certificate is SSL_AUTHENTICATION_FAILED (not retried) naming the broker, however kafkajs wraps it', () => {
    const connection = kafkajsError('KafkaJSConnectionError', 'Connection error: self-signed certificate in certificate chain', {
      broker: 'b1:9093',
      code: 'SELF_SIGNED_CERT_IN_CHAIN'
    })
    const error = mapped(kafkajsError('KafkaJSNumberOfRetriesExceeded', connection, { retryCount: 5, retryTime: 8000 }))
    expect(error).to.deep.include({ errorName: 'SSL_AUTHENTICATION_FAILED', retriable: false })
    expect(error.message).to.include(
      'TLS handshake with broker b1:9093 failed: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)'
    )
    // A connection refused stays a retriable network error.
    const refused = kafkajsError('KafkaJSConnectionError', 'Connection error: connect ECONNREFUSED', {
      broker: 'b1:9093',
      code: 'ECONNREFUSED'
    })
    expect(mapped(refused)).to.deep.include({ errorName: 'NETWORK_EXCEPTION', retriable: true })
  })

  it("finds kstreams' own error inside kafkajs' wrappers (the adapter's SASL authenticators throw inside kafkajs)", () => {
    const own = new KafkaRequestError('SASL_AUTHENTICATION_FAILED', 'SASL PLAIN authentication with broker b1:9096 failed: invalid')
    expect(toKafkaRequestError(kafkajsError('KafkaJSNonRetriableError', own, { cause: own }), 'x')).to.equal(own)
  })

  it('an authorization error names the operation and the resource the request needed, the topic from the error when it has one', () => {
    const denied = createErrorFromCode(29)
    const produce = toKafkaRequestError(denied, 'Send by producer p', { api: 'Produce', topics: ['a', 'out'] }) as KafkaRequestError
    expect(produce.errorName).to.equal('TOPIC_AUTHORIZATION_FAILED')
    expect(produce.message).to.equal(
      'Send by producer p failed: not authorized to WRITE one of the topics "a", "out" (Produce) (TOPIC_AUTHORIZATION_FAILED)'
    )
    const create = kafkajsError('KafkaJSAggregateError', 'Topic creation errors', [
      kafkajsError('KafkaJSCreateTopicError', createErrorFromCode(29), 'app-Counts-changelog')
    ])
    expect((toKafkaRequestError(create, 'Creating topics', { api: 'CreateTopics' }) as KafkaRequestError).message).to.include(
      'not authorized to CREATE topic "app-Counts-changelog"'
    )
    const group = toKafkaRequestError(createErrorFromCode(30), 'JoinGroup of group app', { api: 'JoinGroup', group: 'app' })
    expect(group.message).to.include('not authorized to READ group "app" (JoinGroup)')
  })
})
