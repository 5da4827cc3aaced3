/**
 * Windows and windowed keys (Kafka Streams' `Window`, `TimeWindow`, `SessionWindow`, `Windowed`).
 * Time windows are [start, end) (end exclusive); session windows are [start, end] (inclusive).
 */
import { StreamsError } from '../errors.js'

/** A window of time (Kafka Streams' Window): its start and end in ms. */
export abstract class Window {
  constructor(
    /** The window's start (ms, inclusive). */
    readonly start: number,
    /** The window's end (ms): exclusive for a TimeWindow, inclusive for a SessionWindow. */
    readonly end: number
  ) {
    if (start < 0) throw new StreamsError('ILLEGAL_ARGUMENT', `Window startMs time cannot be negative, got ${start}`)
    if (end < start)
      throw new StreamsError('ILLEGAL_ARGUMENT', `Window endMs time cannot be smaller than window startMs time, got [${start}, ${end}]`)
  }

  /** Whether the two windows share a point in time; an ILLEGAL_ARGUMENT error for windows of different types. */
  abstract overlap(other: Window): boolean

  /** Whether `other` is a window of the same type with the same start and end. */
  equals(other: Window): boolean {
    return other.constructor === this.constructor && other.start === this.start && other.end === this.end
  }

  /** `Window{startMs=…, endMs=…}`, as Kafka Streams prints it. */
  toString(): string {
    return `Window{startMs=${this.start}, endMs=${this.end}}`
  }
}

/** A fixed-size window [start, end): end exclusive. */
export class TimeWindow extends Window {
  constructor(start: number, end: number) {
    super(start, end)
    if (end === start)
      throw new StreamsError('ILLEGAL_ARGUMENT', `Window endMs must be greater than window startMs, got [${start}, ${end})`)
  }

  overlap(other: Window): boolean {
    if (!(other instanceof TimeWindow)) throw new StreamsError('ILLEGAL_ARGUMENT', 'Cannot compare windows of different type')
    return this.start < other.end && other.start < this.end
  }
}

/** A session [start, end]: both inclusive; start may equal end. */
export class SessionWindow extends Window {
  overlap(other: Window): boolean {
    if (!(other instanceof SessionWindow)) throw new StreamsError('ILLEGAL_ARGUMENT', 'Cannot compare windows of different type')
    return !(other.end < this.start || this.end < other.start)
  }
}

/** A key with the window it belongs to; prints as `[key@start/end]`. */
export class Windowed<K> {
  constructor(
    /** The key. */
    readonly key: K,
    /** The window the key belongs to. */
    readonly window: Window
  ) {}

  /** `[key@start/end]`. */
  toString(): string {
    return `[${String(this.key)}@${this.window.start}/${this.window.end}]`
  }
}
