/**
 * How a Kafka metric name becomes a Prometheus one, as the Prometheus JMX exporter names Kafka
 * Streams' MBeans (`kafka.streams:type=<group>,<tags>` attribute `<name>`): the prefix, the group
 * and the name joined with underscores, every character Prometheus does not allow in a name
 * (dashes, dots) turned into an underscore; tags become labels the same way.
 */
import type { MetricName } from '@kstreams/core'

/** The prefix of every exported metric name unless another is given (the JMX exporter's domain `kafka.streams`). */
export const DEFAULT_PREFIX = 'kafka_streams'

/**
 * The Prometheus name of a Kafka metric: `<prefix>_<group>_<name>`, e.g. `process-total` of
 * `stream-thread-metrics` is `kafka_streams_stream_thread_metrics_process_total`.
 */
export function prometheusName(metric: Pick<MetricName, 'group' | 'name'>, prefix: string = DEFAULT_PREFIX): string {
  const name = sanitize(`${prefix === '' ? '' : `${prefix}_`}${metric.group}_${metric.name}`)
  return /^[0-9]/.test(name) ? `_${name}` : name
}

/** The Prometheus label name of a Kafka tag, e.g. `thread-id` is `thread_id`. */
export function prometheusLabelName(tag: string): string {
  const name = sanitize(tag).replace(/:/g, '_')
  if (/^[0-9]/.test(name)) return `_${name}`
  // Names starting with two underscores are reserved for Prometheus itself.
  return name.startsWith('__') ? `tag${name}` : name
}

function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_:]/g, '_')
}
