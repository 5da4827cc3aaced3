/**
 * What a record that cannot be deserialized does, from `deserializationExceptionHandler`
 * ('logAndFail' by default, 'logAndContinue', or a function), for stream tasks and the global
 * task alike (the runtime and the TopologyTestDriver): skipped records are logged at warn, failing
 * ones at error; the handler sees the record's position and its task. @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { SerializationError } from '../errors.js'
import { silentLogger, type Logger } from '../logger.js'
import type { ConsumedRecord } from './consumed-record.js'

/** Decides what a deserialization error does: skip the record, or fail the task. */
export type DeserializationErrorHandler = (record: ConsumedRecord, error: Error, taskId?: string) => 'CONTINUE' | 'FAIL'

export function configuredDeserializationHandler(
  config: ResolvedStreamsConfig,
  logger: Logger = silentLogger
): DeserializationErrorHandler {
  const configured = config.deserializationExceptionHandler
  return (record, error, taskId = '') => {
    const response =
      configured === 'logAndContinue'
        ? 'CONTINUE'
        : configured === 'logAndFail'
          ? 'FAIL'
          : configured(
              { topic: record.topic, partition: record.partition, offset: record.offset, timestamp: record.timestamp, taskId },
              error
            )
    const log = response === 'CONTINUE' ? logger.warn : logger.error
    log.call(
      logger,
      `Deserialization error at ${record.topic}-${record.partition} offset ${record.offset} (${response === 'CONTINUE' ? 'skipped' : 'failing'}): ${error.message}`
    )
    return response
  }
}

/** The typed error a FAIL response raises, naming where the record is. */
export function deserializationFailure(record: ConsumedRecord, error: Error): SerializationError {
  return new SerializationError(
    `Deserialization exception handler is set to fail upon a deserialization error: topic ${record.topic}, partition ${record.partition}, offset ${record.offset}: ${error.message}`,
    { cause: error }
  )
}
