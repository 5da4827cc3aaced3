/**
 * What the dashboard shows of one instance, read from its KafkaStreams: its state, its stream
 * threads with their active and standby tasks (input lag from the committed and end offsets of
 * each input partition, standby lag from standbyProgress()), the restores and standby updates in
 * progress (position, end, rate, ETA) and the thread metrics Kafka Streams names
 * (`stream-thread-metrics`: process, commit and poll rates and latencies). Owns the JSON shape
 * the page polls; `rate-history.ts` keeps the rates over time.
 */
import type { MetricSnapshot, RestoreProgress, StandbyProgress, StreamsMetadata, TaskMetadata, ThreadMetadata } from '@kstreams/core'

/** What the dashboard reads of a KafkaStreams instance (KafkaStreams has all of it). */
export interface DashboardStreams {
  /** The instance's state (KafkaStreams.state()). */
  state(): string
  /** The instance's `host:port` (KafkaStreams.applicationServer). */
  readonly applicationServer: string | undefined
  /** Its stream threads and their tasks. */
  metadataForLocalThreads(): ThreadMetadata[]
  /** Every instance of the application with an applicationServer (throws unless RUNNING or REBALANCING). */
  metadataForAllStreamsClients(): StreamsMetadata[]
  /** The restores in progress. */
  restoreProgress(): RestoreProgress[]
  /** The standby stores and how far behind they are. */
  standbyProgress(): StandbyProgress[]
  /** Every metric now. */
  metrics(): MetricSnapshot[]
}

/** A task of a thread. */
export interface TaskView {
  /** The task id (`<sub-topology>_<partition>`). */
  readonly id: string
  /** Its input partitions as `topic-partition`. */
  readonly partitions: readonly string[]
  /** Records of its input partitions after the committed offsets (active tasks); undefined until known. */
  readonly inputLag: number | undefined
  /** Records its standby stores are behind their changelogs (standby tasks). */
  readonly standbyLag: number | undefined
  /** Records its stores still have to restore (active tasks restoring). */
  readonly restoreRemaining: number | undefined
  /** Input records committed per second over the last sample interval (active tasks). */
  readonly inputRate: number | undefined
}

/** The metrics of a stream thread that the page shows (Kafka's `stream-thread-metrics`; undefined when not recorded). */
export interface ThreadMetricsView {
  /** Records processed per second. */
  readonly processRate: number | undefined
  /** Average time per record of a processing step (ms). */
  readonly processLatencyAvgMs: number | undefined
  /** Commits per second. */
  readonly commitRate: number | undefined
  /** Average commit time (ms). */
  readonly commitLatencyAvgMs: number | undefined
  /** Polls per second. */
  readonly pollRate: number | undefined
}

/** A stream thread. */
export interface ThreadView {
  /** Its name (the `thread-id` of its metrics). */
  readonly name: string
  /** Its state. */
  readonly state: string
  /** Its active tasks. */
  readonly active: readonly TaskView[]
  /** Its standby tasks. */
  readonly standby: readonly TaskView[]
  /** Its metrics now. */
  readonly metrics: ThreadMetricsView
}

/** A restore, or a standby store being kept up to date. */
export interface ProgressView {
  /** A restore of an active task's store, or a standby's update. */
  readonly kind: 'restore' | 'standby'
  /** The store. */
  readonly store: string
  /** The task; undefined when it has none. */
  readonly task: string | undefined
  /** The changelog topic. */
  readonly topic: string
  /** The changelog partition. */
  readonly partition: number
  /** The next offset to apply. */
  readonly position: number
  /** The changelog's end (captured at the start of a restore, last seen for a standby). */
  readonly end: number
  /** Records left to the end. */
  readonly remaining: number
  /** Records applied per second. */
  readonly recordsPerSecond: number
  /** Estimated time to the end (restores after their first batch). */
  readonly etaMs: number | undefined
}

/** The tasks the group's assignment gives an instance (its host info), computed from its partitions. */
export interface AssignedTasks {
  /** Active task ids. */
  readonly active: readonly string[]
  /** Standby task ids. */
  readonly standby: readonly string[]
}

/** A thread's rates at one point of the history. */
export interface ThreadRates {
  /** Records processed per second (the thread metric, else the committed input rate of its tasks). */
  readonly processRate: number | undefined
  /** Average commit time (ms), when the thread metric is recorded. */
  readonly commitLatencyAvgMs: number | undefined
}

/** One point of the rate history. */
export interface HistoryPoint {
  /** When (ms since the epoch). */
  readonly t: number
  /** Per thread: records processed per second (the thread metric, else the committed input rate) and commit latency. */
  readonly threads: Readonly<Record<string, ThreadRates>>
  /** Per active task: input records committed per second. */
  readonly tasks: Readonly<Record<string, number>>
}

/** An instance of the application. */
export interface InstanceView {
  /** Its applicationServer (`host:port`); undefined when it has none. */
  readonly host: string | undefined
  /** Whether this is the instance that served the page. */
  readonly local: boolean
  /** Whether its dashboard answered (always true for the local one). */
  readonly reachable: boolean
  /** Why it did not answer. */
  readonly error?: string
  /** Its KafkaStreams state ('UNKNOWN' when it did not answer). */
  readonly state: string
  /** Its stream threads (empty when it did not answer). */
  readonly threads: readonly ThreadView[]
  /** Restores and standby updates in progress. */
  readonly progress: readonly ProgressView[]
  /** Rates over the last minutes, oldest first. */
  readonly history: readonly HistoryPoint[]
  /** What the group's assignment gives it. */
  readonly assigned: AssignedTasks
}

