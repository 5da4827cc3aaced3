/**
 * The boundary where @platformatic/kafka errors become KafkaRequestErrors. A protocol error
 * (ProtocolError, alone or inside a ResponseError/MultipleErrors) is named by its Kafka error
 * code as Kafka's table names it; a failure to reach a broker is NETWORK_EXCEPTION, an
 * unanswered request REQUEST_TIMED_OUT, a failed SASL handshake SASL_AUTHENTICATION_FAILED.
 * Where the failure happened decides between the last two: a timeout while connecting is a
 * connection that failed, a timeout after the request went out is an answer that did not come.
 * A TLS handshake refused on a certificate is SSL_AUTHENTICATION_FAILED (not retriable), and an
 * authorization error names the operation and resource refused when the caller says which
 * request it was. The platformatic error is kept as `cause`; kstreams' own StreamsErrors pass
 * through unchanged, also from inside a platformatic error (the adapter's SASL authenticators
 * fail with them inside platformatic).
 */
import { protocolErrors, protocolErrorsCodesById } from '@platformatic/kafka'
import {
  errorChain,
  isAclApi,
  KafkaRequestError,
  kafkaErrorName,
  notAuthorizedReason,
  sslAuthenticationError,
  StreamsError,
  tlsFailureOf,
  type AclApi,
  type AclRequest
} from '@kstreams/core'

/** The name of an error the client raised that is none of the above (a client-side failure). */
export const CLIENT_ERROR = 'CLIENT_ERROR'

/** Where a failed call was: getting a connection to a broker, or waiting for an answer on one. */
export type FailurePhase = 'connect' | 'request'

interface ErrorLike {
  readonly code?: unknown
  readonly apiCode?: unknown
  readonly apiId?: unknown
  readonly canRetry?: unknown
  readonly message?: unknown
  readonly cause?: unknown
  readonly errors?: unknown
}

const PLT_NETWORK = 'PLT_KFK_NETWORK'
const PLT_TIMEOUT_MESSAGE = /^Request timed out/
const PLT_AUTHENTICATION = 'PLT_KFK_AUTHENTICATION'
const PLT_UNSUPPORTED_API = 'PLT_KFK_UNSUPPORTED_API'

/** `error` and everything it wraps (`cause`, an aggregate's `errors`), depth first, outermost first. */
function flatten(error: unknown, out: ErrorLike[] = [], depth = 0): ErrorLike[] {
  if (error === null || typeof error !== 'object' || depth > 8 || out.includes(error as ErrorLike)) return out
  const e = error as ErrorLike
  out.push(e)
  if (Array.isArray(e.errors)) for (const inner of e.errors) flatten(inner, out, depth + 1)
  if (e.cause !== undefined) flatten(e.cause, out, depth + 1)
  return out
}

/** Kafka's name for what went wrong, with the code and retriable flag where Kafka's table does not give them. */
export function describePlatformaticError(
  error: unknown,
  phase: FailurePhase = 'request'
): { errorName: string; errorCode?: number; retriable?: boolean } {
  const errors = flatten(error)
  // A broker's answer names the error exactly: the first protocol error wins.
  for (const e of errors) {
    if (typeof e.apiCode !== 'number' || e.apiCode === 0) continue
    const known = kafkaErrorName(e.apiCode)
    if (known !== undefined) return { errorName: known }
    const name = typeof e.apiId === 'string' ? e.apiId : `KAFKA_ERROR_${e.apiCode}`
    return { errorName: name, errorCode: e.apiCode, retriable: e.canRetry === true }
  }
  if (errors.some(e => e.code === PLT_AUTHENTICATION)) return { errorName: 'SASL_AUTHENTICATION_FAILED' }
  if (errors.some(e => e.code === PLT_UNSUPPORTED_API)) return { errorName: 'UNSUPPORTED_VERSION' }
  if (errors.some(e => e.code === PLT_NETWORK)) {
    const timedOut = errors.some(e => e.code === PLT_NETWORK && typeof e.message === 'string' && PLT_TIMEOUT_MESSAGE.test(e.message))
    return { errorName: timedOut && phase === 'request' ? 'REQUEST_TIMED_OUT' : 'NETWORK_EXCEPTION' }
  }
  return { errorName: CLIENT_ERROR, retriable: false }
}

/** The error a port rejects with: a KafkaRequestError for anything the client threw, StreamsErrors unchanged; `request` names an authorization failure's operation. */
export function toKafkaRequestError(error: unknown, what: string, phase: FailurePhase = 'request', request?: AclRequest): StreamsError {
  if (error instanceof StreamsError) return error
  const ours = errorChain(error).find((e): e is StreamsError => e instanceof StreamsError)
  if (ours !== undefined) return ours
  const tls = tlsFailureOf(error)
  if (tls !== undefined) return sslAuthenticationError({ broker: brokerOf(error) ?? what, failure: tls, cause: error })
  return fromPlatformaticError(error, what, phase, request)
}

