/**
 * The metrics a processor or a store sees through its context (Kafka Streams' StreamsMetrics):
 * the current value of every metric of the thread, and custom sensors registered under Kafka
 * Streams' naming scheme (group `stream-<scope>-metrics`, tags `thread-id` and `<scope>-id`).
 */
import type { MetricSnapshot } from './metric-name.js'
import type { RecordingLevel } from './recording-level.js'

/** A sensor made by StreamsMetrics (Kafka's Sensor as a processor uses it). */
export interface StreamsSensor {
  /** The sensor's name, unique in its thread's metrics. */
  readonly name: string
  /**
   * Records one event with `value` (default 1, Kafka's `record()`): a latency in nanoseconds for
   * a latency sensor. Does nothing when the sensor's recording level is not enabled.
   */
  record(value?: number): void
  /** Whether the configured `metricsRecordingLevel` enables the sensor's level (Kafka's `shouldRecord()`). */
  shouldRecord(): boolean
}

/** The metrics of a stream thread as processors and stores see them (Kafka Streams' StreamsMetrics). */
export interface StreamsMetrics {
  /** The value of every metric of the thread now, sorted by group, name and tags. */
  metrics(): MetricSnapshot[]
  /**
   * A sensor reporting `<operationName>-latency-avg`, `<operationName>-latency-max`,
   * `<operationName>-rate` and `<operationName>-total` in group `stream-<scopeName>-metrics`,
   * tagged `thread-id`, `<scopeName>-id` = `entityName` and the extra `tags` (key-value pairs).
   * Record a latency in nanoseconds per operation.
   */
  addLatencyRateTotalSensor(
    scopeName: string,
    entityName: string,
    operationName: string,
    recordingLevel: RecordingLevel,
    ...tags: string[]
  ): StreamsSensor
  /** As addLatencyRateTotalSensor, with only `<operationName>-rate` and `<operationName>-total`. */
  addRateTotalSensor(
    scopeName: string,
    entityName: string,
    operationName: string,
    recordingLevel: RecordingLevel,
    ...tags: string[]
  ): StreamsSensor
  /** Removes a sensor made here, with its metrics. */
  removeSensor(sensor: StreamsSensor): void
}
