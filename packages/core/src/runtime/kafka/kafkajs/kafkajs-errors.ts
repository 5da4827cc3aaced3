/**
 * The boundary where kafkajs errors become StreamsErrors: code KAFKA with the kafkajs error as
 * `cause`, its protocol error type (e.g. NOT_LEADER_FOR_PARTITION) in the message, and `retriable`
 * as kafkajs judges it. Errors that mean "this member or producer no longer owns its work"
 * (a commit after the group moved on, a fenced producer) become TASK_MIGRATED, as Kafka Streams
 * turns CommitFailedException and ProducerFencedException into TaskMigratedException.
 */
import { StreamsError } from '../../../errors.js'

/** Commit failures that mean the member's partitions now belong to someone else. */
export const GROUP_MIGRATED_TYPES: ReadonlySet<string> = new Set([
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'REBALANCE_IN_PROGRESS',
  'FENCED_INSTANCE_ID'
])

/** Producer failures that mean another producer with the same transactional id took over. */
export const PRODUCER_FENCED_TYPES: ReadonlySet<string> = new Set([
  'INVALID_PRODUCER_EPOCH',
  'PRODUCER_FENCED',
  'TRANSACTION_COORDINATOR_FENCED'
])

interface ErrorLike {
  readonly name?: unknown
  readonly type?: unknown
  readonly retriable?: unknown
  readonly cause?: unknown
  readonly message?: unknown
}

function chain (error: unknown): ErrorLike[] {
  const out: ErrorLike[] = []
  let current: unknown = error
  while (current !== null && typeof current === 'object' && out.length < 10) {
    out.push(current as ErrorLike)
    current = (current as ErrorLike).cause
  }
  return out
}

/** The Kafka protocol error type (kafkajs' `type`) anywhere in the cause chain. */
export function kafkaErrorType (error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (typeof e.type === 'string') return e.type
  }
  return undefined
}

/** kafkajs' own rule (consumer restart): retries ran out, or the root cause is retriable. */
export function isRetriable (error: unknown): boolean {
  const errors = chain(error)
  if (errors.length === 0) return false
  if (errors[0]!.name === 'KafkaJSNumberOfRetriesExceeded') return true
  return errors[errors.length - 1]!.retriable === true
}

export function toStreamsError (error: unknown, what: string, migratedTypes: ReadonlySet<string> = new Set()): StreamsError {
  if (error instanceof StreamsError) return error
  const type = kafkaErrorType(error)
  const message = error instanceof Error ? error.message : String(error)
  const detail = `${what} failed${type === undefined ? '' : ` (${type})`}: ${message}`
  const code = type !== undefined && migratedTypes.has(type) ? 'TASK_MIGRATED' : 'KAFKA'
  return new StreamsError(code, detail, { cause: error, retriable: isRetriable(error) })
}
