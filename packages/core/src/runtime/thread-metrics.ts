/**
 * A stream thread's own metrics (Kafka Streams' ThreadMetrics), INFO level, in group
 * `stream-thread-metrics` tagged `thread-id`: for each of process, poll, commit and punctuate a
 * `<op>-rate`, `<op>-total` and `<op>-latency-avg` / `<op>-latency-max` (milliseconds, as Kafka's
 * thread-level latencies); `poll-records-avg` / `poll-records-max`; `thread-start-time`. As in
 * Kafka, process-rate / process-total count records processed and process-latency is the time
 * per record of a processing step; commit-total counts commits that committed a task,
 * punctuate-total the steps in which a task punctuated. @internal
 */
import type { Clock } from '../clock.js'
import { SampledStat } from '../metrics/sampled-stat.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import { RecordsRate } from './restore-metrics.js'

const GROUP = 'stream-thread-metrics'
const SCOPE = 'thread'

/** One operation of the thread loop: how often (rate and total of `count`) and how long it took. */
class OperationStats {
  readonly rate: RecordsRate
  readonly latency = new SampledStat()

  constructor(clock: Clock) {
    this.rate = new RecordsRate(clock)
  }
}

export class ThreadMetrics {
  readonly #clock: Clock
  readonly #process: OperationStats
  readonly #poll: OperationStats
  readonly #pollRecords = new SampledStat()
  readonly #commit: OperationStats
  readonly #punctuate: OperationStats

  constructor(registry: StreamsMetricsRegistry, clock: Clock) {
    this.#clock = clock
    const tags = registry.tags()
    const add = (name: string, description: string, measure: (now: number) => number): void => {
      registry.addMetric(SCOPE, { name, group: GROUP, description, tags }, measure)
    }
    const operation = (op: string, what: string): OperationStats => {
      const stats = new OperationStats(clock)
      add(`${op}-rate`, `The average number of ${what} per second`, now => stats.rate.perSecond(now))
      add(`${op}-total`, `The total number of ${what}`, () => stats.rate.total)
      add(`${op}-latency-avg`, `The average ${op} latency in ms`, now => stats.latency.avg(now))
      add(`${op}-latency-max`, `The maximum ${op} latency in ms`, now => stats.latency.max(now))
      return stats
    }
    this.#process = operation('process', 'records processed')
    this.#poll = operation('poll', 'calls to poll')
    this.#commit = operation('commit', 'commits')
    this.#punctuate = operation('punctuate', 'punctuations')
    add('poll-records-avg', 'The average number of records polled from the consumer within an iteration', now => this.#pollRecords.avg(now))
    add('poll-records-max', 'The maximum number of records polled from the consumer within an iteration', now => this.#pollRecords.max(now))
    const started = clock.milliseconds()
    add('thread-start-time', 'The time the thread was started (ms since the epoch)', () => started)
  }

  /** A processing step processed `records` in `latencyMs`. */
  recordProcess(records: number, latencyMs: number): void {
    if (records === 0) return
    this.#record(this.#process, records, latencyMs / records)
  }

  /** A poll returned `records` after `latencyMs`. */
  recordPoll(records: number, latencyMs: number): void {
    this.#record(this.#poll, 1, latencyMs)
    this.#pollRecords.record(records, this.#clock.milliseconds())
  }

  /** A commit of `tasks` tasks took `latencyMs` (nothing is recorded when no task committed). */
  recordCommit(tasks: number, latencyMs: number): void {
    if (tasks > 0) this.#record(this.#commit, 1, latencyMs)
  }

  /** A punctuation step in which `tasks` tasks punctuated took `latencyMs`. */
  recordPunctuate(tasks: number, latencyMs: number): void {
    if (tasks > 0) this.#record(this.#punctuate, 1, latencyMs)
  }

  #record(stats: OperationStats, count: number, latencyMs: number): void {
    stats.rate.record(count)
    stats.latency.record(latencyMs, this.#clock.milliseconds())
  }
}
