/**
 * Fixed-size time windows (Kafka Streams' `TimeWindows`): tumbling (advance = size) or hopping
 * (advance < size). Windows are [start, start + size), their starts multiples of the advance
 * from epoch 0; a record at t belongs to every window with a start in
 * [max(0, t - size + advance) aligned down to the advance, t]. A window accepts records until
 * stream time passes its end plus the grace period.
 */
import { StreamsError, TimeWindow } from '@kstreams/core'
import { checkMillis } from './window-duration.js'
import { Windows } from './windows.js'

/** Fixed-size time windows (Kafka Streams' TimeWindows): tumbling or hopping, [start, start + size). */
export class TimeWindows extends Windows<TimeWindow> {
  /** The size of the windows (ms). */
  readonly sizeMs: number
  /** By how much a window moves forward relative to the previous one (ms). */
  readonly advanceMs: number
  readonly #graceMs: number

  private constructor(sizeMs: number, advanceMs: number, graceMs: number) {
    super()
    if (sizeMs <= 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Window size (sizeMs) must be larger than zero.')
    if (advanceMs <= 0 || advanceMs > sizeMs) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Window advancement interval should be more than zero and less than window duration which is ${sizeMs} ms, but given advancement interval is: ${advanceMs} ms`
      )
    }
    if (graceMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', 'Grace period must not be negative.')
    this.sizeMs = sizeMs
    this.advanceMs = advanceMs
    this.#graceMs = graceMs
  }

  /** Tumbling windows of `sizeMs` without grace: a record after its window's end is dropped. */
  static ofSizeWithNoGrace(sizeMs: number): TimeWindows {
    return TimeWindows.ofSizeAndGrace(sizeMs, 0)
  }

  /** Tumbling windows of `sizeMs` that accept out-of-order records until `graceMs` after their end. */
  static ofSizeAndGrace(sizeMs: number, graceMs: number): TimeWindows {
    return new TimeWindows(checkMillis(sizeMs, 'size'), checkMillis(sizeMs, 'size'), checkMillis(graceMs, 'afterWindowEnd'))
  }

  /** Hopping windows of the same size and grace that start every `advanceMs` (0 < advance <= size). */
  advanceBy(advanceMs: number): TimeWindows {
    return new TimeWindows(this.sizeMs, checkMillis(advanceMs, 'advance'), this.#graceMs)
  }

  /** The windows a record at `timestamp` falls in, by start, oldest first. */
  windowsFor(timestamp: number): Map<number, TimeWindow> {
    const windows = new Map<number, TimeWindow>()
    let start = Math.floor(Math.max(0, timestamp - this.sizeMs + this.advanceMs) / this.advanceMs) * this.advanceMs
    for (; start <= timestamp; start += this.advanceMs) windows.set(start, new TimeWindow(start, start + this.sizeMs))
    return windows
  }

  /** The window size (ms). */
  size(): number {
    return this.sizeMs
  }

  /** How long (ms) after a window's end it still accepts out-of-order records. */
  gracePeriodMs(): number {
    return this.#graceMs
  }

  /** Whether `other` is TimeWindows of the same size, advance and grace. */
  equals(other: unknown): boolean {
    return (
      other instanceof TimeWindows && other.sizeMs === this.sizeMs && other.advanceMs === this.advanceMs && other.#graceMs === this.#graceMs
    )
  }

  /** The windows as Kafka Streams prints them. */
  override toString(): string {
    return `TimeWindows{, sizeMs=${this.sizeMs}, advanceMs=${this.advanceMs}, graceMs=${this.#graceMs}}`
  }
}
