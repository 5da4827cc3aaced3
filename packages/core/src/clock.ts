/** Where wall-clock time comes from; injected so tests and the test driver control it. */
export interface Clock {
  /** The current time in milliseconds since the epoch. */
  milliseconds(): number
}

/** The system clock (Date.now()). */
export const systemClock: Clock = { milliseconds: () => Date.now() }

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #now: number
  constructor(startMs = 0) {
    this.#now = startMs
  }
  /** The time it was set or advanced to. */
  milliseconds(): number {
    return this.#now
  }
  /** Moves the time forward by `ms`. */
  advance(ms: number): void {
    this.#now += ms
  }
  /** Sets the time to `ms`. */
  set(ms: number): void {
    this.#now = ms
  }
}
