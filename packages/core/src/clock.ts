/** Where wall-clock time comes from; injected so tests and the test driver control it. */
export interface Clock {
  milliseconds(): number
}

export const systemClock: Clock = { milliseconds: () => Date.now() }

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #now: number
  constructor(startMs = 0) {
    this.#now = startMs
  }
  milliseconds(): number {
    return this.#now
  }
  advance(ms: number): void {
    this.#now += ms
  }
  set(ms: number): void {
    this.#now = ms
  }
}
