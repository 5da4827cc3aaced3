/**
 * A Scheduler whose time moves only through advance(): deterministic session expiry, rebalance
 * timeouts and fetch waits in unit tests. Tasks run synchronously inside advance(), in due order
 * (ties in scheduling order), each with the clock set to its due time; a task scheduled by a task
 * runs in the same advance() when it falls due within it. Promises the tasks settle resolve after
 * advance() returns: `await` something (e.g. `await scheduler.settle()`) before asserting.
 */
import { StreamsError } from '@kstreams/core'
import type { Scheduler } from './scheduler.js'

interface Task {
  readonly at: number
  readonly seq: number
  readonly run: () => void
  cancelled: boolean
}

/** A Scheduler whose time moves only through advance(): deterministic timeouts in unit tests. */
export class ManualScheduler implements Scheduler {
  #now: number
  #seq = 0
  #tasks: Task[] = []

  constructor(startMs = 0) {
    this.#now = startMs
  }

  milliseconds(): number {
    return this.#now
  }

  schedule(delayMs: number, task: () => void): () => void {
    const entry: Task = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, run: task, cancelled: false }
    this.#tasks.push(entry)
    return () => {
      entry.cancelled = true
    }
  }

  /** Moves the clock forward by `ms` (0 runs what is due now), running every task that falls due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new StreamsError('ILLEGAL_ARGUMENT', `advance() takes a non-negative duration, got ${ms}`)
    const until = this.#now + ms
    for (;;) {
      const next = this.#nextDue(until)
      if (next === undefined) break
      this.#now = Math.max(this.#now, next.at)
      next.cancelled = true
      next.run()
    }
    this.#now = until
    this.#tasks = this.#tasks.filter(t => !t.cancelled)
  }

  /** The number of tasks still waiting (not run, not cancelled). */
  get pending(): number {
    this.#tasks = this.#tasks.filter(t => !t.cancelled)
    return this.#tasks.length
  }

  /** Lets promises settled by the tasks resolve (a few macrotask turns). */
  async settle(): Promise<void> {
    for (let i = 0; i < 5; i++) await new Promise<void>(resolve => setImmediate(resolve))
  }

  #nextDue(until: number): Task | undefined {
    let best: Task | undefined
    for (const task of this.#tasks) {
      if (task.cancelled || task.at > until) continue
      if (best === undefined || task.at < best.at || (task.at === best.at && task.seq < best.seq)) best = task
    }
    return best
  }
}
