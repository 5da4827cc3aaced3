/**
 * The boundary where kafkajs errors become KafkaRequestErrors: Kafka's current name for the
 * protocol error code (kafkajs still uses some old ones: NOT_COORDINATOR_FOR_GROUP is
 * NOT_COORDINATOR, NOT_LEADER_FOR_PARTITION is NOT_LEADER_OR_FOLLOWER, ...), found under the
 * retriers' wrappers (KafkaJSNumberOfRetriesExceeded, KafkaJSNonRetriableError) by following
 * `cause`; connection failures are NETWORK_EXCEPTION, unanswered requests REQUEST_TIMED_OUT, a
 * TLS handshake refused on a certificate SSL_AUTHENTICATION_FAILED (not retriable: kafkajs would
 * reconnect for ever). An authorization error names the operation and resource refused, when the
 * caller says which request it was. The kafkajs error is kept as `cause`. kstreams' own
 * StreamsErrors pass through unchanged, also from inside a kafkajs error (the adapter's SASL
 * authenticators throw them inside kafkajs).
 */
import {
  errorChain,
  KafkaRequestError,
  kafkaErrorName,
  notAuthorizedReason,
  sslAuthenticationError,
  StreamsError,
  tlsFailureOf,
  type AclRequest
} from '@kstreams/core'

/** kafkajs errors without a protocol error code, by their `name`. */
const CLIENT_ERRORS: Readonly<Record<string, string>> = {
  KafkaJSConnectionError: 'NETWORK_EXCEPTION',
  KafkaJSConnectionClosedError: 'NETWORK_EXCEPTION',
  KafkaJSBrokerNotFound: 'NETWORK_EXCEPTION',
  KafkaJSNoBrokerAvailableError: 'NETWORK_EXCEPTION',
  /** Waiting for a broker connection (connect + SASL) to be established. */
  KafkaJSLockTimeout: 'NETWORK_EXCEPTION',
  KafkaJSRequestTimeoutError: 'REQUEST_TIMED_OUT',
  KafkaJSGroupCoordinatorNotFound: 'COORDINATOR_NOT_AVAILABLE',
  KafkaJSServerDoesNotSupportApiKey: 'UNSUPPORTED_VERSION',
  KafkaJSSASLAuthenticationError: 'SASL_AUTHENTICATION_FAILED'
}

/** The name of an error kafkajs raised that is none of the above (a client-side failure). */
export const CLIENT_ERROR = 'CLIENT_ERROR'

/** kafkajs' type for a code missing from its table; its message keeps the code. */
const UNKNOWN_CODE_TYPE = 'KAFKAJS_UNKNOWN_ERROR_CODE'
const UNKNOWN_CODE_MESSAGE = /Unknown error code (-?\d+)/

interface ErrorLike {
  readonly name?: unknown
  readonly type?: unknown
  readonly code?: unknown
  readonly retriable?: unknown
  readonly cause?: unknown
  readonly message?: unknown
  readonly errors?: unknown
}

/** `error`, then what it wraps (`cause`, or the first of an aggregate's `errors`), outermost first. */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = []
  let current: unknown = error
  while (current !== null && typeof current === 'object' && out.length < 10 && !out.includes(current as ErrorLike)) {
    const e = current as ErrorLike
    out.push(e)
    current = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined)
  }
  return out
}

/** The Kafka protocol error code of a kafkajs protocol error, recovering codes kafkajs does not know. */
function protocolCode(e: ErrorLike): number | undefined {
  if (typeof e.type !== 'string' || typeof e.code !== 'number') return undefined
  if (e.type !== UNKNOWN_CODE_TYPE) return e.code
  const match = typeof e.message === 'string' ? UNKNOWN_CODE_MESSAGE.exec(e.message) : null
  return match === null ? undefined : Number(match[1])
}

/** Kafka's name for what went wrong, with the code and retriable flag where Kafka's table does not give them. */
export function describeKafkajsError(error: unknown): { errorName: string; errorCode?: number; retriable?: boolean } {
  const errors = chain(error)
  const innermostFirst = [...errors].reverse()
  for (const e of innermostFirst) {
    const code = protocolCode(e)
    if (code === undefined) continue
    const known = kafkaErrorName(code)
    if (known !== undefined) return { errorName: known }
    const type = e.type === UNKNOWN_CODE_TYPE ? `KAFKA_ERROR_${code}` : String(e.type)
    return { errorName: type, errorCode: code, retriable: e.retriable === true }
  }
  for (const e of innermostFirst) {
    const name = typeof e.name === 'string' ? CLIENT_ERRORS[e.name] : undefined
    if (name !== undefined) return { errorName: name }
  }
  const root = innermostFirst[0]
  return {
    errorName: CLIENT_ERROR,
    retriable: root?.retriable === true && typeof root.name === 'string' && root.name.startsWith('KafkaJS')
  }
}

/** The error a port rejects with: a KafkaRequestError for anything kafkajs threw, StreamsErrors unchanged; `request` names an authorization failure's operation. */
export function toKafkaRequestError(error: unknown, what: string, request?: AclRequest): StreamsError {
  if (error instanceof StreamsError) return error
  const ours = errorChain(error).find((e): e is StreamsError => e instanceof StreamsError)
  if (ours !== undefined) return ours
  const tls = tlsFailureOf(error)
  if (tls !== undefined) return sslAuthenticationError({ broker: brokerOf(error) ?? what, failure: tls, cause: error })
  return fromKafkajsError(error, what, request)
}

/** `error` (a kafkajs error, or anything else a kafkajs call threw) as a KafkaRequestError. */
export function fromKafkajsError(error: unknown, what: string, request?: AclRequest): KafkaRequestError {
  const { errorName, errorCode, retriable } = describeKafkajsError(error)
  const refused = request === undefined ? undefined : notAuthorizedReason(errorName, { ...request, topic: request.topic ?? topicIn(error) })
  const message = refused ?? (error instanceof Error ? error.message : String(error))
  return new KafkaRequestError(errorName, `${what} failed: ${message}`, {
    cause: error,
    ...(retriable === undefined ? {} : { retriable }),
    ...(errorCode === undefined ? {} : { errorCode })
  })
}

/** The topic a kafkajs error names (KafkaJSCreateTopicError's `topic`), if any. */
function topicIn(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const topic = (e as { topic?: unknown }).topic
    if (typeof topic === 'string' && topic !== '') return topic
  }
  return undefined
}

/** The `host:port` a kafkajs connection error names. */
function brokerOf(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const broker = (e as { broker?: unknown }).broker
    if (typeof broker === 'string' && broker !== '') return broker
  }
  return undefined
}
