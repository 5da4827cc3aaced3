/**
 * The pluggable logger: kstreams logs through this interface only (pino-friendly: pass
 * `{ debug: (m, f) => pino.debug(f, m), ... }`). Fields never carry secrets.
 */
export interface Logger {
  /** Logs details that help debugging (a failed request that is tried again). */
  debug(message: string, fields?: Record<string, unknown>): void
  /** Logs lifecycle events (rebalances, tasks created and revoked, state changes). */
  info(message: string, fields?: Record<string, unknown>): void
  /** Logs something unexpected that kstreams recovers from. */
  warn(message: string, fields?: Record<string, unknown>): void
  /** Logs a failure. */
  error(message: string, fields?: Record<string, unknown>): void
}

/** A logger that drops every message: the default. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }

/** A logger writing one line per message to stderr at or above `level`. */
export function consoleLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error']
  const min = order.indexOf(level)
  const write =
    (l: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (order.indexOf(l) < min) return
      process.stderr.write(
        `${new Date().toISOString()} ${l.toUpperCase()} ${message}${fields === undefined ? '' : ' ' + JSON.stringify(fields)}\n`
      )
    }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}
