/**
 * The pluggable logger: kstreams logs through this interface only. It is pino's and bunyan's
 * shape, so `logger: pino()` works as it is: each level takes structured fields first and the
 * message second (`logger.info({ task: '0_1' }, 'task created')`) or a message alone, and
 * `child(bindings)` makes a logger whose lines carry `bindings`. A stream thread logs through a
 * child bound to `{ thread }`, a task's lines add `{ task }`. Fields never carry secrets (SASL
 * credentials, TLS keys): the adapters redact what they log of their settings.
 */

/** One level's log method: fields then message (pino's order), or a message alone. */
export interface LogFn {
  (fields: Record<string, unknown>, message?: string): void
  (message: string): void
}

/** Where kstreams logs: pino, bunyan, consoleLogger(), or anything of this shape. */
export interface Logger {
  /** Details that help debugging (a failed request that is tried again). */
  debug: LogFn
  /** Lifecycle events (rebalances, tasks created and revoked, state changes). */
  info: LogFn
  /** Something unexpected that kstreams recovers from. */
  warn: LogFn
  /** A failure. */
  error: LogFn
  /** A logger whose lines carry `bindings` too (pino's and bunyan's child); childLogger() adds them where it is missing. */
  child?(bindings: Record<string, unknown>): Logger
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const
type Level = (typeof LEVELS)[number]

/** The fields and message of a call in either form. */
function parts(first: Record<string, unknown> | string, second: string | undefined): [Record<string, unknown> | undefined, string] {
  return typeof first === 'string' ? [undefined, first] : [first, second ?? '']
}

/** A logger that drops every message: the default. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger }

/**
 * `logger.child(bindings)` when the logger has one (pino, bunyan), else a logger that adds
 * `bindings` to the fields of every line (the line's own fields win).
 */
export function childLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  if (typeof logger.child === 'function') return logger.child(bindings)
  const bound = (level: Level): LogFn =>
    ((first: Record<string, unknown> | string, second?: string): void => {
      const [fields, message] = parts(first, second)
      logger[level]({ ...bindings, ...fields }, message)
    }) as LogFn
  return {
    debug: bound('debug'),
    info: bound('info'),
    warn: bound('warn'),
    error: bound('error'),
    child: more => childLogger(logger, { ...bindings, ...more })
  }
}

/**
 * A logger writing one line per message to stderr at or above `level`: time, level, message and
 * the fields (a child's bindings included) as JSON.
 */
export function consoleLogger(level: Level = 'info', bindings: Record<string, unknown> = {}): Logger {
  const min = LEVELS.indexOf(level)
  const write = (l: Level): LogFn =>
    ((first: Record<string, unknown> | string, second?: string): void => {
      if (LEVELS.indexOf(l) < min) return
      const [fields, message] = parts(first, second)
      const all = { ...bindings, ...fields }
      const json = Object.keys(all).length === 0 ? '' : ` ${JSON.stringify(all, errorsAsObjects)}`
      process.stderr.write(`${new Date().toISOString()} ${l.toUpperCase()} ${message}${json}\n`)
    }) as LogFn
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: more => consoleLogger(level, { ...bindings, ...more })
  }
}

/** JSON.stringify replacer: an Error as its name, message and code (not `{}`). */
function errorsAsObjects(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value
  const code = (value as { code?: unknown }).code
  return { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) }
}
