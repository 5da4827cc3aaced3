/** Test helpers: capture what reaches a node as [key, value, timestamp] triples (Kafka's KeyValueTimestamp). */
import type { MetricSnapshot, Processor, ProcessorSupplier } from '@kstreams/core'
import type { TestOutputTopic } from '@kstreams/testing'

export type KVT<K, V> = [K | null, V | null, number]

/** A processor supplier recording every record it processes (Kafka's MockApiProcessorSupplier). */
export function capture<K, V>(): { supplier: ProcessorSupplier<K, V, never, never>; processed: Array<KVT<K, V>> } {
  const processed: Array<KVT<K, V>> = []
  const supplier = (): Processor<K, V, never, never> => ({
    process(r) {
      processed.push([r.key, r.value, r.timestamp])
    }
  })
  return { supplier, processed }
}

/** The task's dropped-records-total (records dropped and counted by DSL processors). */
/** dropped-records-total summed over the tasks (the stream task 0_0 and, with global stores, -1_-1). */
export function droppedRecordsTotal(metrics: MetricSnapshot[]): number {
  const found = metrics.filter(m => m.name === 'dropped-records-total')
  return found.length === 0 ? Number.NaN : found.reduce((n, m) => n + m.value, 0)
}

export function readAll<K, V>(topic: TestOutputTopic<K, V>): Array<KVT<K, V>> {
  return topic.readRecordsToList().map(r => [r.key, r.value, r.timestamp])
}
