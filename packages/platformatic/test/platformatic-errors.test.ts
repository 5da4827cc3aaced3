/**
 * The mapping of @platformatic/kafka errors to KafkaRequestErrors, without a broker: protocol
 * errors by code (alone, inside a ResponseError, under retry wrappers), codes outside core's
 * table, connection failures, timeouts while connecting and while waiting for an answer,
 * authentication, kstreams' own errors passed through, and anything else.
 */
import { expect } from 'chai'
import {
  AuthenticationError,
  MultipleErrors,
  NetworkError,
  ProtocolError,
  ResponseError,
  TimeoutError,
  UnsupportedApiError,
  UserError
} from '@platformatic/kafka'
import { IllegalStateError, isKafkaError, KafkaRequestError } from '@kstreams/core'
import { CLIENT_ERROR, fromErrorCode, toKafkaRequestError } from '../src/platformatic-errors.js'

function mapped(error: unknown, phase: 'connect' | 'request' = 'request'): KafkaRequestError {
  const result = toKafkaRequestError(error, 'Test request', phase)
  expect(result).to.be.instanceOf(KafkaRequestError)
  return result as KafkaRequestError
}

describe('platformatic error mapping', () => {
  it("names protocol errors by code with Kafka's retriable flag, inside a ResponseError and under retry wrappers", () => {
    const cases: Array<[number, string, boolean]> = [
      [16, 'NOT_COORDINATOR', true],
      [25, 'UNKNOWN_MEMBER_ID', false],
      [22, 'ILLEGAL_GENERATION', false],
      [88, 'UNSTABLE_OFFSET_COMMIT', true],
      [90, 'PRODUCER_FENCED', false],
      [47, 'INVALID_PRODUCER_EPOCH', false],
      [1, 'OFFSET_OUT_OF_RANGE', false]
    ]
    for (const [code, name, retriable] of cases) {
      const plain = mapped(new ProtocolError(code))
      expect(plain).to.deep.include({ errorName: name, errorCode: code, retriable, code: 'KAFKA' })
      const response = new ResponseError(11, 9, { '': [code, 'server says no'] }, { errorCode: code })
      const inResponse = mapped(response)
      expect(inResponse.errorName, name).to.equal(name)
      expect(inResponse.cause).to.equal(response)
      expect(inResponse.message).to.include('Test request failed').and.include(`(${name})`)
      expect(mapped(new MultipleErrors('join failed 3 times.', [new NetworkError('Connection closed'), response])).errorName).to.equal(name)
    }
  })

  it("names codes outside core's table as Kafka does, with Kafka's retriable flag", () => {
    expect(mapped(new ProtocolError(51))).to.deep.include({ errorName: 'CONCURRENT_TRANSACTIONS', errorCode: 51, retriable: true })
    expect(fromErrorCode(51, 'AddPartitionsToTxn')).to.deep.include({
      errorName: 'CONCURRENT_TRANSACTIONS',
      errorCode: 51,
      retriable: true
    })
    expect(fromErrorCode(40, 'CreateTopics', 'bad value')).to.deep.include({ errorName: 'INVALID_CONFIG', errorCode: 40, retriable: false })
    expect(fromErrorCode(40, 'CreateTopics', 'bad value').message).to.include('bad value')
    expect(fromErrorCode(9999, 'X')).to.deep.include({ errorName: 'KAFKA_ERROR_9999', errorCode: 9999 })
    expect(fromErrorCode(27, 'Heartbeat')).to.deep.include({ errorName: 'REBALANCE_IN_PROGRESS', errorCode: 27 })
  })

  it('names a failed connection NETWORK_EXCEPTION and an unanswered request REQUEST_TIMED_OUT', () => {
    expect(mapped(new NetworkError('Connection closed'))).to.deep.include({
      errorName: 'NETWORK_EXCEPTION',
      errorCode: 13,
      retriable: true
    })
    expect(
      mapped(new MultipleErrors('Cannot connect to any broker.', [new NetworkError('Connection to h:1 failed.')]), 'connect').errorName
    ).to.equal('NETWORK_EXCEPTION')
    expect(mapped(new TimeoutError('Request timed out'))).to.deep.include({ errorName: 'REQUEST_TIMED_OUT', errorCode: 7, retriable: true })
    // A timeout while connecting is a connection that failed.
    expect(mapped(new TimeoutError('Connection to h:1 timed out.'), 'connect').errorName).to.equal('NETWORK_EXCEPTION')
    expect(mapped(new TimeoutError('Request timed out'), 'connect').errorName).to.equal('NETWORK_EXCEPTION')
  })

  it("names SASL failures, unsupported APIs, passes kstreams' own errors through and names anything else CLIENT_ERROR", () => {
    expect(
      mapped(new NetworkError('Connection to h:1 failed.', { cause: new AuthenticationError('SASL authentication failed.') })).errorName
    ).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(mapped(new UnsupportedApiError('Unsupported API Fetch.')).errorName).to.equal('UNSUPPORTED_VERSION')
    const own = new IllegalStateError('closed')
    expect(toKafkaRequestError(own, 'x')).to.equal(own)
    expect(mapped(new UserError('Failed to serialize a message.'))).to.deep.include({
      errorName: CLIENT_ERROR,
      errorCode: -1,
      retriable: false
    })
    expect(mapped(new TypeError('boom')).errorName).to.equal(CLIENT_ERROR)
    expect(mapped('a string').errorName).to.equal(CLIENT_ERROR)
    expect(isKafkaError(mapped(new ProtocolError(25)), 'UNKNOWN_MEMBER_ID')).to.equal(true)
  })

  it('a TLS handshake refused on a certificate is SSL_AUTHENTICATION_FAILED (not retried) naming the broker of the failed connection', () => {
    const tls = Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' })
    const error = mapped(
      new MultipleErrors('Cannot connect to any broker.', [new NetworkError('Connection to b1:9093 failed.', { cause: tls })]),
      'connect'
    )
    expect(error).to.deep.include({ errorName: 'SSL_AUTHENTICATION_FAILED', retriable: false })
    expect(error.message).to.include(
      'TLS handshake with broker b1:9093 failed: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)'
    )
  })

  it("finds kstreams' own error inside platformatic's wrappers (the adapter's SASL authenticators fail inside platformatic)", () => {
    const own = new KafkaRequestError('SASL_AUTHENTICATION_FAILED', 'SASL SCRAM-SHA-512 authentication with broker b1:9096 failed: invalid')
    expect(toKafkaRequestError(new NetworkError('Connection to b1:9096 failed.', { cause: own }), 'x', 'connect')).to.equal(own)
  })

  it('an authorization error names the operation and resource: the API and the refused topic from the response when platformatic has them', () => {
    expect(fromErrorCode(29, 'Fetch of in-0', null, { api: 'Fetch', topic: 'in' }).message).to.equal(
      'Fetch of in-0 failed: not authorized to READ topic "in" (Fetch) (TOPIC_AUTHORIZATION_FAILED)'
    )
    const response = {
      resultsByTransaction: [
        {
          topicResults: [
            { name: 'changelog', resultsByPartition: [{ partitionIndex: 0, partitionErrorCode: 55 }] },
            { name: 'out', resultsByPartition: [{ partitionIndex: 1, partitionErrorCode: 29 }] }
          ]
        }
      ]
    }
    const refused = new ResponseError(24, 3, { '/results_by_transaction/0/topic_results/1/results_by_partitions/0': [29, null] }, response)
    const error = toKafkaRequestError(refused, 'Send by producer p', 'request', {
      api: 'Produce',
      topics: ['changelog', 'out'],
      transactionalId: 't'
    })
    expect(error.message).to.equal(
      'Send by producer p failed: not authorized to WRITE topic "out" (AddPartitionsToTxn) (TOPIC_AUTHORIZATION_FAILED)'
    )
  })
})
