/**
 * Asks the configured exception handlers (deserialization, processing, production) about a failed
 * record and turns every answer into one shape: the result and the dead-letter-queue records to
 * produce (KIP-1034). The built-in handlers ('logAndFail', 'logAndContinue', 'fail', 'continue')
 * build the default dead-letter record when `errorsDeadLetterQueueTopicName` is set, as Kafka's
 * LogAndFail/LogAndContinue and DefaultProductionExceptionHandler do. The caller sends the records
 * through its task's record collector, then applies the result. @internal
 */
import type { ConsumerRecord, ErrorHandlerContext, ProductionErrorRecord, ResolvedStreamsConfig } from '../config/streams-config.js'
import { maybeBuildDeadLetterQueueRecords, type DeadLetterQueueRecord, type ErrorHandlerResult } from '../config/exception-handler-utils.js'
import { StreamsError } from '../errors.js'
import type { ProcessorRecordContext } from './record-context.js'
import type { RecordCollector, RecordOrigin } from './record-collector.js'
import { Headers, type Record } from '../record.js'

/** A handler's answer, normalized: the result and the dead-letter records to produce first. */
export interface HandlerDecision<R extends ErrorHandlerResult> {
  readonly result: R
  readonly deadLetterQueueRecords: readonly DeadLetterQueueRecord[]
}

const NO_RECORDS: readonly DeadLetterQueueRecord[] = Object.freeze([])

/** The handler context of the record being processed (`rc`), failed at `processorNodeId`. */
export function errorHandlerContext(rc: ProcessorRecordContext, taskId: string, processorNodeId: string): ErrorHandlerContext {
  return {
    topic: rc.topic ?? '',
    partition: rc.partition,
    offset: rc.offset,
    timestamp: rc.timestamp,
    taskId,
    headers: rc.headers,
    processorNodeId,
    sourceRawKey: rc.sourceRawKey ?? null,
    sourceRawValue: rc.sourceRawValue ?? null
  }
}

/** The configured deserialization handler's decision; `deadLetters` false (global stores) builds no default dead-letter record. */
export function deserializationDecision(
  config: ResolvedStreamsConfig,
  context: ErrorHandlerContext,
  error: Error,
  record: ConsumerRecord,
  deadLetters = true
): HandlerDecision<'RESUME' | 'FAIL'> {
  const configured = config.deserializationExceptionHandler
  if (configured === 'logAndContinue' || configured === 'logAndFail') {
    return builtIn(configured === 'logAndContinue' ? 'RESUME' : 'FAIL', deadLetters ? config : undefined, context, error)
  }
  let answer: unknown
  try {
    answer = configured(context, error, record)
  } catch (fatal) {
    // As Kafka's RecordDeserializer: what the handler itself threw stops the task, wrapped.
    throw new StreamsError('PROCESSING', 'Fatal user code error in deserialization error callback', {
      cause: fatal,
      taskId: context.taskId
    })
  }
  return normalize(answer, 'deserializationExceptionHandler', ['RESUME', 'FAIL'])
}

/** The configured processing handler's decision; `record` is undefined for a punctuator. */
export function processingDecision(
  config: ResolvedStreamsConfig,
  context: ErrorHandlerContext,
  error: Error,
  record: Record<unknown, unknown> | undefined
): HandlerDecision<'RESUME' | 'FAIL'> {
  const configured = config.processingExceptionHandler
  if (configured === 'logAndContinue' || configured === 'logAndFail') {
    return builtIn(configured === 'logAndContinue' ? 'RESUME' : 'FAIL', config, context, error)
  }
  return normalize(configured(context, error, record), 'processingExceptionHandler', ['RESUME', 'FAIL'])
}

