/**
 * How KTable.suppress holds back updates (Kafka Streams' `Suppressed`):
 * - `untilWindowCloses(bufferConfig)`: only the final result of each window of a windowed
 *   table, emitted once stream time passes the window's end plus the grace period of the
 *   windowed aggregation (sessions: plus the inactivity gap); deletes are not emitted;
 * - `untilTimeLimit(ms, bufferConfig)`: the latest update of a key, `ms` after the key's first
 *   buffered update (in stream time), or earlier when an eager buffer is full.
 * `withName` names the processor (and the buffer store `<name>-store`). Immutable.
 */
import type { Windowed } from '@kstreams/core'
import { StreamsError } from '@kstreams/core'
import type { BufferConfig, StrictBufferConfig } from './buffer-config.js'
import { validateName } from './named.js'

/** Which suppression: final results of windows, or the latest update per key after a time limit. */
export type SuppressionKind = 'UNTIL_WINDOW_CLOSES' | 'UNTIL_TIME_LIMIT'

/** How KTable.suppress holds back updates (Kafka Streams' Suppressed). Immutable. */
export class Suppressed<K> {
  /**
   * Type-level only (contravariant, as Java's `Suppressed<? super K>`): a table of keys K takes a
   * Suppressed of K or of a supertype; `untilWindowCloses` only fits tables of Windowed keys.
   */
  declare readonly _keyType?: (key: K) => void

  private constructor(
    /** Which suppression. */
    readonly kind: SuppressionKind,
    /** The suppression processor's name; undefined: generated. */
    readonly name: string | undefined,
    /** How long (ms of stream time) a key's update is held; Infinity for untilWindowCloses. */
    readonly timeLimitMs: number,
    /** The buffer's bound and what happens when it is full. */
    readonly bufferConfig: BufferConfig
  ) {}

  /** Final results of a windowed table: one record per window, when the window closes. */
  static untilWindowCloses<K = unknown>(bufferConfig: StrictBufferConfig): Suppressed<Windowed<K>> {
    if (bufferConfig === undefined || bufferConfig === null)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'untilWindowCloses needs a BufferConfig')
    return new Suppressed<Windowed<K>>('UNTIL_WINDOW_CLOSES', undefined, Infinity, bufferConfig)
  }

  /** The latest value of a key, `timeToWaitForMoreEventsMs` after its first buffered update. */
  static untilTimeLimit<K = unknown>(timeToWaitForMoreEventsMs: number, bufferConfig: BufferConfig): Suppressed<K> {
    if (typeof timeToWaitForMoreEventsMs !== 'number' || Number.isNaN(timeToWaitForMoreEventsMs) || timeToWaitForMoreEventsMs < 0) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `timeToWaitForMoreEvents must be a non-negative number of ms, got ${String(timeToWaitForMoreEventsMs)}`
      )
    }
    if (bufferConfig === undefined || bufferConfig === null)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'untilTimeLimit needs a BufferConfig')
    return new Suppressed<K>('UNTIL_TIME_LIMIT', undefined, timeToWaitForMoreEventsMs, bufferConfig)
  }

  /** Names the suppression processor; its buffer store is `<name>-store`. */
  withName(name: string): Suppressed<K> {
    return new Suppressed<K>(this.kind, validateName(name), this.timeLimitMs, this.bufferConfig)
  }
}
