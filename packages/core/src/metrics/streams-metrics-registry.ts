/**
 * The metrics of one stream thread (Kafka's StreamsMetricsImpl, reduced to what the store layers
 * and the record cache need): sensors grouped by scope (a store of a task, a cache), the metrics
 * each sensor reports under Kafka's names and tags, and a snapshot of every metric's value.
 * Removing a scope (a store closing) removes its sensors and metrics. It is also the StreamsMetrics
 * that processor and store contexts hand out: custom sensors get a scope of their own.
 */
import type { Clock } from '../clock.js'
import { systemClock } from '../clock.js'
import type { MetricName, MetricSnapshot } from './metric-name.js'
import { type RecordingLevel, checkRecordingLevel, shouldRecord } from './recording-level.js'
import { DEFAULT_SAMPLE_CONFIG, type SampleConfig } from './sampled-stat.js'
import { Sensor } from './sensor.js'
import type { StreamsMetrics, StreamsSensor } from './streams-metrics.js'
import { StreamsError } from '../errors.js'

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

export class StreamsMetricsRegistry implements StreamsMetrics {
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

  addLatencyRateTotalSensor(
    scopeName: string,
    entityName: string,
    operationName: string,
    recordingLevel: RecordingLevel,
    ...tags: string[]
  ): StreamsSensor {
    return this.#customSensor(scopeName, entityName, operationName, recordingLevel, tags, true)
  }

  addRateTotalSensor(
    scopeName: string,
    entityName: string,
    operationName: string,
    recordingLevel: RecordingLevel,
    ...tags: string[]
  ): StreamsSensor {
    return this.#customSensor(scopeName, entityName, operationName, recordingLevel, tags, false)
  }

  removeSensor(sensor: StreamsSensor): void {
    this.removeScope(customScope(sensor.name))
  }

  /** Kafka's StreamsMetricsImpl.customInvocationRateAndCountSensor, plus the latency metrics when `latency`. */
  #customSensor(
    scopeName: string,
    entityName: string,
    operationName: string,
    recordingLevel: RecordingLevel,
    tags: readonly string[],
    latency: boolean
  ): StreamsSensor {
    if (tags.length % 2 !== 0) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Tags needs to be specified in key-value pairs (sensor ${operationName} of ${scopeName} ${entityName}: ${tags.length} tags)`
      )
    }
    if (recordingLevel !== 'INFO' && recordingLevel !== 'DEBUG' && recordingLevel !== 'TRACE') {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Unknown recording level ${JSON.stringify(recordingLevel)} of sensor ${operationName} (expected INFO, DEBUG or TRACE)`
      )
    }
    const group = `stream-${scopeName}-metrics`
    const tagMap: Record<string, string> = { 'thread-id': this.threadId, [`${scopeName}-id`]: entityName }
    for (let i = 0; i < tags.length; i += 2) tagMap[tags[i]!] = tags[i + 1]!
    const name = `external.${this.threadId}.entity.${entityName}.s.${operationName}`
    const scope = customScope(name)
    const sensor = this.sensor(scope, name, recordingLevel)
    const metric = (suffix: string, description: string, measure: MetricMeasure): void => {
      this.addMetric(scope, { name: operationName + suffix, group, description, tags: Object.freeze({ ...tagMap }) }, measure)
    }
    metric('-rate', `The average number of ${operationName} operations per second`, now => sensor.rate(now))
    metric('-total', `The total number of ${operationName} operations`, () => sensor.count)
    if (latency) {
      metric('-latency-avg', `The average latency of ${operationName}`, now => sensor.avg(now))
      metric('-latency-max', `The maximum latency of ${operationName}`, now => sensor.max(now))
    }
    return {
      name,
      record: (value = 1) => {
        if (sensor.recording) sensor.record(value)
      },
      shouldRecord: () => sensor.recording
    }
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

function customScope(sensorName: string): string {
  return `sensor:${sensorName}`
}

function metricKey(m: MetricName): string {
  const tags = Object.keys(m.tags)
    .sort()
    .map(k => `${k}=${m.tags[k]!}`)
    .join(',')
  return `${m.group}:${m.name}{${tags}}`
}
