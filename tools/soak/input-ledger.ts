/**
 * What the producer wrote, as the output check needs it: the timestamp of every click (view n is
 * click n's key, VIEW_DELAY_MS later) and how many user updates went out. From these it derives
 * the expected output: the clicks per key and count window, and the (click, view) pairs of the
 * join window.
 */
import { JOIN_WINDOW_MS, keyOf, VIEW_DELAY_MS, windowStartOf } from './records.js'

export class InputLedger {
  readonly keys: number
  #timestamps = new Float64Array(1 << 16)
  #clicks = 0
  /** User records written, the preload included. */
  users = 0

  constructor(keys: number) {
    this.keys = keys
  }

  /** Clicks written (and as many views). */
  get clicks(): number {
    return this.#clicks
  }

  /** Notes that click (and view) `clicks` was written, at `timestamp`; returns its sequence number. */
  addClick(timestamp: number): number {
    if (this.#clicks === this.#timestamps.length) {
      const grown = new Float64Array(this.#timestamps.length * 2)
      grown.set(this.#timestamps)
      this.#timestamps = grown
    }
    this.#timestamps[this.#clicks] = timestamp
    return this.#clicks++
  }

  clickTimestamp(seq: number): number {
    return this.#timestamps[seq]!
  }

  viewTimestamp(seq: number): number {
    return this.#timestamps[seq]! + VIEW_DELAY_MS
  }

  /** Clicks per key and count-window start: `key -> (window start -> count)`. */
  expectedCounts(): Map<string, Map<number, number>> {
    const counts = new Map<string, Map<number, number>>()
    for (let seq = 0; seq < this.#clicks; seq++) {
      const key = keyOf(seq, this.keys)
      let windows = counts.get(key)
      if (windows === undefined) counts.set(key, (windows = new Map()))
      const start = windowStartOf(this.#timestamps[seq]!)
      windows.set(start, (windows.get(start) ?? 0) + 1)
    }
    return counts
  }

  /**
   * Calls `pair(click, view)` for every pair the join must output: same key (sequence numbers equal
   * modulo the key space) and timestamps at most JOIN_WINDOW_MS apart. Timestamps never decrease
   * with the sequence number, so the walk from each click stops at the first view out of reach.
   */
  forEachExpectedPair(pair: (click: number, view: number) => void): void {
    const keys = this.keys
    for (let click = 0; click < this.#clicks; click++) {
      const time = this.#timestamps[click]!
      for (let view = click; view >= 0 && time - this.viewTimestamp(view) <= JOIN_WINDOW_MS; view -= keys) {
        if (this.viewTimestamp(view) - time <= JOIN_WINDOW_MS) pair(click, view)
      }
      for (let view = click + keys; view < this.#clicks && this.viewTimestamp(view) - time <= JOIN_WINDOW_MS; view += keys) {
        pair(click, view)
      }
    }
  }
}
