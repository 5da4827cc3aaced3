/**
 * Session windows (Kafka Streams' `SessionWindows`): per key, records closer than the inactivity
 * gap form one session [first timestamp, last timestamp] (both inclusive); a record bridging two
 * sessions merges them. A session accepts records until stream time passes its end plus the gap
 * and the grace period.
 */
import { StreamsError } from '@kstreams/core'
import { checkMillis } from './window-duration.js'

/** Session windows (Kafka Streams' SessionWindows): per key, records closer than the inactivity gap form a session. */
export class SessionWindows {
  readonly #gapMs: number
  readonly #graceMs: number

  private constructor(gapMs: number, graceMs: number) {
    if (gapMs <= 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Gap time cannot be zero or negative.')
    if (graceMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Grace period must not be negative.')
    this.#gapMs = gapMs
    this.#graceMs = graceMs
  }

  /** Sessions with the given inactivity gap, without grace. */
  static ofInactivityGapWithNoGrace(inactivityGapMs: number): SessionWindows {
    return SessionWindows.ofInactivityGapAndGrace(inactivityGapMs, 0)
  }

  /** Sessions with the given inactivity gap that accept late records until `graceMs` after their close. */
  static ofInactivityGapAndGrace(inactivityGapMs: number, graceMs: number): SessionWindows {
    return new SessionWindows(checkMillis(inactivityGapMs, 'inactivityGap'), checkMillis(graceMs, 'afterWindowEnd'))
  }

  /** The inactivity gap (ms) that ends a session. */
  inactivityGap(): number {
    return this.#gapMs
  }

  /** How long (ms) after a session's close it still accepts out-of-order records. */
  gracePeriodMs(): number {
    return this.#graceMs
  }

  /** Whether `other` is SessionWindows of the same gap and grace. */
  equals(other: unknown): boolean {
    return other instanceof SessionWindows && other.#gapMs === this.#gapMs && other.#graceMs === this.#graceMs
  }

  /** The windows as Kafka Streams prints them. */
  toString(): string {
    return `SessionWindows{gapMs=${this.#gapMs}, graceMs=${this.#graceMs}}`
  }
}
