/**
 * The one error type of the local Kafka tooling (resolving jars, formatting, starting and
 * stopping brokers). It is test infrastructure, not stream processing, so it has its own closed
 * list of codes instead of StreamsError's; tests assert the code, not the message.
 */
export type KafkaLocalErrorCode =
  | 'INVALID_OPTION'
  | 'JAVA_NOT_FOUND'
  | 'MAVEN_FAILED'
  | 'FORMAT_FAILED'
  | 'BROKER_EXITED'
  | 'START_TIMEOUT'
  | 'NOT_RUNNING'
  | 'ALREADY_RUNNING'
  | 'PORT_IN_USE'

export class KafkaLocalError extends Error {
  readonly code: KafkaLocalErrorCode

  constructor(code: KafkaLocalErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'KafkaLocalError'
    this.code = code
  }
}
