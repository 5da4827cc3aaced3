/**
 * Restore and standby-update metrics under Kafka Streams' names (KIP-869). Per thread, in group
 * `stream-state-updater-metrics` (INFO): active-restoring-tasks, standby-updating-tasks,
 * restore-records-rate (records applied by restores and standby updates, per second),
 * restore-call-rate, and restore-records-total (ours: the running total Kafka does not report). Per task, in group `stream-task-metrics` (DEBUG, as in Kafka):
 * restore-total, restore-rate and restore-remaining-records-total for an active task;
 * update-total and update-rate for a standby task. @internal
 */
import type { Clock } from '../clock.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import { SampledStat } from '../metrics/sampled-stat.js'
import type { TaskId } from '../task-id.js'

const THREAD_GROUP = 'stream-state-updater-metrics'
const TASK_GROUP = 'stream-task-metrics'

/** A running total and its rate per second over Kafka's sample window. */
export class RecordsRate {
  readonly #clock: Clock
  readonly #rate = new SampledStat()
  total = 0

  constructor(clock: Clock) {
    this.#clock = clock
  }

  record(records: number): void {
    this.total += records
    this.#rate.record(records, this.#clock.milliseconds())
  }

  perSecond(nowMs: number): number {
    return this.#rate.ratePerSecond(nowMs)
  }
}

/** What the thread-level metrics read from the changelog reader. */
export interface RestoreCounts {
  /** Distinct active tasks with a store still restoring. */
  restoringActiveTasks(): number
  /** Distinct standby tasks the reader follows. */
  updatingStandbyTasks(): number
}

/** The thread's restore metrics, fed by each restore step. */
export class ThreadRestoreMetrics {
  readonly #records: RecordsRate
  readonly #calls: RecordsRate

  constructor(registry: StreamsMetricsRegistry, clock: Clock, counts: RestoreCounts) {
    this.#records = new RecordsRate(clock)
    this.#calls = new RecordsRate(clock)
    const tags = registry.tags()
    const add = (name: string, description: string, measure: (now: number) => number): void => {
      registry.addMetric('thread-restore', { name, group: THREAD_GROUP, description, tags }, measure)
    }
    add('active-restoring-tasks', 'The number of active tasks currently undergoing restoration', () => counts.restoringActiveTasks())
    add('standby-updating-tasks', 'The number of standby tasks currently undergoing state update', () => counts.updatingStandbyTasks())
    add('restore-records-total', 'The total number of records restored (active restores and standby updates)', () => this.#records.total)
    add('restore-records-rate', 'The average number of records restored per second', now => this.#records.perSecond(now))
    add('restore-call-rate', 'The average number of restore calls triggered per second', now => this.#calls.perSecond(now))
  }

  /** One restore step (a restore call) that applied `records`. */
  recordStep(records: number): void {
    this.#calls.record(1)
    if (records > 0) this.#records.record(records)
  }
}

/**
 * Adds the task-level restore (active) or update (standby) metrics to the task's metric scope
 * `task-<id>`, which goes away when the task closes, and returns the rate they report. Nothing is
 * registered unless the recording level is DEBUG; the returned rate counts either way.
 */
export function addTaskRestoreMetrics(
  registry: StreamsMetricsRegistry | undefined,
  clock: Clock,
  id: TaskId,
  kind: 'restore' | 'update',
  remaining?: () => number
): RecordsRate {
  const rate = new RecordsRate(clock)
  if (registry === undefined || !registry.shouldRecord('DEBUG')) return rate
  const scope = `task-${id.toString()}`
  const tags = registry.tags('task-id', id.toString())
  const what = kind === 'restore' ? 'records restored' : 'records updated by the standby task'
  registry.addMetric(
    scope,
    { name: `${kind}-total`, group: TASK_GROUP, description: `The total number of ${what}`, tags },
    () => rate.total
  )
  registry.addMetric(
    scope,
    { name: `${kind}-rate`, group: TASK_GROUP, description: `The average number of ${what} per second`, tags },
    now => rate.perSecond(now)
  )
  if (remaining !== undefined) {
    registry.addMetric(
      scope,
      { name: 'restore-remaining-records-total', group: TASK_GROUP, description: 'The number of records still to restore', tags },
      () => remaining()
    )
  }
  return rate
}
