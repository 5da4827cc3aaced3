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

/** What a full suppression buffer does: emit its oldest records early, or stop with a BufferFullError. */
export type BufferFullStrategy = 'EMIT' | 'SHUT_DOWN'

/** The bound of a suppression buffer and what happens when it is exceeded (Kafka Streams' Suppressed.BufferConfig). Immutable. */
export class BufferConfig<S extends BufferFullStrategy = BufferFullStrategy> {
  private constructor(
    /** Most records buffered; Infinity for no bound. */
    readonly maxRecords: number,
    /** Most bytes buffered (estimated as Kafka Streams does); Infinity for no bound. */
    readonly maxBytes: number,
    /** What happens when a bound is exceeded. */
    readonly bufferFullStrategy: S,
    /** Whether the buffer is logged to a changelog topic (default true). */
    readonly loggingEnabled: boolean,
    /** Topic configs of the changelog topic. */
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

  /** A copy with at most `recordLimit` records. */
  withMaxRecords(recordLimit: number): BufferConfig<S> {
    return new BufferConfig(
      checkLimit('recordLimit', recordLimit),
      this.maxBytes,
      this.bufferFullStrategy,
      this.loggingEnabled,
      this.logConfig
    )
  }

  /** A copy with at most `byteLimit` bytes. */
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

  /** A copy whose buffer has no changelog. */
  withLoggingDisabled(): BufferConfig<S> {
    return new BufferConfig(this.maxRecords, this.maxBytes, this.bufferFullStrategy, false, {})
  }

  /** Logs the buffer to its changelog topic, created with `config` as topic-config overrides. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): BufferConfig<S> {
    return new BufferConfig(this.maxRecords, this.maxBytes, this.bufferFullStrategy, true, { ...config })
  }
}

/** A buffer config that never emits early: what untilWindowCloses takes. */
export type StrictBufferConfig = BufferConfig<'SHUT_DOWN'>
/** A buffer config that emits its oldest records early when full. */
export type EagerBufferConfig = BufferConfig<'EMIT'>

function checkLimit(what: string, limit: number): number {
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0)
    throw new StreamsError('ILLEGAL_ARGUMENT', `${what} must be a non-negative number, got ${String(limit)}`)
  return limit
}
