/**
 * The errors of a client that cannot authenticate or is not authorized, made alike by both
 * adapters, each message naming its cause in its own words (not only in a nested cause): the SASL
 * mechanism and the broker that refused the credentials, the broker whose TLS handshake failed
 * and why, the resource and operation an ACL does not allow. Kafka Streams treats all of them as
 * fatal: the thread fails and the uncaught-exception handler decides (isSecurityError).
 * @internal For client adapters.
 */
import { isKafkaError, KafkaRequestError, type KafkaErrorName } from './kafka-request-error.js'

/** `error` and everything it wraps (`cause`, an AggregateError's `errors`), outermost first. */
export function errorChain(error: unknown): readonly object[] {
  const out: object[] = []
  const visit = (e: unknown, depth: number): void => {
    if (e === null || typeof e !== 'object' || depth > 8 || out.includes(e)) return
    out.push(e)
    const { errors, cause } = e as { errors?: unknown; cause?: unknown }
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1)
    visit(cause, depth + 1)
  }
  visit(error, 0)
  return out
}

/** A SASL handshake the broker refused (wrong password, unknown user, a refused token): SASL_AUTHENTICATION_FAILED. */
export function saslAuthenticationError(options: {
  /** Kafka's name of the mechanism (SCRAM-SHA-512). */
  readonly mechanism: string
  /** `host:port` of the broker (the listener) that refused it. */
  readonly broker: string
  /** The broker's reason, or the client's. */
  readonly reason: string
  readonly cause?: unknown
}): KafkaRequestError {
  return new KafkaRequestError(
    'SASL_AUTHENTICATION_FAILED',
    `SASL ${options.mechanism.toUpperCase()} authentication with broker ${options.broker} failed: ${options.reason}`,
    { cause: options.cause }
  )
}

/** OpenSSL's certificate verification results, as Node's TLS errors carry them in `code`. */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED'
])
const HOSTNAME_MISMATCH = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'])
/** A TLS alert from the broker (ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE, ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED, ...). */
const BROKER_ALERT = /^ERR_SSL_.*ALERT/

/** A failed TLS handshake, as Node reported it. */
export interface TlsFailure {
  /** Node's (OpenSSL's) code: SELF_SIGNED_CERT_IN_CHAIN, ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE, ... */
  readonly code: string
  /** Its message, OpenSSL's reason only. */
  readonly message: string
}

/** The TLS failure in `error`'s chain: a certificate Node did not trust, or a TLS alert from the broker. */
export function tlsFailureOf(error: unknown): TlsFailure | undefined {
  for (const e of errorChain(error)) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code !== 'string') continue
    if (UNTRUSTED_CERTIFICATE.has(code) || HOSTNAME_MISMATCH.has(code) || BROKER_ALERT.test(code))
      return { code, message: typeof message === 'string' ? readable(message) : code }
  }
  return undefined
}

/** OpenSSL's reason out of its error line (`...:SSL routines:ssl3_read_bytes:ssl/tls alert bad certificate:../deps/...`), without a client's prefix. */
function readable(message: string): string {
  const openssl = /:SSL routines:[^:]*:([^:]+):/.exec(message)
  if (openssl !== null) return openssl[1]!
  return (message.split('\n')[0] ?? '').replace(/^Connection error: /, '').trim()
}

/** What a user does about a TLS failure. */
function tlsAdvice(code: string): string {
  if (HOSTNAME_MISMATCH.has(code))
    return "the broker's certificate does not name the host connected to: connect by a name it has, or set ssl.servername"
  if (BROKER_ALERT.test(code))
    return "the broker refused the client's certificate (mTLS): give ssl.cert and ssl.key (or ssl.pfx) issued by a CA the broker trusts"
  return "the broker's certificate is not trusted: give the CA that issued it as ssl.ca (ssl: true trusts the system's CAs only)"
}

/** A TLS handshake that failed on a certificate, either side's: SSL_AUTHENTICATION_FAILED (not retriable). */
export function sslAuthenticationError(options: {
  /** `host:port` of the broker. */
  readonly broker: string
  /** From tlsFailureOf. */
  readonly failure: TlsFailure
  readonly cause?: unknown
}): KafkaRequestError {
  const { code, message } = options.failure
  return new KafkaRequestError(
    'SSL_AUTHENTICATION_FAILED',
    `TLS handshake with broker ${options.broker} failed: ${message} (${code}); ${tlsAdvice(code)}`,
    { cause: options.cause }
  )
}

/** An ACL'd operation, as Kafka's authorizer names it. */
export type AclOperation = 'READ' | 'WRITE' | 'CREATE' | 'DELETE' | 'DESCRIBE' | 'DESCRIBE_CONFIGS' | 'IDEMPOTENT_WRITE'

interface Needs {
  readonly topic?: AclOperation
  readonly group?: AclOperation
  readonly transactionalId?: AclOperation
  readonly cluster?: AclOperation
}

