/**
 * Sliding windows (Kafka Streams' `SlidingWindows`): windows [start, start + timeDifference]
 * (both ends inclusive) that exist only where records are: each record gets a window ending at
 * its timestamp, and a window starting just after it when a later record falls within the time
 * difference. A window accepts records until stream time passes its end plus the grace period.
 */
import { StreamsError } from '@kstreams/core'
import { checkMillis } from './window-duration.js'

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

  timeDifferenceMs(): number {
    return this.#timeDifferenceMs
  }

  gracePeriodMs(): number {
    return this.#graceMs
  }

  equals(other: unknown): boolean {
    return other instanceof SlidingWindows && other.#timeDifferenceMs === this.#timeDifferenceMs && other.#graceMs === this.#graceMs
  }

  toString(): string {
    return `SlidingWindows{, sizeMs=${this.#timeDifferenceMs}, graceMs=${this.#graceMs}}`
  }
}
