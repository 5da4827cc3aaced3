/**
 * Kafka Streams' metrics as OpenTelemetry observable instruments: each metric family (a group
 * and a name) is an ObservableCounter (Kafka's cumulative `-total` metrics) or an
 * ObservableGauge (rates, averages, maxima, ratios), named `<prefix>.<group>.<name>` with Kafka's
 * tags as attributes. One batch callback reads the instances once per collection. An instrument
 * is created the first time its family is seen (at the start and at each collection, so a family
 * that appears between two collections is reported from the next one on). A value Kafka reports
 * as NaN (an average with nothing recorded in its window) is not observed.
 */
import { type BatchObservableResult, type Meter, type MeterProvider, type Observable, metrics } from '@opentelemetry/api'
import { type MetricSnapshot, metricKind } from '@kstreams/core'

/** What is read: a KafkaStreams instance, or anything else that lists metric snapshots. */
export interface MetricsSource {
  /** The value of every metric now (KafkaStreams.metrics()). */
  metrics(): MetricSnapshot[]
}

/** Options of openTelemetryMetrics(). */
export interface OpenTelemetryMetricsOptions {
  /** The provider to get the meter from; default the global one (`metrics.getMeterProvider()`). */
  readonly meterProvider?: MeterProvider
  /** The name of the meter; default `@kstreams/opentelemetry`. */
  readonly meterName?: string
  /** The prefix of every instrument name; default `kafka.streams`. */
  readonly prefix?: string
}

/** The instruments reporting the metrics of KafkaStreams instances. */
export interface OpenTelemetryMetrics {
  /** The meter the instruments belong to. */
  readonly meter: Meter
  /** Stops reporting (removes the batch callback); idempotent. */
  close(): void
}

/** The default prefix of the instrument names. */
export const DEFAULT_INSTRUMENT_PREFIX = 'kafka.streams'

/** The instrument name of a Kafka metric: `<prefix>.<group>.<name>`, e.g. `kafka.streams.stream-thread-metrics.process-total`. */
export function instrumentName(metric: Pick<MetricSnapshot, 'group' | 'name'>, prefix: string = DEFAULT_INSTRUMENT_PREFIX): string {
  return `${prefix === '' ? '' : `${prefix}.`}${metric.group}.${metric.name}`
}

/**
 * Reports the metrics of `streams` (one KafkaStreams instance or several) through a meter of
 * the given (or the global) MeterProvider. What is reported is what the instances'
 * `metricsRecordingLevel` records.
 */
export function openTelemetryMetrics(
  streams: MetricsSource | readonly MetricsSource[],
  options: OpenTelemetryMetricsOptions = {}
): OpenTelemetryMetrics {
  const sources: readonly MetricsSource[] = Array.isArray(streams) ? streams : [streams as MetricsSource]
  const prefix = options.prefix ?? DEFAULT_INSTRUMENT_PREFIX
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(options.meterName ?? '@kstreams/opentelemetry')
  const instruments = new Map<string, Observable>()
  const read = (): MetricSnapshot[] => sources.flatMap(s => s.metrics())
  /** The instruments the batch callback is registered with (the SDK removes a callback by callback and instruments). */
  let registered: Observable[] = []
  let closed = false
  let resyncing = false

  const callback = (result: BatchObservableResult): void => {
    let unknown = false
    for (const m of read()) {
      const instrument = instruments.get(instrumentName(m, prefix))
      if (instrument === undefined) unknown = true
      else if (!Number.isNaN(m.value)) result.observe(instrument, m.value, m.tags)
    }
    if (unknown && !resyncing) {
      resyncing = true
      // Not while the provider runs this callback: instruments are added after the collection.
      setImmediate(() => {
        resyncing = false
        sync(read())
      })
    }
  }

  const sync = (snapshots: readonly MetricSnapshot[]): void => {
    if (closed) return
    let added = false
    for (const m of snapshots) {
      const name = instrumentName(m, prefix)
      if (instruments.has(name)) continue
      const description = m.description || name
      instruments.set(
        name,
        metricKind(m) === 'counter'
          ? meter.createObservableCounter(name, { description })
          : meter.createObservableGauge(name, { description })
      )
      added = true
    }
    if (!added) return
    if (registered.length > 0) meter.removeBatchObservableCallback(callback, registered)
    registered = [...instruments.values()]
    meter.addBatchObservableCallback(callback, registered)
  }

  sync(read())
  return {
    meter,
    close: () => {
      if (closed) return
      closed = true
      if (registered.length > 0) meter.removeBatchObservableCallback(callback, registered)
    }
  }
}
