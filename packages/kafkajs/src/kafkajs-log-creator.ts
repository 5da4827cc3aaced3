/**
 * Routes kafkajs' log lines to the pluggable Logger (kafkajs' `logCreator` hook) and owns the
 * redaction of secrets: any field that could carry SASL or TLS credentials is replaced before a
 * line (or a config we log ourselves) reaches the logger.
 */
import { logLevel as KafkajsLogLevel, type logCreator as KafkajsLogCreator, type LogEntry } from 'kafkajs'
import type { Logger } from '@kstreams/core'

/** kafkajs' log levels, by name. */
export type KafkajsLogLevelName = 'nothing' | 'error' | 'warn' | 'info' | 'debug'

export const KAFKAJS_LOG_LEVELS: Readonly<Record<KafkajsLogLevelName, KafkajsLogLevel>> = {
  nothing: KafkajsLogLevel.NOTHING,
  error: KafkajsLogLevel.ERROR,
  warn: KafkajsLogLevel.WARN,
  info: KafkajsLogLevel.INFO,
  debug: KafkajsLogLevel.DEBUG
}

const REDACTED = '[redacted]'
/** Field names whose values are secrets wherever they appear (compared lower-case). */
const SECRET_KEYS = new Set([
  'password',
  'passphrase',
  'secret',
  'secretaccesskey',
  'sessiontoken',
  'accesstoken',
  'token',
  'oauthbearerprovider',
  'authenticationprovider',
  'key',
  'cert',
  'ca',
  'pfx',
  'credentials'
])

/** A copy of `value` safe to log: secrets replaced, SASL reduced to its mechanism, Buffers summarised. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[function]' : value
  if (depth > 6) return '[nested]'
  if (Buffer.isBuffer(value)) return `<Buffer ${value.length} bytes>`
  if (value instanceof Error) return { name: value.name, message: value.message }
  if (Array.isArray(value)) return value.map(v => redact(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    const lower = key.toLowerCase()
    if (lower === 'sasl') {
      out[key] =
        v !== null && typeof v === 'object' ? { mechanism: (v as { mechanism?: unknown }).mechanism, credentials: REDACTED } : REDACTED
    } else if (lower === 'ssl') {
      out[key] = v !== null && typeof v === 'object' ? { enabled: true, options: REDACTED } : v
    } else if (SECRET_KEYS.has(lower)) {
      out[key] = REDACTED
    } else {
      out[key] = redact(v, depth + 1)
    }
  }
  return out
}

/** A kafkajs logCreator writing to `logger`, one call per kafkajs log line, fields redacted. */
export function createLogCreator(logger: Logger): KafkajsLogCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _source, ...fields } = log
      const text = `kafkajs${namespace === '' ? '' : ` ${namespace}`}: ${message}`
      const safe = redact(fields) as Record<string, unknown>
      switch (level) {
        case KafkajsLogLevel.ERROR:
          logger.error(safe, text)
          break
        case KafkajsLogLevel.WARN:
          logger.warn(safe, text)
          break
        case KafkajsLogLevel.INFO:
          logger.info(safe, text)
          break
        default:
          logger.debug(safe, text)
      }
    }
}
