/**
 * The error of a `--command-config` file that cannot be used: its syntax, a key the CLI does not
 * know or cannot honour, a value that is wrong, a key or trust store that cannot be read. The
 * message names the file, the line and the key; it never holds a value of a secret (a password,
 * a JAAS config, a private key). Exit code 2, as for other input the command cannot run with. @internal
 */
import { CliError, EXIT_CODES } from '../cli-error.js'

/** A `--command-config` file the CLI cannot use. */
export class CommandConfigError extends CliError {
  /** The config key that is wrong, when one is. */
  readonly key: string | undefined
  constructor(message: string, options: { key?: string; cause?: unknown } = {}) {
    super('INVALID_CONFIG', message, { exitCode: EXIT_CODES.USAGE, ...(options.cause === undefined ? {} : { cause: options.cause }) })
    this.key = options.key
  }
}