/** The configured production handler's decision for an output record that could not be serialized or sent. */
export function productionDecision(
  config: ResolvedStreamsConfig,
  context: ErrorHandlerContext,
  error: Error,
  record: ProductionErrorRecord
): HandlerDecision<'RESUME' | 'FAIL' | 'RETRY'> {
  const configured = config.productionExceptionHandler
  if (configured === 'continue' || configured === 'fail') {
    return builtIn(configured === 'continue' ? 'RESUME' : 'FAIL', config, context, error)
  }
  return normalize(configured(context, error, record), 'productionExceptionHandler', ['RESUME', 'FAIL', 'RETRY'])
}

function builtIn<R extends ErrorHandlerResult>(
  result: R,
  config: ResolvedStreamsConfig | undefined,
  context: ErrorHandlerContext,
  error: Error
): HandlerDecision<R> {
  const topic = config?.errorsDeadLetterQueueTopicName
  if (topic === undefined) return { result, deadLetterQueueRecords: NO_RECORDS }
  return {
    result,
    deadLetterQueueRecords: maybeBuildDeadLetterQueueRecords(topic, context.sourceRawKey, context.sourceRawValue, context, error)
  }
}

/** 'CONTINUE', 'FAIL', 'RETRY' or an ErrorHandlerResponse, checked against what this handler may answer. */
function normalize<R extends ErrorHandlerResult>(answer: unknown, handler: string, allowed: readonly R[]): HandlerDecision<R> {
  if (answer === 'CONTINUE' && allowed.includes('RESUME' as R)) return { result: 'RESUME' as R, deadLetterQueueRecords: NO_RECORDS }
  if (typeof answer === 'string' && answer !== 'RESUME' && allowed.includes(answer as R))
    return { result: answer as R, deadLetterQueueRecords: NO_RECORDS }
  if (answer !== null && typeof answer === 'object') {
    const { result, deadLetterQueueRecords } = answer as { result?: unknown; deadLetterQueueRecords?: unknown }
    if (allowed.includes(result as R) && (deadLetterQueueRecords === undefined || Array.isArray(deadLetterQueueRecords))) {
      const records = (deadLetterQueueRecords ?? NO_RECORDS) as readonly DeadLetterQueueRecord[]
      for (const r of records) checkRecord(r, handler)
      return { result: result as R, deadLetterQueueRecords: records }
    }
  }
  const expected = [
    ...(allowed.includes('RESUME' as R) ? ["'CONTINUE'"] : []),
    "'FAIL'",
    ...(allowed.includes('RETRY' as R) ? ["'RETRY'"] : []),
    `an ErrorHandlerResponse (${allowed.map(r => r.toLowerCase()).join(', ')})`
  ]
  throw new StreamsError('ILLEGAL_ARGUMENT', `Invalid ${handler} response: ${describe(answer)}; expected ${expected.join(', ')}`)
}

function checkRecord(r: unknown, handler: string): void {
  const record = r as Partial<DeadLetterQueueRecord> | null
  const bytes = (b: unknown): boolean => b === null || Buffer.isBuffer(b)
  if (
    record === null ||
    typeof record !== 'object' ||
    typeof record.topic !== 'string' ||
    record.topic === '' ||
    !bytes(record.key) ||
    !bytes(record.value)
  ) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Invalid dead letter queue record from ${handler}: ${describe(r)}; expected { topic, key: Buffer | null, value: Buffer | null, headers?, timestamp?, partition? }`
    )
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * Hands a handler's dead-letter records to the task's record collector (Kafka sends them with
 * `RecordCollector.send` too): committed with the task's offsets, in its transaction under
 * exactly_once_v2. A record without a timestamp gets the failed record's.
 */
export function sendDeadLetterQueueRecords(
  collector: RecordCollector,
  records: readonly DeadLetterQueueRecord[],
  failed: ProcessorRecordContext,
  processorNodeId: string,
  origin: RecordOrigin | undefined
): void {
  for (const r of records) {
    collector.send({
      topic: r.topic,
      partition: r.partition,
      key: r.key,
      value: r.value,
      headers: r.headers ?? new Headers(),
      timestamp: r.timestamp ?? failed.timestamp,
      origin,
      source: failed,
      processorNodeId,
      deadLetter: true
    })
  }
}
