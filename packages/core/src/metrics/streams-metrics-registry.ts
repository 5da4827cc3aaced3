/**
 * The metrics of one stream thread (Kafka's StreamsMetricsImpl, reduced to what the store layers
 * and the record cache need): sensors grouped by scope (a store of a task, a cache), the metrics
 * each sensor reports under Kafka's names and tags, and a snapshot of every metric's value.
 * Removing a scope (a store closing) removes its sensors and metrics.
 */
import type { Clock } from '../clock.js'
import { systemClock } from '../clock.js'
import type { MetricName, MetricSnapshot } from './metric-name.js'
import { type RecordingLevel, checkRecordingLevel, shouldRecord } from './recording-level.js'
import { DEFAULT_SAMPLE_CONFIG, type SampleConfig } from './sampled-stat.js'
import { Sensor } from './sensor.js'

export interface StreamsMetricsRegistryOptions {
  /** Kafka's `metrics.recording.level`; default INFO. */
  readonly recordingLevel?: RecordingLevel
  /** Drives the sample windows; default the system clock. */
  readonly clock?: Clock
  /** The `thread-id` tag of every metric; default 'main'. */
  readonly threadId?: string
  readonly sampleConfig?: SampleConfig
}

/** Computes a metric's value at `nowMs`. */
export type MetricMeasure = (nowMs: number) => number

interface RegisteredMetric {
  readonly metricName: MetricName
  readonly measure: MetricMeasure
}

interface Scope {
  readonly sensors: Map<string, Sensor>
  /** Keyed by name and tags, so that re-adding a metric replaces it. */
  readonly metrics: Map<string, RegisteredMetric>
}

export class StreamsMetricsRegistry {
  readonly recordingLevel: RecordingLevel
  readonly threadId: string
  readonly #clock: Clock
  readonly #sampleConfig: SampleConfig
  readonly #scopes = new Map<string, Scope>()

  constructor(options: StreamsMetricsRegistryOptions = {}) {
    this.recordingLevel = checkRecordingLevel(options.recordingLevel ?? 'INFO')
    this.threadId = options.threadId ?? 'main'
    this.#clock = options.clock ?? systemClock
    this.#sampleConfig = options.sampleConfig ?? DEFAULT_SAMPLE_CONFIG
  }

  shouldRecord(level: RecordingLevel): boolean {
    return shouldRecord(this.recordingLevel, level)
  }

  /** The sensor `name` of `scope`, created on first use; it records values when `level` is enabled. */
  sensor(scope: string, name: string, level: RecordingLevel): Sensor {
    const sensors = this.#scope(scope).sensors
    let sensor = sensors.get(name)
    if (sensor === undefined) {
      sensor = new Sensor(name, { recording: this.shouldRecord(level), clock: this.#clock, sampleConfig: this.#sampleConfig })
      sensors.set(name, sensor)
    }
    return sensor
  }

  /** Adds (or replaces) a metric of `scope`. */
  addMetric(scope: string, metricName: MetricName, measure: MetricMeasure): void {
    this.#scope(scope).metrics.set(metricKey(metricName), { metricName, measure })
  }

  /** Removes every sensor and metric of `scope`. */
  removeScope(scope: string): void {
    this.#scopes.delete(scope)
  }

  /** The tags of a metric of this thread, `thread-id` first. */
  tags(...pairs: string[]): Record<string, string> {
    const tags: Record<string, string> = { 'thread-id': this.threadId }
    for (let i = 0; i + 1 < pairs.length; i += 2) tags[pairs[i]!] = pairs[i + 1]!
    return tags
  }

  /** The value of every metric now, sorted by group, name and tags. */
  metrics(): MetricSnapshot[] {
    const now = this.#clock.milliseconds()
    const out: Array<MetricSnapshot & { key: string }> = []
    for (const scope of this.#scopes.values()) {
      for (const [key, m] of scope.metrics) out.push({ ...m.metricName, value: m.measure(now), key })
    }
    out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    return out.map(({ key: _key, ...snapshot }) => snapshot)
  }

  #scope(scope: string): Scope {
    let s = this.#scopes.get(scope)
    if (s === undefined) {
      s = { sensors: new Map(), metrics: new Map() }
      this.#scopes.set(scope, s)
    }
    return s
  }
}

function metricKey(m: MetricName): string {
  const tags = Object.keys(m.tags)
    .sort()
    .map(k => `${k}=${m.tags[k]!}`)
    .join(',')
  return `${m.group}:${m.name}{${tags}}`
}
