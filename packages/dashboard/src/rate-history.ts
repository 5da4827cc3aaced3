/**
 * The rates of the last minutes, sampled by the dashboard's timer: per stream thread its process
 * rate (Kafka's `process-rate` thread metric, or, while that is not recorded, the sum of its
 * tasks' committed input rates) and commit latency; per active task the input records committed
 * per second between two samples. Keeps at most `windowMs` of points. Owns nothing else.
 */
import { committedSum, threadMetrics, type DashboardStreams, type HistoryPoint } from './instance-view.js'

export class RateHistory {
  readonly #windowMs: number
  readonly #points: HistoryPoint[] = []
  /** Per task the committed offset sum at the last sample. */
  #last = new Map<string, { t: number; sum: number }>()
  #rates = new Map<string, number>()

  constructor(windowMs: number) {
    this.#windowMs = windowMs
  }

  /** Takes one sample of `streams` at `now` (ms). */
  sample(streams: Pick<DashboardStreams, 'metadataForLocalThreads' | 'metrics'>, now: number): void {
    const metrics = threadMetrics(streams.metrics())
    const next = new Map<string, { t: number; sum: number }>()
    const rates = new Map<string, number>()
    const threads: Record<string, { processRate: number | undefined; commitLatencyAvgMs: number | undefined }> = {}
    for (const thread of streams.metadataForLocalThreads()) {
      let threadInput = 0
      for (const task of thread.activeTasks) {
        const id = task.taskId.toString()
        const sum = committedSum(task)
        if (sum === undefined) continue
        next.set(id, { t: now, sum })
        const before = this.#last.get(id)
        if (before !== undefined && now > before.t) {
          const rate = Math.max(0, ((sum - before.sum) * 1000) / (now - before.t))
          rates.set(id, rate)
          threadInput += rate
        }
      }
      const m = metrics.get(thread.threadName)
      threads[thread.threadName] = {
        processRate: m?.processRate ?? threadInput,
        commitLatencyAvgMs: m?.commitLatencyAvgMs
      }
    }
    this.#last = next
    this.#rates = rates
    this.#points.push({ t: now, threads, tasks: Object.fromEntries(rates) })
    while (this.#points.length > 0 && this.#points[0]!.t < now - this.#windowMs) this.#points.shift()
  }

  /** The points of the window, oldest first. */
  points(): readonly HistoryPoint[] {
    return [...this.#points]
  }

  /** Each active task's input rate at the last sample. */
  rates(): ReadonlyMap<string, number> {
    return this.#rates
  }
}
