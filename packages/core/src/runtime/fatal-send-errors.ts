/**
 * Send errors the production exception handler never sees (Kafka Streams' RecordCollectorImpl).
 * Fatal ones: security errors and those that say the producer or its request cannot go on
 * (isFatalException). They fail the thread: sending on would drop all output, silently, under a
 * handler that answers CONTINUE. Fencing ones: the producer was fenced, or the broker refused its
 * producer id, epoch or sequence (an idempotent producer's lost sequence). Kafka turns them into a
 * TaskMigratedException under every processing guarantee: the thread's tasks are closed dirty and
 * the member rejoins; the client never goes to ERROR for them. An adapter that recovered from a
 * lost sequence by starting over with a new producer id (Java's KIP-360; the kafkajs and
 * platformatic adapters do) reports the error retriable: that one is sent again like any
 * retriable error.
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
  'OFFSET_METADATA_TOO_LARGE'
] as const satisfies readonly KafkaErrorName[]

/** Kafka's ProducerFencedException, InvalidPidMappingException, InvalidProducerEpochException and OutOfOrderSequenceException (UnknownProducerIdException is one). */
const FENCING = [
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_ID_MAPPING',
  'INVALID_PRODUCER_EPOCH',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID'
] as const satisfies readonly KafkaErrorName[]

const FATAL_NAMES: ReadonlySet<string> = new Set(FATAL)

/** Whether a send error is fatal: it fails the send without asking the production exception handler. */
export function isFatalSendError(error: unknown): boolean {
  return isKafkaError(error) && FATAL_NAMES.has(error.errorName) && !isRetriable(error)
}

/** Whether a send error says the producer was fenced or lost its sequence: the tasks migrated (TASK_MIGRATED), the handler is not asked. */
export function isFencingSendError(error: unknown): boolean {
  return isKafkaError(error, ...FENCING) && !isRetriable(error)
}
