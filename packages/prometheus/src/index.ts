/**
 * @kstreams/prometheus: Kafka Streams' metrics (thread, task, processor node, state store,
 * restore, record cache) on a prom-client registry, named as the Prometheus JMX exporter names
 * them for a Java Kafka Streams application.
 * @packageDocumentation
 */
export { prometheusMetrics } from './prometheus-metrics.js'
export type { PrometheusMetrics } from './prometheus-metrics.js'
export type { MetricsSource, PrometheusMetricsOptions } from './streams-collector.js'
export { metricsHandler, startMetricsServer } from './metrics-server.js'
export type { MetricsHandlerOptions, MetricsRequestHandler, MetricsServer, MetricsServerOptions } from './metrics-server.js'
export { DEFAULT_PREFIX, prometheusLabelName, prometheusName } from './prometheus-names.js'
