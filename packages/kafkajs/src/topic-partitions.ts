/**
 * Grouping of per-partition items by topic, the shape kafkajs requests take
 * (`[{ topic, partitions: [...] }]`); topics and partitions keep their first-seen order.
 */
import type { TopicPartition } from '@kstreams/core'

export function groupByTopic<T extends TopicPartition> (items: readonly T[]): Array<{ topic: string, items: T[] }> {
  const byTopic = new Map<string, T[]>()
  for (const item of items) {
    let list = byTopic.get(item.topic)
    if (list === undefined) byTopic.set(item.topic, list = [])
    list.push(item)
  }
  return [...byTopic].map(([topic, list]) => ({ topic, items: list }))
}
