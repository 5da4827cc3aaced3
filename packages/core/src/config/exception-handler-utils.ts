/**
 * What an exception handler answers (Kafka Streams 4.2's `Response` of each handler, KIP-1034) and
 * the dead-letter-queue records it may ask to have produced: Kafka's `ExceptionHandlerUtils`,
 * which builds the default dead-letter record (the raw source key and value, the source record's
 * headers, then headers naming the error and where the record came from).
 */
import { Headers } from '../record.js'
import type { ErrorHandlerContext } from './streams-config.js'

/** A record to produce to a dead letter queue (Kafka's `ProducerRecord<byte[], byte[]>`); it goes out through the task's record collector. */
export interface DeadLetterQueueRecord {
  /** The topic to produce it to. */
  readonly topic: string
  /** Its partition; undefined: the default partitioning of the key (murmur2, or round-robin for a null key). */
  readonly partition?: number | undefined
  /** Its key bytes (null: none). */
  readonly key: Buffer | null
  /** Its value bytes (null: none). */
  readonly value: Buffer | null
  /** Its headers; default none. */
  readonly headers?: Headers | undefined
  /** Its timestamp (ms); default the timestamp of the record the handler was asked about. */
  readonly timestamp?: number | undefined
}

/** What a handler decided: resume (skip the record), fail, or (production only) retry; Kafka's `Result`. */
export type ErrorHandlerResult = 'RESUME' | 'FAIL' | 'RETRY'

/** An exception handler's answer with the dead-letter-queue records to produce (Kafka's `Response`). */
export interface ErrorHandlerResponse<R extends ErrorHandlerResult = ErrorHandlerResult> {
  /** What the runtime does with the failed record: resume, fail or retry. */
  readonly result: R
  /** Produced through the task's record collector before the result takes effect (in the task's transaction under exactly_once_v2). */
  readonly deadLetterQueueRecords: readonly DeadLetterQueueRecord[]
}

/** Builds handler answers, as Kafka's `Response.resume(records)`, `Response.fail(records)` and `Response.retry()`. */
export const ErrorHandlerResponse = Object.freeze({
  /** Skip the record and go on; the given records are produced first. */
  resume(deadLetterQueueRecords: readonly DeadLetterQueueRecord[] = []): ErrorHandlerResponse<'RESUME'> {
    return Object.freeze({ result: 'RESUME', deadLetterQueueRecords: Object.freeze([...deadLetterQueueRecords]) })
  },
  /** Fail the stream thread; the given records are handed to the record collector first. */
  fail(deadLetterQueueRecords: readonly DeadLetterQueueRecord[] = []): ErrorHandlerResponse<'FAIL'> {
    return Object.freeze({ result: 'FAIL', deadLetterQueueRecords: Object.freeze([...deadLetterQueueRecords]) })
  },
  /** Send the record again (production handler, retriable errors only; otherwise it counts as FAIL). */
  retry(): ErrorHandlerResponse<'RETRY'> {
    return Object.freeze({ result: 'RETRY', deadLetterQueueRecords: Object.freeze([]) })
  }
})

/** Header of a default dead-letter record: the error's class name. */
export const HEADER_ERRORS_EXCEPTION_NAME = '__streams.errors.exception'
/** Header of a default dead-letter record: the error's stack trace. */
export const HEADER_ERRORS_STACKTRACE_NAME = '__streams.errors.stacktrace'
/** Header of a default dead-letter record: the error's message. */
export const HEADER_ERRORS_EXCEPTION_MESSAGE_NAME = '__streams.errors.message'
/** Header of a default dead-letter record: the source topic (null value without a source record). */
export const HEADER_ERRORS_TOPIC_NAME = '__streams.errors.topic'
/** Header of a default dead-letter record: the source partition, as a decimal string. */
export const HEADER_ERRORS_PARTITION_NAME = '__streams.errors.partition'
/** Header of a default dead-letter record: the source offset, as a decimal string. */
export const HEADER_ERRORS_OFFSET_NAME = '__streams.errors.offset'

/**
 * The default dead-letter record for `error` (Kafka's `ExceptionHandlerUtils.buildDeadLetterQueueRecord`):
 * `key` and `value` as given (usually `context.sourceRawKey` / `sourceRawValue`), the context's
 * timestamp, the context's headers followed by the `__streams.errors.*` headers (UTF-8 strings).
 */
export function buildDeadLetterQueueRecord(
  deadLetterQueueTopicName: string,
  key: Buffer | null,
  value: Buffer | null,
  context: ErrorHandlerContext,
  error: Error
): DeadLetterQueueRecord {
  if (typeof deadLetterQueueTopicName !== 'string' || deadLetterQueueTopicName.length === 0) {
    throw new TypeError(
      `errorsDeadLetterQueueTopicName must be a non-empty topic name to build a dead letter queue record, got ${String(deadLetterQueueTopicName)}`
    )
  }
  const headers = new Headers(context.headers)
  headers.add(HEADER_ERRORS_EXCEPTION_NAME, errorClassName(error))
  headers.add(HEADER_ERRORS_EXCEPTION_MESSAGE_NAME, error.message)
  headers.add(HEADER_ERRORS_STACKTRACE_NAME, error.stack ?? `${errorClassName(error)}: ${error.message}`)
  // No source record (a punctuation): Kafka serializes a null topic as a null header value.
  headers.add(HEADER_ERRORS_TOPIC_NAME, context.topic === '' ? null : context.topic)
  headers.add(HEADER_ERRORS_PARTITION_NAME, String(context.partition))
  headers.add(HEADER_ERRORS_OFFSET_NAME, String(context.offset))
  return { topic: deadLetterQueueTopicName, key, value, headers, timestamp: context.timestamp }
}

/** The default dead-letter records for `error`: none without a dead-letter topic, else one (see buildDeadLetterQueueRecord). */
export function maybeBuildDeadLetterQueueRecords(
  deadLetterQueueTopicName: string | undefined,
  key: Buffer | null,
  value: Buffer | null,
  context: ErrorHandlerContext,
  error: Error
): DeadLetterQueueRecord[] {
  if (deadLetterQueueTopicName === undefined) return []
  return [buildDeadLetterQueueRecord(deadLetterQueueTopicName, key, value, context, error)]
}

/** The name of the error's class (Java's `getClass().getName()`): its constructor's name, else its `name`. */
function errorClassName(error: Error): string {
  const ctor = (error as { constructor?: { name?: unknown } }).constructor
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : error.name
}
