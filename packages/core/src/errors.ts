/**
 * Typed errors. Every error kstreams throws is a StreamsError with a stable `code` from the
 * closed list below; tests assert codes, not messages. What user code or a client library threw
 * is kept as `cause`.
 */

/** The stable codes of StreamsError (`error.code`), a closed list. */
export type StreamsErrorCode =
  | 'TOPOLOGY_INVALID'
  | 'DUPLICATE_NODE'
  | 'UNKNOWN_NODE'
  | 'INVALID_PARENT'
  | 'TOPOLOGY_CYCLE'
  | 'SINK_WITHOUT_PARENT'
  | 'DUPLICATE_TOPIC'
  | 'DUPLICATE_STORE'
  | 'UNKNOWN_STORE'
  | 'UNKNOWN_CHILD'
  | 'STORE_NOT_CONNECTED'
  | 'STORE_NOT_OPEN'
  | 'SERIALIZATION'
  | 'INVALID_CONFIG'
  | 'ILLEGAL_STATE'
  | 'ILLEGAL_ARGUMENT'
  | 'UNKNOWN_TOPIC'
  | 'PROCESSING'
  | 'STORE_CORRUPTED'
  | 'STORE_IO_ERROR'
  | 'NOT_RUNNING'
  | 'KAFKA'
  | 'ASSIGNMENT_ERROR'
  | 'SEND_FAILED'
  | 'TASK_CORRUPTED'
  | 'TASK_MIGRATED'
  | 'STATE_DIR_LOCKED'
  | 'CHECKPOINT_CORRUPTED'
  | 'STREAMS_NOT_STARTED'
  | 'STREAMS_REBALANCING'
  | 'STATE_STORE_MIGRATED'
  | 'UNKNOWN_STATE_STORE'
  | 'INVALID_STATE_STORE_PARTITION'
  /** A stream thread on a worker thread did not answer an interactive query in time. */
  | 'STORE_QUERY_TIMEOUT'

/** The optional parts of a StreamsError. */
export interface StreamsErrorOptions {
  /** What user code or a client library threw, kept as the error's `cause`. */
  cause?: unknown
  /** The task the error happened in (TaskId.toString(), e.g. `0_1`). */
  taskId?: string
  /** Whether trying again may succeed (default: false). */
  retriable?: boolean
}

/** The base of every error kstreams throws: a stable `code`, the task it happened in, and whether it is retriable. */
export class StreamsError extends Error {
  /** The stable error code; tests and handlers check it, not the message. */
  readonly code: StreamsErrorCode
  /** The task the error happened in (TaskId.toString()), when there is one. */
  readonly taskId: string | undefined
  /** Whether trying again may succeed (a rebalance in progress, a request that timed out). */
  readonly retriable: boolean

  constructor(code: StreamsErrorCode, message: string, options: StreamsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.taskId = options.taskId
    this.retriable = options.retriable ?? false
  }
}

/** An invalid topology: names the node, topic or store that is wrong. */
export class TopologyError extends StreamsError {}

/** A value that could not be serialized or deserialized: names the topic. */
export class SerializationError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super('SERIALIZATION', message, options)
  }
}

/** A config key that is unknown or has an invalid value: names the key. */
export class ConfigError extends StreamsError {
  /** The config key that is wrong. */
  readonly key: string
  /** `cause`: what made the value unusable (the OS error of a state directory that cannot be created). */
  constructor(key: string, message: string, options: { cause?: unknown } = {}) {
    super('INVALID_CONFIG', message, options)
    this.key = key
  }
}

/** A call made in a state where it is not allowed (a closed store, schedule() outside a node). */
export class IllegalStateError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super('ILLEGAL_STATE', message, options)
  }
}

/** A store that is closed, unknown, or not connected to the processor that asked for it. */
export class InvalidStateStoreError extends StreamsError {}

/** What a processor or punctuator threw, wrapped with the node and task that ran it. */
export class ProcessingError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super('PROCESSING', message, options)
  }
}