const THREAD_GROUP = 'stream-thread-metrics'

function finite(value: number | undefined): number | undefined {
  return value === undefined || !Number.isFinite(value) ? undefined : value
}

/** The thread metrics of `metrics`, by thread name. */
export function threadMetrics(metrics: readonly MetricSnapshot[]): Map<string, ThreadMetricsView> {
  const byThread = new Map<string, Map<string, number>>()
  for (const m of metrics) {
    if (m.group !== THREAD_GROUP) continue
    const thread = m.tags['thread-id']
    if (thread === undefined) continue
    let values = byThread.get(thread)
    if (values === undefined) byThread.set(thread, (values = new Map()))
    values.set(m.name, m.value)
  }
  const out = new Map<string, ThreadMetricsView>()
  for (const [thread, v] of byThread)
    out.set(thread, {
      processRate: finite(v.get('process-rate')),
      processLatencyAvgMs: finite(v.get('process-latency-avg')),
      commitRate: finite(v.get('commit-rate')),
      commitLatencyAvgMs: finite(v.get('commit-latency-avg')),
      pollRate: finite(v.get('poll-rate'))
    })
  return out
}

const NO_METRICS: ThreadMetricsView = {
  processRate: undefined,
  processLatencyAvgMs: undefined,
  commitRate: undefined,
  commitLatencyAvgMs: undefined,
  pollRate: undefined
}

/** Records of the task's input partitions after its committed offsets; undefined while any end or commit is unknown. */
export function inputLag(task: TaskMetadata): number | undefined {
  let lag = 0
  for (const tp of task.topicPartitions) {
    const key = `${tp.topic}-${tp.partition}`
    const end = task.endOffsets.get(key)
    const committed = task.committedOffsets.get(key)
    if (end === undefined || committed === undefined) return undefined
    lag += Math.max(0, end - committed)
  }
  return lag
}

/** The sum of the task's committed input offsets (what input rates are computed from). */
export function committedSum(task: TaskMetadata): number | undefined {
  let sum = 0
  for (const tp of task.topicPartitions) {
    const committed = task.committedOffsets.get(`${tp.topic}-${tp.partition}`)
    if (committed === undefined) return undefined
    sum += committed
  }
  return sum
}

function sumBy<T>(
  items: readonly T[],
  task: string,
  pick: (item: T) => number,
  taskOf: (item: T) => string | undefined
): number | undefined {
  const mine = items.filter(i => taskOf(i) === task)
  return mine.length === 0 ? undefined : mine.reduce((n, i) => n + pick(i), 0)
}

/** Where restores and standby updates stand. */
export function progressViews(restores: readonly RestoreProgress[], standbys: readonly StandbyProgress[]): ProgressView[] {
  return [
    ...restores.map(
      (r): ProgressView => ({
        kind: 'restore',
        store: r.storeName,
        task: r.taskId?.toString(),
        topic: r.partition.topic,
        partition: r.partition.partition,
        position: r.position,
        end: r.endOffset,
        remaining: r.remaining,
        recordsPerSecond: r.recordsPerSecond,
        etaMs: r.etaMs
      })
    ),
    ...standbys.map(
      (s): ProgressView => ({
        kind: 'standby',
        store: s.storeName,
        task: s.taskId?.toString(),
        topic: s.partition.topic,
        partition: s.partition.partition,
        position: s.position,
        end: s.currentEndOffset,
        remaining: s.lag,
        recordsPerSecond: s.recordsPerSecond,
        etaMs: undefined
      })
    )
  ]
}

/** The local instance now; `rates` gives each active task's recent input rate. */
export function localInstanceView(
  streams: DashboardStreams,
  assigned: AssignedTasks,
  history: readonly HistoryPoint[],
  rates: ReadonlyMap<string, number>
): InstanceView {
  const restores = streams.restoreProgress()
  const standbys = streams.standbyProgress()
  const metrics = threadMetrics(streams.metrics())
  const taskOfRestore = (r: RestoreProgress): string | undefined => r.taskId?.toString()
  const taskOfStandby = (s: StandbyProgress): string | undefined => s.taskId?.toString()
  const task = (t: TaskMetadata, role: 'active' | 'standby'): TaskView => {
    const id = t.taskId.toString()
    return {
      id,
      partitions: t.topicPartitions.map(tp => `${tp.topic}-${tp.partition}`),
      inputLag: role === 'active' ? inputLag(t) : undefined,
      standbyLag: role === 'standby' ? sumBy(standbys, id, s => s.lag, taskOfStandby) : undefined,
      restoreRemaining: role === 'active' ? sumBy(restores, id, r => r.remaining, taskOfRestore) : undefined,
      inputRate: role === 'active' ? rates.get(id) : undefined
    }
  }
  const threads = streams.metadataForLocalThreads().map(
    (t): ThreadView => ({
      name: t.threadName,
      state: t.threadState,
      active: t.activeTasks.map(a => task(a, 'active')),
      standby: t.standbyTasks.map(s => task(s, 'standby')),
      metrics: metrics.get(t.threadName) ?? NO_METRICS
    })
  )
  return {
    host: streams.applicationServer,
    local: true,
    reachable: true,
    state: streams.state(),
    threads,
    progress: progressViews(restores, standbys),
    history,
    assigned
  }
}