/** `error` (a platformatic error, or anything else a client call threw) as a KafkaRequestError. */
export function fromPlatformaticError(
  error: unknown,
  what: string,
  phase: FailurePhase = 'request',
  request?: AclRequest
): KafkaRequestError {
  const { errorName, errorCode, retriable } = describePlatformaticError(error, phase)
  const refused =
    request === undefined
      ? undefined
      : notAuthorizedReason(errorName, { ...request, api: apiIn(error) ?? request.api, topic: request.topic ?? refusedTopicIn(error) })
  return new KafkaRequestError(errorName, `${what} failed: ${refused ?? messageOf(error)}`, {
    cause: error,
    ...(retriable === undefined ? {} : { retriable }),
    ...(errorCode === undefined ? {} : { errorCode })
  })
}

/**
 * A KafkaRequestError for an error code a response carried (a partition's or a group's): named
 * as core's table names it, else as Kafka's full table (platformatic's copy) does, with its
 * retriable flag; KAFKA_ERROR_<code> for a code neither knows. `request` names what an
 * authorization error refused.
 */
export function fromErrorCode(code: number, what: string, serverMessage?: string | null, request?: AclRequest): KafkaRequestError {
  const name = kafkaErrorName(code)
  const refused = request === undefined || name === undefined ? undefined : notAuthorizedReason(name, request)
  const detail = serverMessage === undefined || serverMessage === null || serverMessage === '' ? '' : `: ${serverMessage}`
  const message = refused === undefined ? `${what} failed with error code ${code}${detail}` : `${what} failed: ${refused}`
  if (name !== undefined) return new KafkaRequestError(name, message)
  const id = (protocolErrorsCodesById as Record<number, string | undefined>)[code]
  const known = id === undefined ? undefined : (protocolErrors as Record<string, { canRetry: boolean } | undefined>)[id]
  return new KafkaRequestError(id ?? `KAFKA_ERROR_${code}`, message, { errorCode: code, retriable: known?.canRetry ?? false })
}

/** The API a platformatic error names ("... while executing API FindCoordinator(v6)"), if it is one an ACL can refuse. */
function apiIn(error: unknown): AclApi | undefined {
  for (const e of errorChain(error)) {
    const match = /executing API (\w+)\(v\d+\)/.exec(String((e as { message?: unknown }).message))
    if (match !== null && isAclApi(match[1]!)) return match[1]
  }
  return undefined
}

const TOPIC_AUTHORIZATION_FAILED = 29

/**
 * The topic a broker's answer refused (TOPIC_AUTHORIZATION_FAILED), from the response a
 * platformatic ResponseError carries: a `name`d entry with an error code 29 below it (Produce,
 * AddPartitionsToTxn, OffsetCommit answers).
 */
function refusedTopicIn(error: unknown): string | undefined {
  const refused = (value: unknown, depth: number): boolean => {
    if (value === null || typeof value !== 'object' || depth > 4) return false
    const { errorCode, partitionErrorCode } = value as { errorCode?: unknown; partitionErrorCode?: unknown }
    if (errorCode === TOPIC_AUTHORIZATION_FAILED || partitionErrorCode === TOPIC_AUTHORIZATION_FAILED) return true
    return Object.values(value).some(v => refused(v, depth + 1))
  }
  const find = (value: unknown, depth: number): string | undefined => {
    if (value === null || typeof value !== 'object' || depth > 6) return undefined
    const name = (value as { name?: unknown }).name
    if (typeof name === 'string' && name !== '' && refused(value, 0)) return name
    for (const v of Object.values(value)) {
      const found = find(v, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const e of errorChain(error)) {
    const found = find((e as { response?: unknown }).response, 0)
    if (found !== undefined) return found
  }
  return undefined
}

/** The broker of platformatic's "Connection to <host:port> failed." error. */
function brokerOf(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const match = /^Connection to (\S+) failed/.exec(String((e as { message?: unknown }).message))
    if (match !== null) return match[1]
  }
  return undefined
}

/** The message of `error`, with the first protocol error's message where the outer one only says "Received response with error". */
function messageOf(error: unknown): string {
  const all = flatten(error)
  const outer = error instanceof Error ? error.message : String(error)
  const protocol = all.find(e => typeof e.apiId === 'string' && e.apiCode !== 0)
  return protocol === undefined ? outer : `${outer} (${String(protocol.apiId)}: ${String(protocol.message)})`
}