/** What each request needs of each resource (Kafka's "Operations and Resources on Protocols"). */
const NEEDS = {
  Produce: { topic: 'WRITE', transactionalId: 'WRITE', cluster: 'IDEMPOTENT_WRITE' },
  Fetch: { topic: 'READ' },
  ListOffsets: { topic: 'DESCRIBE' },
  Metadata: { topic: 'DESCRIBE' },
  OffsetCommit: { group: 'READ', topic: 'READ' },
  OffsetFetch: { group: 'DESCRIBE', topic: 'DESCRIBE' },
  FindCoordinator: { group: 'DESCRIBE', transactionalId: 'DESCRIBE' },
  JoinGroup: { group: 'READ' },
  SyncGroup: { group: 'READ' },
  Heartbeat: { group: 'READ' },
  LeaveGroup: { group: 'READ' },
  DescribeGroups: { group: 'DESCRIBE' },
  DeleteGroups: { group: 'DELETE' },
  CreateTopics: { topic: 'CREATE', cluster: 'CREATE' },
  DeleteTopics: { topic: 'DELETE' },
  DeleteRecords: { topic: 'DELETE' },
  DescribeConfigs: { topic: 'DESCRIBE_CONFIGS' },
  InitProducerId: { transactionalId: 'WRITE', cluster: 'IDEMPOTENT_WRITE' },
  AddPartitionsToTxn: { transactionalId: 'WRITE', topic: 'WRITE' },
  AddOffsetsToTxn: { transactionalId: 'WRITE', group: 'READ' },
  EndTxn: { transactionalId: 'WRITE' },
  TxnOffsetCommit: { transactionalId: 'WRITE', group: 'READ', topic: 'READ' }
} as const satisfies Record<string, Needs>

/**
 * A Kafka request an ACL can refuse, by Kafka's API name (`Produce`, `JoinGroup`, ...).
 * @useDeclaredType
 */
export type AclApi = keyof typeof NEEDS

/** Whether `name` is the name of a request an ACL can refuse (Kafka's API name, e.g. `FindCoordinator`). */
export function isAclApi(name: string): name is AclApi {
  return Object.hasOwn(NEEDS, name)
}

/** The request that failed, and the resources it named. */
export interface AclRequest {
  /** The request. */
  readonly api: AclApi
  /** The topic it named. */
  readonly topic?: string | undefined
  /** The topics of a request over several, when the broker's answer does not say which one was refused. */
  readonly topics?: readonly string[] | undefined
  /** The group it named. */
  readonly group?: string | undefined
  /** The transactional id it named. */
  readonly transactionalId?: string | undefined
}

const RESOURCE_OF: Partial<Record<string, { readonly kind: keyof Needs; readonly label: string }>> = {
  TOPIC_AUTHORIZATION_FAILED: { kind: 'topic', label: 'topic' },
  GROUP_AUTHORIZATION_FAILED: { kind: 'group', label: 'group' },
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: { kind: 'transactionalId', label: 'transactional id' },
  CLUSTER_AUTHORIZATION_FAILED: { kind: 'cluster', label: 'cluster' }
}

/**
 * For an authorization error of `request`: which operation on which resource the principal may
 * not do, e.g. `not authorized to WRITE topic "orders"`; undefined for other errors.
 */
export function notAuthorizedReason(errorName: string, request: AclRequest): string | undefined {
  const resource = RESOURCE_OF[errorName]
  if (resource === undefined) return undefined
  const needs: Needs = NEEDS[request.api]
  if (resource.kind === 'cluster') {
    return needs.cluster === undefined
      ? `not authorized on the cluster (${request.api})`
      : `not authorized to ${needs.cluster} on the cluster (${request.api})`
  }
  const operation = needs[resource.kind]
  const name = request[resource.kind]
  const candidates = resource.kind === 'topic' && name === undefined ? (request.topics ?? []) : []
  const target =
    name !== undefined
      ? `${resource.label} "${name}"`
      : candidates.length === 1
        ? `topic "${candidates[0]!}"`
        : candidates.length > 1
          ? `one of the topics ${candidates.map(t => `"${t}"`).join(', ')}`
          : `the ${resource.label}`
  if (operation === undefined) return `not authorized to access ${target} (${request.api})`
  const alternative = request.api === 'CreateTopics' ? ' (or CREATE on the cluster)' : ''
  return `not authorized to ${operation} ${target}${alternative} (${request.api})`
}

const SECURITY_ERRORS = [
  'TOPIC_AUTHORIZATION_FAILED',
  'GROUP_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  'SASL_AUTHENTICATION_FAILED',
  'SSL_AUTHENTICATION_FAILED'
] as const satisfies readonly KafkaErrorName[]

/**
 * Whether `error` says the client could not authenticate or is not authorized: fatal to a Kafka
 * Streams thread wherever it comes from (a poll, a commit, a send), never retried.
 */
export function isSecurityError(error: unknown): boolean {
  return isKafkaError(error, ...SECURITY_ERRORS)
}
