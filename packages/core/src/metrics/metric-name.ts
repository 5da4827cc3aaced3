/**
 * How a metric is named (Kafka's MetricName): a name, a group, a description and tags. A
 * snapshot is one metric's value at the time `metrics()` was called.
 */
export interface MetricName {
  readonly name: string
  readonly group: string
  readonly description: string
  readonly tags: Readonly<Record<string, string>>
}

export interface MetricSnapshot extends MetricName {
  /** NaN for an average, minimum or maximum with nothing recorded in its window, as in Kafka. */
  readonly value: number
}
