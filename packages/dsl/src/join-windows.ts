/**
 * The time bounds of a stream-stream join (Kafka Streams' `JoinWindows`): a record of this stream
 * joins a record of the other stream when `other.ts ∈ [this.ts - before, this.ts + after]`
 * (inclusive), and the windows close `grace` ms after their end. Built with
 * `ofTimeDifferenceWithNoGrace` / `ofTimeDifferenceAndGrace` (which enable Kafka's fix of spurious
 * left/outer results: unmatched records are emitted only once their window closed). Immutable.
 */
import { StreamsError } from '@kstreams/core'

/** The time bounds of a stream-stream join (Kafka Streams' JoinWindows): how far apart joined records may be, and the grace period. */
export class JoinWindows {
  /** How far back (ms) a record of this stream joins records of the other stream. */
  readonly beforeMs: number
  /** How far ahead (ms) a record of this stream joins records of the other stream. */
  readonly afterMs: number
  readonly #graceMs: number
  /** @internal Always true for the windows this API builds (Kafka's deprecated `of()` is not provided). */
  readonly spuriousResultFixEnabled: boolean

  private constructor(beforeMs: number, afterMs: number, graceMs: number, spuriousResultFixEnabled: boolean) {
    if (beforeMs + afterMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Window interval (ie, beforeMs+afterMs) must not be negative.')
    if (graceMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Grace period must not be negative.')
    this.beforeMs = beforeMs
    this.afterMs = afterMs
    this.#graceMs = graceMs
    this.spuriousResultFixEnabled = spuriousResultFixEnabled
  }

  /** Records join when their timestamps differ by at most `timeDifferenceMs`; no grace period. */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return JoinWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0)
  }

  /** Records join when their timestamps differ by at most `timeDifferenceMs`; out-of-order records are accepted for `graceMs` after a window ends. */
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): JoinWindows {
    const difference = checkMillis('timeDifference', timeDifferenceMs)
    return new JoinWindows(difference, difference, checkMillis('afterWindowEnd', graceMs), true)
  }

  /** The same windows with a new lower bound: other records may be up to `timeDifferenceMs` older. */
  before(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(checkMillis('timeDifference', timeDifferenceMs), this.afterMs, this.#graceMs, this.spuriousResultFixEnabled)
  }

  /** The same windows with a new upper bound: other records may be up to `timeDifferenceMs` newer. */
  after(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(this.beforeMs, checkMillis('timeDifference', timeDifferenceMs), this.#graceMs, this.spuriousResultFixEnabled)
  }

  /** The window size: before + after (ms). */
  size(): number {
    return this.beforeMs + this.afterMs
  }

  /** How long (ms) after a window's end out-of-order records are still joined. */
  gracePeriodMs(): number {
    return this.#graceMs
  }

  /** The windows as Kafka Streams prints them. */
  toString(): string {
    return `JoinWindows{beforeMs=${this.beforeMs}, afterMs=${this.afterMs}, graceMs=${this.#graceMs}}`
  }
}

function checkMillis(what: string, ms: number): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `${what} must be an integer number of milliseconds, got ${String(ms)}`)
  }
  return ms
}
