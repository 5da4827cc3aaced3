/**
 * The bound of a suppression buffer (Kafka Streams' `Suppressed.BufferConfig`): at most
 * `maxRecords` records and `maxBytes` bytes (Kafka Streams' estimate of the buffered keys,
 * values and record contexts), and what happens when a bound is exceeded: emit the oldest
 * records early (`emitEarlyWhenFull`, an "eager" config) or stop the application with a
 * BufferFullError (`shutDownWhenFull`, a "strict" config; `unbounded()` is strict). The
 * type parameter tells the two apart: `untilWindowCloses` only takes strict configs.
 * The buffer is logged to a changelog unless `withLoggingDisabled()`. Immutable.
 */
import { StreamsError } from '@kstreams/core'

export type BufferFullStrategy = 'EMIT' | 'SHUT_DOWN'

export class BufferConfig<S extends BufferFullStrategy = BufferFullStrategy> {
  private constructor(
    readonly maxRecords: number,
    readonly maxBytes: number,
    readonly bufferFullStrategy: S,
    readonly loggingEnabled: boolean,
    readonly logConfig: Readonly<Record<string, string>>
  ) {}

  /** No bound: the buffer grows as needed (and the application fails when memory runs out). */
  static unbounded(): StrictBufferConfig {
    return new BufferConfig(Infinity, Infinity, 'SHUT_DOWN', true, {})
  }

  /** At most `recordLimit` records; emits the oldest early when full unless `shutDownWhenFull()`. */
  static maxRecords(recordLimit: number): EagerBufferConfig {
    return new BufferConfig(checkLimit('recordLimit', recordLimit), Infinity, 'EMIT', true, {})
  }

  /** At most `byteLimit` bytes; emits the oldest early when full unless `shutDownWhenFull()`. */
  static maxBytes(byteLimit: number): EagerBufferConfig {
    return new BufferConfig(Infinity, checkLimit('byteLimit', byteLimit), 'EMIT', true, {})
  }

  withMaxRecords(recordLimit: number): BufferConfig<S> {
    return new BufferConfig(
      checkLimit('recordLimit', recordLimit),
      this.maxBytes,
      this.bufferFullStrategy,
      this.loggingEnabled,
      this.logConfig
    )
  }

  withMaxBytes(byteLimit: number): BufferConfig<S> {
    return new BufferConfig(
      this.maxRecords,
      checkLimit('byteLimit', byteLimit),
      this.bufferFullStrategy,
      this.loggingEnabled,
      this.logConfig
    )
  }

  /** Removes both bounds (a strict config). */
  withNoBound(): StrictBufferConfig {
    return new BufferConfig(Infinity, Infinity, 'SHUT_DOWN', this.loggingEnabled, this.logConfig)
  }

  /** When full, emits the oldest records before their time (a non-final result may reach downstream). */
  emitEarlyWhenFull(): EagerBufferConfig {
    return new BufferConfig(this.maxRecords, this.maxBytes, 'EMIT', this.loggingEnabled, this.logConfig)
  }

  /** When full, fails the task with a BufferFullError rather than emit early. */
  shutDownWhenFull(): StrictBufferConfig {
    return new BufferConfig(this.maxRecords, this.maxBytes, 'SHUT_DOWN', this.loggingEnabled, this.logConfig)
  }

  withLoggingDisabled(): BufferConfig<S> {
    return new BufferConfig(this.maxRecords, this.maxBytes, this.bufferFullStrategy, false, {})
  }

  /** Logs the buffer to its changelog topic, created with `config` as topic-config overrides. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): BufferConfig<S> {
    return new BufferConfig(this.maxRecords, this.maxBytes, this.bufferFullStrategy, true, { ...config })
  }
}

export type StrictBufferConfig = BufferConfig<'SHUT_DOWN'>
export type EagerBufferConfig = BufferConfig<'EMIT'>

function checkLimit(what: string, limit: number): number {
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0)
    throw new StreamsError('ILLEGAL_ARGUMENT', `${what} must be a non-negative number, got ${String(limit)}`)
  return limit
}
