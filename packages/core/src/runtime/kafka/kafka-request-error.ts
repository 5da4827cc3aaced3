/**
 * The error every Kafka port request rejects with: Kafka's own error name and code (the
 * protocol's error table, as Java's `Errors` enum names them) and whether Kafka counts it as
 * retriable. Adapters build it from their client's errors, keeping the original as `cause`;
 * the runtime decides what to do from `errorName` alone.
 */
import { StreamsError } from '../../errors.js'

/**
 * The Kafka error codes the runtime or the adapters name, with Kafka's retriable flag.
 * @internal For client adapters; applications match on KafkaErrorName (`errorName`, isKafkaError).
 */
export const KAFKA_ERRORS = {
  UNKNOWN_SERVER_ERROR: { code: -1, retriable: false },
  OFFSET_OUT_OF_RANGE: { code: 1, retriable: false },
  CORRUPT_MESSAGE: { code: 2, retriable: true },
  UNKNOWN_TOPIC_OR_PARTITION: { code: 3, retriable: true },
  LEADER_NOT_AVAILABLE: { code: 5, retriable: true },
  NOT_LEADER_OR_FOLLOWER: { code: 6, retriable: true },
  REQUEST_TIMED_OUT: { code: 7, retriable: true },
  REPLICA_NOT_AVAILABLE: { code: 9, retriable: true },
  MESSAGE_TOO_LARGE: { code: 10, retriable: false },
  OFFSET_METADATA_TOO_LARGE: { code: 12, retriable: false },
  NETWORK_EXCEPTION: { code: 13, retriable: true },
  COORDINATOR_LOAD_IN_PROGRESS: { code: 14, retriable: true },
  COORDINATOR_NOT_AVAILABLE: { code: 15, retriable: true },
  NOT_COORDINATOR: { code: 16, retriable: true },
  INVALID_TOPIC_EXCEPTION: { code: 17, retriable: false },
  RECORD_LIST_TOO_LARGE: { code: 18, retriable: false },
  NOT_ENOUGH_REPLICAS: { code: 19, retriable: true },
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: { code: 20, retriable: true },
  ILLEGAL_GENERATION: { code: 22, retriable: false },
  INCONSISTENT_GROUP_PROTOCOL: { code: 23, retriable: false },
  INVALID_GROUP_ID: { code: 24, retriable: false },
  UNKNOWN_MEMBER_ID: { code: 25, retriable: false },
  INVALID_SESSION_TIMEOUT: { code: 26, retriable: false },
  REBALANCE_IN_PROGRESS: { code: 27, retriable: false },
  INVALID_COMMIT_OFFSET_SIZE: { code: 28, retriable: false },
  TOPIC_AUTHORIZATION_FAILED: { code: 29, retriable: false },
  GROUP_AUTHORIZATION_FAILED: { code: 30, retriable: false },
  CLUSTER_AUTHORIZATION_FAILED: { code: 31, retriable: false },
  UNSUPPORTED_VERSION: { code: 35, retriable: false },
  TOPIC_ALREADY_EXISTS: { code: 36, retriable: false },
  INVALID_PARTITIONS: { code: 37, retriable: false },
  INVALID_REPLICATION_FACTOR: { code: 38, retriable: false },
  INVALID_REQUIRED_ACKS: { code: 21, retriable: false },
  OUT_OF_ORDER_SEQUENCE_NUMBER: { code: 45, retriable: false },
  DUPLICATE_SEQUENCE_NUMBER: { code: 46, retriable: false },
  INVALID_PRODUCER_EPOCH: { code: 47, retriable: false },
  INVALID_TXN_STATE: { code: 48, retriable: false },
  INVALID_PRODUCER_ID_MAPPING: { code: 49, retriable: false },
  CONCURRENT_TRANSACTIONS: { code: 51, retriable: true },
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: { code: 53, retriable: false },
  SECURITY_DISABLED: { code: 54, retriable: false },
  KAFKA_STORAGE_ERROR: { code: 56, retriable: true },
  SASL_AUTHENTICATION_FAILED: { code: 58, retriable: false },
  UNKNOWN_PRODUCER_ID: { code: 59, retriable: false },
  FENCED_LEADER_EPOCH: { code: 74, retriable: true },
  UNKNOWN_LEADER_EPOCH: { code: 75, retriable: true },
  OFFSET_NOT_AVAILABLE: { code: 78, retriable: true },
  MEMBER_ID_REQUIRED: { code: 79, retriable: false },
  GROUP_MAX_SIZE_REACHED: { code: 81, retriable: false },
  FENCED_INSTANCE_ID: { code: 82, retriable: false },
  UNSTABLE_OFFSET_COMMIT: { code: 88, retriable: true },
  PRODUCER_FENCED: { code: 90, retriable: false },
  TRANSACTION_ABORTABLE: { code: 120, retriable: false },
  /**
   * No protocol code (Java's SslAuthenticationException): the TLS handshake failed, the broker's
   * certificate not trusted or the client's refused. Fatal, as an authentication failure is.
   */
  SSL_AUTHENTICATION_FAILED: { code: -1, retriable: false }
} as const satisfies Record<string, { code: number; retriable: boolean }>

/**
 * The Kafka error names kstreams knows (Java's `Errors` enum names), e.g. `UNKNOWN_MEMBER_ID`.
 * @useDeclaredType
 */
export type KafkaErrorName = keyof typeof KAFKA_ERRORS

const BY_CODE = new Map<number, KafkaErrorName>()
// The first name of a code wins: -1 is UNKNOWN_SERVER_ERROR, not SSL_AUTHENTICATION_FAILED (which has no code).
for (const [name, { code }] of Object.entries(KAFKA_ERRORS)) if (!BY_CODE.has(code)) BY_CODE.set(code, name as KafkaErrorName)

/** Kafka's name for an error code; undefined for a code not in the table above. */
export function kafkaErrorName(code: number): KafkaErrorName | undefined {
  return BY_CODE.get(code)
}

/**
 * A Kafka request that failed: Kafka's error name and code, retriable as Kafka counts it. Its
 * `code` is `KAFKA`; the client library's own error is its `cause`.
 */
export class KafkaRequestError extends StreamsError {
  /** Kafka's error name (e.g. UNKNOWN_MEMBER_ID), or another upper-case name an adapter gave an error outside the table. */
  readonly errorName: string
  /** Kafka's error code; -1 when the error has none (a client-side failure). */
  readonly errorCode: number

  constructor(errorName: string, message: string, options: { cause?: unknown; retriable?: boolean; errorCode?: number } = {}) {
    const known = (KAFKA_ERRORS as Record<string, { code: number; retriable: boolean } | undefined>)[errorName]
    super('KAFKA', `${message} (${errorName})`, { cause: options.cause, retriable: options.retriable ?? known?.retriable ?? false })
    this.errorName = errorName
    this.errorCode = options.errorCode ?? known?.code ?? -1
  }
}

/**
 * Whether `error` is a KafkaRequestError (by shape, so an adapter built against another copy of
 * @kstreams/core still counts) with one of `names` (any name when none is given).
 */
export function isKafkaError(error: unknown, ...names: readonly KafkaErrorName[]): error is KafkaRequestError {
  if (error === null || typeof error !== 'object') return false
  const name = (error as { errorName?: unknown }).errorName
  return (
    typeof name === 'string' &&
    (error as { code?: unknown }).code === 'KAFKA' &&
    (names.length === 0 || (names as readonly string[]).includes(name))
  )
}
