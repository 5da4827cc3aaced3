/**
 * The segments of an in-memory window or session store (Kafka's segment map of
 * InMemoryWindowStore / InMemorySessionStore): one segment per time (window start or session
 * end), the times kept sorted, and the stream time the store has observed (the greatest time
 * put), which decides what has expired: a time at or before `observedStreamTime -
 * retentionPeriod` is dropped on put and never returned.
 */
import { insertTime, lowerBound, removeTime, removeTimesBelow, upperBound } from './sorted-times.js'

export class RetainedSegments<S> {
  readonly #retentionPeriod: number
  readonly #create: () => S
  readonly #segments = new Map<number, S>()
  /** The times of #segments, ascending. */
  readonly #times: number[] = []
  #observedStreamTime = -1

  /** `create` makes the empty segment of a time on its first put. */
  constructor(retentionPeriod: number, create: () => S) {
    this.#retentionPeriod = retentionPeriod
    this.#create = create
  }

  get observedStreamTime(): number {
    return this.#observedStreamTime
  }

  /** Drops every segment and forgets the observed stream time. */
  reset(): void {
    this.#segments.clear()
    this.#times.length = 0
    this.#observedStreamTime = -1
  }

  /**
   * Drops what expired, advances the observed stream time to `time` and tells whether `time` is
   * still live (a put into an expired time is dropped; Kafka counts it as an expired-window drop).
   */
  admit(time: number): boolean {
    this.removeExpired()
    this.#observedStreamTime = Math.max(this.#observedStreamTime, time)
    return !this.isExpired(time)
  }

  isExpired(time: number): boolean {
    return time <= this.#observedStreamTime - this.#retentionPeriod
  }

  /** Drops the segments that can no longer be read (Kafka's removeExpiredSegments). */
  removeExpired(): void {
    const minLiveTime = Math.max(0, this.#observedStreamTime - this.#retentionPeriod + 1)
    for (const time of removeTimesBelow(this.#times, minLiveTime)) this.#segments.delete(time)
  }

  get(time: number): S | undefined {
    return this.#segments.get(time)
  }

  getOrCreate(time: number): S {
    let segment = this.#segments.get(time)
    if (segment === undefined) {
      segment = this.#create()
      this.#segments.set(time, segment)
      insertTime(this.#times, time)
    }
    return segment
  }

  delete(time: number): void {
    this.#segments.delete(time)
    removeTime(this.#times, time)
  }

  /** The times in [from, to] that have a segment, ascending or, when not `forward`, descending. */
  times(from: number, to: number, forward: boolean): number[] {
    const times = this.#times
    const selected = times.slice(lowerBound(times, from), upperBound(times, to))
    return forward ? selected : selected.reverse()
  }
}
