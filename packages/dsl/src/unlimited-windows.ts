/**
 * Windows from a start time to the end of time (Kafka Streams' `UnlimitedWindows`): a record at
 * or after the start falls in the single window [start, end of time); an earlier one in none.
 * Its size is Number.MAX_SAFE_INTEGER (Java's Long.MAX_VALUE), its grace period 0. Windows never
 * close, so `emitStrategy(EmitStrategy.onWindowClose())` is not allowed with them.
 */
import { StreamsError } from '@kstreams/core'
import { UnlimitedWindow } from './unlimited-window.js'
import { checkMillis } from './window-duration.js'
import { Windows } from './windows.js'

/** Windows from `startMs` to the end of time (Kafka Streams' UnlimitedWindows); create with `UnlimitedWindows.of()`. */
export class UnlimitedWindows extends Windows<UnlimitedWindow> {
  /** The start of the window (ms, inclusive). */
  readonly startMs: number

  private constructor(startMs: number) {
    super()
    this.startMs = startMs
  }

  /** Unlimited windows starting at 0 (the epoch). */
  static of(): UnlimitedWindows {
    return new UnlimitedWindows(0)
  }

  /** Unlimited windows starting at `startMs` (not negative): earlier records fall in no window. */
  startOn(startMs: number): UnlimitedWindows {
    checkMillis(startMs, 'start')
    if (startMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Window start time (startMs) cannot be negative.')
    return new UnlimitedWindows(startMs)
  }

  /** The one window [startMs, end of time) when `timestamp` is at or after the start, else none. */
  windowsFor(timestamp: number): Map<number, UnlimitedWindow> {
    const windows = new Map<number, UnlimitedWindow>()
    if (timestamp >= this.startMs) windows.set(this.startMs, new UnlimitedWindow(this.startMs))
    return windows
  }

  /** Number.MAX_SAFE_INTEGER: the windows have no end (Java's Long.MAX_VALUE). */
  size(): number {
    return Number.MAX_SAFE_INTEGER
  }

  /** 0: the windows never close. */
  gracePeriodMs(): number {
    return 0
  }

  /** Whether `other` is UnlimitedWindows with the same start. */
  equals(other: unknown): boolean {
    return other instanceof UnlimitedWindows && other.startMs === this.startMs
  }

  /** The windows as Kafka Streams prints them. */
  override toString(): string {
    return `UnlimitedWindows{startMs=${this.startMs}}`
  }
}
