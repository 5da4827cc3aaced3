/**
 * The entry point: Kafka Streams' metrics of one or more KafkaStreams instances on a prom-client
 * registry, with the handler and the server that serve that registry.
 */
import type { Registry } from 'prom-client'
import {
  type MetricsRequestHandler,
  type MetricsServer,
  type MetricsServerOptions,
  metricsHandler,
  startMetricsServer
} from './metrics-server.js'
import { type MetricsSource, type PrometheusMetricsOptions, StreamsCollector } from './streams-collector.js'

/** The metrics of KafkaStreams instances registered on a prom-client registry. */
export interface PrometheusMetrics {
  /** The registry the metrics are on (the one given, or prom-client's global `register`). */
  readonly registry: Registry
  /** A node:http request handler serving the registry (mount it at `/metrics` of a server of yours). */
  metricsHandler(): MetricsRequestHandler
  /** Starts a server of its own serving the registry at `/metrics` (default 127.0.0.1, a free port). */
  startMetricsServer(options?: Omit<MetricsServerOptions, 'registry' | 'beforeScrape'>): Promise<MetricsServer>
  /** Removes the metrics from the registry (call it when the instances are closed for good). */
  unregister(): void
}

/**
 * Registers the metrics of `streams` (one KafkaStreams instance, or several, e.g. one per
 * topology) on a prom-client registry: each Kafka metric as `<prefix>_<group>_<name>` with its
 * tags as labels, `-total` metrics as counters and the others as gauges. Values are read when the
 * registry is scraped, so what is exported is what the instances' `metricsRecordingLevel`
 * records.
 */
export function prometheusMetrics(
  streams: MetricsSource | readonly MetricsSource[],
  options: PrometheusMetricsOptions = {}
): PrometheusMetrics {
  const collector = new StreamsCollector(Array.isArray(streams) ? streams : [streams as MetricsSource], options)
  const registry = collector.registry
  const beforeScrape = (): void => collector.sync()
  return {
    registry,
    metricsHandler: () => metricsHandler({ registry, beforeScrape }),
    startMetricsServer: (serverOptions = {}) => startMetricsServer({ ...serverOptions, registry, beforeScrape }),
    unregister: () => collector.close()
  }
}
