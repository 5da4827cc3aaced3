/**
 * Sliding windows (Kafka Streams' `SlidingWindows`): windows [start, start + timeDifference]
 * (both ends inclusive) that exist only where records are: each record gets a window ending at
 * its timestamp, and a window starting just after it when a later record falls within the time
 * difference. A window accepts records until stream time passes its end plus the grace period.
 */
import { StreamsError } from '@kstreams/core'
import { checkMillis } from './window-duration.js'

/** Sliding windows (Kafka Streams' SlidingWindows): [start, start + timeDifference], only where records are. */
export class SlidingWindows {
  readonly #timeDifferenceMs: number
  readonly #graceMs: number

  private constructor(timeDifferenceMs: number, graceMs: number) {
    if (timeDifferenceMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Window time difference must not be negative.')
    if (graceMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Window grace period must not be negative.')
    this.#timeDifferenceMs = timeDifferenceMs
    this.#graceMs = graceMs
  }

  /** Windows of the given maximum time difference between records (inclusive), without grace. */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): SlidingWindows {
    return SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0)
  }

  /** Windows of the given maximum time difference between records (inclusive) and grace period. */
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): SlidingWindows {
    return new SlidingWindows(checkMillis(timeDifferenceMs, 'timeDifference'), checkMillis(graceMs, 'afterWindowEnd'))
  }

  /** The largest time difference (ms) between records of one window. */
  timeDifferenceMs(): number {
    return this.#timeDifferenceMs
  }

  /** How long (ms) after a window's end it still accepts out-of-order records. */
  gracePeriodMs(): number {
    return this.#graceMs
  }

  /** Whether `other` is SlidingWindows of the same time difference and grace. */
  equals(other: unknown): boolean {
    return other instanceof SlidingWindows && other.#timeDifferenceMs === this.#timeDifferenceMs && other.#graceMs === this.#graceMs
  }

  /** The windows as Kafka Streams prints them. */
  toString(): string {
    return `SlidingWindows{, sizeMs=${this.#timeDifferenceMs}, graceMs=${this.#graceMs}}`
  }
}
