/**
 * The schedules of one punctuation type in one task, ordered by due time. A check fires every
 * schedule due at or before the given time once, in due-time order, passing the current time;
 * a fired schedule moves to its next grid point after that time (no catch-up).
 */
import type { PunctuationSchedule } from './punctuation-schedule.js'

export class PunctuationQueue {
  /** Sorted by due time; equal due times keep insertion order. */
  readonly #schedules: PunctuationSchedule[] = []

  add(schedule: PunctuationSchedule): void {
    let i = this.#schedules.length
    while (i > 0 && this.#schedules[i - 1]!.dueMs > schedule.dueMs) i--
    this.#schedules.splice(i, 0, schedule)
  }

  get size(): number {
    return this.#schedules.length
  }

  /** Fires due schedules; returns whether any fired. */
  mayPunctuate(nowMs: number, fire: (schedule: PunctuationSchedule, nowMs: number) => void): boolean {
    let punctuated = false
    while (this.#schedules.length > 0 && this.#schedules[0]!.dueMs <= nowMs) {
      const schedule = this.#schedules.shift()!
      if (schedule.cancelled) continue
      fire(schedule, nowMs)
      // The punctuator may have cancelled its own schedule.
      if (!schedule.cancelled) {
        schedule.advance(nowMs)
        this.add(schedule)
      }
      punctuated = true
    }
    return punctuated
  }

  clear(): void {
    this.#schedules.length = 0
  }
}
