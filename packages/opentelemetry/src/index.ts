/**
 * @kstreams/opentelemetry: Kafka Streams' metrics (thread, task, processor node, state store,
 * restore, record cache) as observable instruments of an `@opentelemetry/api` MeterProvider.
 * @packageDocumentation
 */
export { DEFAULT_INSTRUMENT_PREFIX, instrumentName, openTelemetryMetrics } from './opentelemetry-metrics.js'
export type { MetricsSource, OpenTelemetryMetrics, OpenTelemetryMetricsOptions } from './opentelemetry-metrics.js'
