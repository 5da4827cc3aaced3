/**
 * The one error type of the local Kafka tooling (resolving jars, formatting, starting and
 * stopping brokers). It is test infrastructure, not stream processing, so it has its own closed
 * list of codes instead of StreamsError's; tests assert the code, not the message.
 */

/**
 * Which failure a KafkaLocalError is: a bad option, no Java, Maven could not fetch the jars,
 * javac could not compile a Java program, formatting failed, a broker exited or did not get ready in time, no recorded cluster, one still
 * running, a fixed port taken, or an ACL the cluster did not apply in time.
 */
export type KafkaLocalErrorCode =
  | 'INVALID_OPTION'
  | 'JAVA_NOT_FOUND'
  | 'MAVEN_FAILED'
  | 'JAVAC_FAILED'
  | 'FORMAT_FAILED'
  | 'BROKER_EXITED'
  | 'START_TIMEOUT'
  | 'NOT_RUNNING'
  | 'ALREADY_RUNNING'
  | 'PORT_IN_USE'
  | 'ACL_TIMEOUT'

/** What every failure of the local Kafka tooling throws; `code` says which failure it is. */
export class KafkaLocalError extends Error {
  /** Stable, for tests and callers to branch on (the message is for people). */
  readonly code: KafkaLocalErrorCode

  /** `cause` is the underlying error (e.g. the spawn failure), when there is one. */
  constructor(code: KafkaLocalErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'KafkaLocalError'
    this.code = code
  }
}
