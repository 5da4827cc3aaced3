/**
 * The security errors both adapters make: messages that name their cause themselves (the SASL
 * mechanism and broker; the broker and TLS error with what to do; the operation and resource an
 * ACL refused), the TLS failure found however deep a client wraps it, and which errors are fatal.
 */
import { expect } from 'chai'
import { KafkaRequestError, kafkaErrorName } from '../../../src/runtime/kafka/kafka-request-error.js'
import {
  errorChain,
  isAclApi,
  isSecurityError,
  notAuthorizedReason,
  saslAuthenticationError,
  sslAuthenticationError,
  tlsFailureOf
} from '../../../src/runtime/kafka/security-errors.js'

describe('security errors', () => {
  it('SASL: SASL_AUTHENTICATION_FAILED naming the mechanism, the broker and the reason, not retriable', () => {
    const error = saslAuthenticationError({ mechanism: 'scram-sha-512', broker: 'b1:9096', reason: 'invalid credentials' })
    expect(error.errorName).to.equal('SASL_AUTHENTICATION_FAILED')
    expect(error.errorCode).to.equal(58)
    expect(error.retriable).to.equal(false)
    expect(error.message).to.equal(
      'SASL SCRAM-SHA-512 authentication with broker b1:9096 failed: invalid credentials (SASL_AUTHENTICATION_FAILED)'
    )
  })

  it('TLS: found under any wrapping, OpenSSL noise removed; SSL_AUTHENTICATION_FAILED with what to do, not retriable', () => {
    const node = Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' })
    const wrapped = new AggregateError([new Error('other'), new Error('Connection to b1:9093 failed.', { cause: node })], 'Cannot connect')
    const untrusted = tlsFailureOf(wrapped)!
    expect(untrusted).to.deep.equal({ code: 'SELF_SIGNED_CERT_IN_CHAIN', message: 'self-signed certificate in certificate chain' })
    const error = sslAuthenticationError({ broker: 'b1:9093', failure: untrusted })
    expect(error.errorName).to.equal('SSL_AUTHENTICATION_FAILED')
    expect(error.retriable).to.equal(false)
    expect(error.message).to.include(
      'TLS handshake with broker b1:9093 failed: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)'
    )
    expect(error.message).to.include('ssl.ca')

    const alert = {
      code: 'ERR_SSL_SSL/TLS_ALERT_BAD_CERTIFICATE',
      message:
        '40E7:error:0A000412:SSL routines:ssl3_read_bytes:ssl/tls alert bad certificate:../deps/openssl/rec_layer_s3.c:918:SSL alert number 42\n'
    }
    const refused = tlsFailureOf({ message: 'Connection error', cause: alert })!
    expect(refused.message).to.equal('ssl/tls alert bad certificate')
    expect(sslAuthenticationError({ broker: 'b1:9093', failure: refused }).message).to.include(
      "the broker refused the client's certificate"
    )
    const host = tlsFailureOf({ code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: "Hostname/IP does not match certificate's altnames" })!
    expect(sslAuthenticationError({ broker: 'b1:9093', failure: host }).message).to.include('ssl.servername')

    // Not TLS: a refused connection, a reset.
    expect(tlsFailureOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).to.equal(undefined)
    expect(tlsFailureOf('text')).to.equal(undefined)
  })

  it('SSL_AUTHENTICATION_FAILED has no code of its own: -1 stays UNKNOWN_SERVER_ERROR', () => {
    expect(kafkaErrorName(-1)).to.equal('UNKNOWN_SERVER_ERROR')
    expect(new KafkaRequestError('SSL_AUTHENTICATION_FAILED', 'x').errorCode).to.equal(-1)
  })

  it('authorization: the operation the request needs on the refused resource', () => {
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'Produce', topic: 'out' })).to.equal(
      'not authorized to WRITE topic "out" (Produce)'
    )
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'Fetch', topic: 'in' })).to.equal(
      'not authorized to READ topic "in" (Fetch)'
    )
    expect(notAuthorizedReason('GROUP_AUTHORIZATION_FAILED', { api: 'FindCoordinator', group: 'app' })).to.equal(
      'not authorized to DESCRIBE group "app" (FindCoordinator)'
    )
    expect(notAuthorizedReason('GROUP_AUTHORIZATION_FAILED', { api: 'JoinGroup', group: 'app' })).to.include('READ group "app"')
    expect(notAuthorizedReason('TRANSACTIONAL_ID_AUTHORIZATION_FAILED', { api: 'InitProducerId', transactionalId: 'app-1' })).to.equal(
      'not authorized to WRITE transactional id "app-1" (InitProducerId)'
    )
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'CreateTopics', topic: 'app-store-changelog' })).to.equal(
      'not authorized to CREATE topic "app-store-changelog" (or CREATE on the cluster) (CreateTopics)'
    )
    expect(notAuthorizedReason('CLUSTER_AUTHORIZATION_FAILED', { api: 'InitProducerId' })).to.equal(
      'not authorized to IDEMPOTENT_WRITE on the cluster (InitProducerId)'
    )
    // The broker's answer did not say which topic: the candidates.
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'Produce', topics: ['a', 'b'] })).to.equal(
      'not authorized to WRITE one of the topics "a", "b" (Produce)'
    )
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'Produce', topics: ['a'] })).to.include('WRITE topic "a"')
    expect(notAuthorizedReason('TOPIC_AUTHORIZATION_FAILED', { api: 'Produce' })).to.include('WRITE the topic')
    expect(notAuthorizedReason('NOT_COORDINATOR', { api: 'JoinGroup', group: 'app' })).to.equal(undefined)
    expect(isAclApi('TxnOffsetCommit')).to.equal(true)
    expect(isAclApi('toString')).to.equal(false)
  })

  it('authentication and authorization errors are security errors (fatal); others are not', () => {
    for (const name of [
      'TOPIC_AUTHORIZATION_FAILED',
      'SASL_AUTHENTICATION_FAILED',
      'SSL_AUTHENTICATION_FAILED',
      'GROUP_AUTHORIZATION_FAILED'
    ]) {
      expect(isSecurityError(new KafkaRequestError(name, 'x')), name).to.equal(true)
    }
    expect(isSecurityError(new KafkaRequestError('NOT_LEADER_OR_FOLLOWER', 'x'))).to.equal(false)
    expect(isSecurityError(new Error('TOPIC_AUTHORIZATION_FAILED'))).to.equal(false)
  })

  it('errorChain: causes and aggregated errors, outermost first, each once', () => {
    const inner = new Error('inner')
    const loop: { message: string; cause?: unknown } = { message: 'loop' }
    loop.cause = loop
    const outer = new Error('outer', { cause: new AggregateError([inner, loop], 'many') })
    expect(errorChain(outer).map(e => (e as Error).message)).to.deep.equal(['outer', 'many', 'inner', 'loop'])
  })
})
