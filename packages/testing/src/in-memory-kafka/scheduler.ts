/**
 * Where the in-memory Kafka gets its time and timers from (session and rebalance timeouts, fetch
 * long-polls, injected delays). SystemScheduler uses the wall clock and unref'd Node timers, so a
 * forgotten InMemoryKafka never keeps a test process alive; ManualScheduler moves only when told.
 */
import type { Clock } from '@kstreams/core'

/** Where the in-memory Kafka gets its time and timers from (session and rebalance timeouts, fetch waits, injected delays). */
export interface Scheduler extends Clock {
  /** Runs `task` once, `delayMs` from now; the returned function cancels it. */
  schedule(delayMs: number, task: () => void): () => void
}

/** The wall clock and unref'd Node timers: a forgotten InMemoryKafka never keeps a test process alive. */
export class SystemScheduler implements Scheduler {
  milliseconds(): number {
    return Date.now()
  }

  schedule(delayMs: number, task: () => void): () => void {
    const timer = setTimeout(task, Math.max(0, delayMs))
    timer.unref()
    return () => clearTimeout(timer)
  }
}
