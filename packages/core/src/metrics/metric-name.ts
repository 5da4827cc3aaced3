/**
 * How a metric is named (Kafka's MetricName): a name, a group, a description and tags. A
 * snapshot is one metric's value at the time `metrics()` was called.
 */
export interface MetricName {
  /** The metric's name (e.g. `dropped-records-total`). */
  readonly name: string
  /** Its group (e.g. `stream-task-metrics`). */
  readonly group: string
  /** What it measures. */
  readonly description: string
  /** Its tags (e.g. `thread-id`, `task-id`). */
  readonly tags: Readonly<Record<string, string>>
}

/** One metric's value at the time KafkaStreams.metrics() was called. */
export interface MetricSnapshot extends MetricName {
  /** NaN for an average, minimum or maximum with nothing recorded in its window, as in Kafka. */
  readonly value: number
}

/**
 * Whether an exporter should publish a metric as a monotonic counter or as a gauge: Kafka's
 * cumulative `-total` metrics (CumulativeCount / CumulativeSum) are counters, everything else
 * (rates, averages, maxima, ratios, and the `restore-remaining-records-total` that counts down)
 * is a gauge.
 */
export function metricKind(metric: Pick<MetricName, 'name'>): 'counter' | 'gauge' {
  return metric.name.endsWith('-total') && !GAUGES_NAMED_TOTAL.has(metric.name) ? 'counter' : 'gauge'
}

const GAUGES_NAMED_TOTAL: ReadonlySet<string> = new Set(['restore-remaining-records-total'])
