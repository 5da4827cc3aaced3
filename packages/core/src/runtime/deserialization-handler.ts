/**
 * What a record that cannot be deserialized does, from `deserializationExceptionHandler`
 * ('logAndFail' by default, 'logAndContinue', or a function), for stream tasks and the global
 * task alike (the runtime and the TopologyTestDriver): skipped records are logged at warn, failing
 * ones at error; the handler sees the record's position, headers and raw bytes, its source node and
 * its task, and may answer with dead-letter records (stream tasks send them; global-store updates
 * build none and drop those a handler function returns, as Kafka's config says). @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { SerializationError } from '../errors.js'
import { childLogger, silentLogger, type Logger } from '../logger.js'
import type { ConsumedRecord } from './consumed-record.js'
import { deserializationDecision, type HandlerDecision } from './exception-handlers.js'

/** Where the record failed: its task and source node, and whether dead-letter records can be sent there. */
export interface DeserializationErrorSite {
  readonly taskId: string
  readonly sourceNodeId: string
  /** False for global-store updates: no record collector, no dead-letter records. */
  readonly deadLetters: boolean
}

/** Decides what a deserialization error does: skip the record, or fail the task; with the dead-letter records to send. */
export type DeserializationErrorHandler = (
  record: ConsumedRecord,
  error: Error,
  site: DeserializationErrorSite
) => HandlerDecision<'RESUME' | 'FAIL'>

export function configuredDeserializationHandler(
  config: ResolvedStreamsConfig,
  logger: Logger = silentLogger
): DeserializationErrorHandler {
  return (record, error, site) => {
    const context = {
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      timestamp: record.timestamp,
      taskId: site.taskId,
      headers: record.headers,
      processorNodeId: site.sourceNodeId,
      sourceRawKey: record.key,
      sourceRawValue: record.value
    }
    const decision = deserializationDecision(config, context, error, record, site.deadLetters)
    const resumed = decision.result === 'RESUME'
    const taskLogger = childLogger(logger, { task: site.taskId })
    taskLogger[resumed ? 'warn' : 'error'](
      { topic: record.topic, partition: record.partition, offset: record.offset, processorNodeId: site.sourceNodeId },
      `Deserialization error at ${record.topic}-${record.partition} offset ${record.offset} (${resumed ? 'skipped' : 'failing'}): ${error.message}`
    )
    if (!site.deadLetters && decision.deadLetterQueueRecords.length > 0) {
      taskLogger.warn(
        `The deserialization exception handler returned ${decision.deadLetterQueueRecords.length} dead letter queue record(s) for global topic ${record.topic}; global-store updates send none`
      )
      return { result: decision.result, deadLetterQueueRecords: [] }
    }
    return decision
  }
}

/** The typed error a FAIL response raises, naming where the record is. */
export function deserializationFailure(record: ConsumedRecord, error: Error): SerializationError {
  return new SerializationError(
    `Deserialization exception handler is set to fail upon a deserialization error: topic ${record.topic}, partition ${record.partition}, offset ${record.offset}: ${error.message}`,
    { cause: error }
  )
}
