/**
 * The errors of the kstreams command line: StreamsErrors (a stable `code`, the `cause` kept) that
 * also carry the process exit code. A UsageError is a command line that cannot be run as given
 * (exit code 2); the others are failures of the work asked for (exit code 1).
 */
import { StreamsError, type StreamsErrorCode } from '@kstreams/core'

/** The exit codes of the `kstreams` command. */
export const EXIT_CODES = Object.freeze({
  /** Done. */
  OK: 0,
  /** The command failed (Kafka refused, a group is active, a topic is missing, a module has no topology, ...). */
  FAILED: 1,
  /** The command line is wrong: an unknown option, a missing or malformed value, options that exclude each other. */
  USAGE: 2,
  /** `query`: the endpoint answered that the key or the store does not exist. */
  NOT_FOUND: 3
})

/** A failure of a `kstreams` command, with its exit code. */
export class CliError extends StreamsError {
  /** The exit code the command ends with. */
  readonly exitCode: number
  constructor(code: StreamsErrorCode, message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause })
    this.exitCode = options.exitCode ?? EXIT_CODES.FAILED
  }
}

/** A command line that cannot be run as given: names the option or argument that is wrong (exit code 2). */
export class UsageError extends CliError {
  /** The command whose usage was wrong ('' for the top level). */
  readonly command: string
  constructor(command: string, message: string) {
    super('ILLEGAL_ARGUMENT', message, { exitCode: EXIT_CODES.USAGE })
    this.command = command
  }
}
