/**
 * The pluggable logger: kstreams logs through this interface only (pino-friendly: pass
 * `{ debug: (m, f) => pino.debug(f, m), ... }`). Fields never carry secrets.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

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
