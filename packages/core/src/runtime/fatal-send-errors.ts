/**
 * Send errors the production exception handler never sees (Kafka Streams' RecordCollectorImpl):
 * security errors and those that say the producer or its request cannot go on (isFatalException),
 * and the fencing errors of an idempotent or transactional producer, which Kafka turns into a
 * TaskMigratedException. They fail the thread: sending on would drop all output, silently, under
 * a handler that answers CONTINUE. An adapter that recovered from a lost sequence by starting
 * over with a new producer id (Java's KIP-360; the kafkajs adapter does) reports the error
 * retriable: that one is sent again like any retriable error, not fatal.
 * @internal
 */
import { isKafkaError, type KafkaErrorName } from './kafka/kafka-request-error.js'
import { isRetriable } from './retrying.js'

const FATAL = [
  // Security.
  'TOPIC_AUTHORIZATION_FAILED',
  'GROUP_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  'SASL_AUTHENTICATION_FAILED',
  'SECURITY_DISABLED',
  // The request or the producer is broken.
  'INVALID_TOPIC_EXCEPTION',
  'UNKNOWN_SERVER_ERROR',
  'OFFSET_METADATA_TOO_LARGE',
  // Fencing, an unknown producer id.
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID'
] as const satisfies readonly KafkaErrorName[]

const FATAL_NAMES: ReadonlySet<string> = new Set(FATAL)

/** Whether a send error is fatal: it fails the send without asking the production exception handler. */
export function isFatalSendError(error: unknown): boolean {
  return isKafkaError(error) && FATAL_NAMES.has(error.errorName) && !isRetriable(error)
}
