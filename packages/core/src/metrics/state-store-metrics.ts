/**
 * The metrics of one state store (Kafka's StateStoreMetrics): per operation a sensor reporting
 * `<op>-rate`, `<op>-latency-avg` and `<op>-latency-max` (nanoseconds) in group
 * `stream-state-metrics`, tagged `thread-id`, `task-id` and `<store type>-state-id` (the store
 * type is the supplier's metrics scope, e.g. `in-memory-state-id`). Latencies are DEBUG-level as
 * in Kafka. Without a registry the sensors are detached: they count and report nowhere.
 */
import type { RecordingLevel } from './recording-level.js'
import { Sensor } from './sensor.js'
import type { StreamsMetricsRegistry } from './streams-metrics-registry.js'

/** Operations of key-value, window and session stores, named as Kafka names their sensors. */
export type StoreOperation =
  | 'put'
  | 'put-if-absent'
  | 'put-all'
  | 'get'
  | 'delete'
  | 'range'
  | 'prefix-scan'
  | 'all'
  | 'fetch'
  | 'remove'
  | 'flush'
  | 'restore'

const GROUP = 'stream-state-metrics'
const LEVEL: RecordingLevel = 'DEBUG'

export class StateStoreMetrics {
  static readonly GROUP = GROUP
  readonly #registry: StreamsMetricsRegistry | undefined
  readonly #scope: string
  readonly #tags: Readonly<Record<string, string>>

  constructor(registry: StreamsMetricsRegistry | undefined, taskId: string, storeType: string, storeName: string) {
    this.#registry = registry
    this.#scope = `store:${taskId}:${storeName}`
    this.#tags = registry === undefined ? {} : Object.freeze(registry.tags('task-id', taskId, `${storeType}-state-id`, storeName))
  }

  /** The sensor of `operation`, with its rate and latency metrics. */
  sensor(operation: StoreOperation): Sensor {
    const registry = this.#registry
    if (registry === undefined) return Sensor.detached(operation)
    const sensor = registry.sensor(this.#scope, operation, LEVEL)
    const what = operation === 'restore' ? 'restorations' : `calls to ${operation}`
    const tags = this.#tags
    registry.addMetric(
      this.#scope,
      { name: `${operation}-rate`, group: GROUP, description: `The average number of ${what} per second`, tags },
      now => sensor.rate(now)
    )
    registry.addMetric(
      this.#scope,
      { name: `${operation}-latency-avg`, group: GROUP, description: `The average latency of ${what}`, tags },
      now => sensor.avg(now)
    )
    registry.addMetric(
      this.#scope,
      { name: `${operation}-latency-max`, group: GROUP, description: `The maximum latency of ${what}`, tags },
      now => sensor.max(now)
    )
    return sensor
  }

  /** Removes the store's sensors and metrics (the store closed). */
  close(): void {
    this.#registry?.removeScope(this.#scope)
  }
}
