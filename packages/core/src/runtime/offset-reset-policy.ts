/**
 * Where a stream thread's consumer starts a source partition that has no committed offset (or
 * one out of range), as Kafka Streams decides it: the reset policy of the source that reads the
 * topic (`Topology.addSource(..., { offsetReset })`, the DSL's `Consumed.withOffsetResetPolicy`),
 * else the `autoOffsetReset` config (Kafka Streams' default: earliest). Repartition topics always
 * start at the earliest offset. @internal
 */
import type { AutoOffsetReset } from '../processor/api.js'
import type { TopologyDef } from '../topology/definitions.js'
import type { TopicPartition } from './kafka/ports.js'

export function offsetResetPolicy(
  topology: TopologyDef,
  applicationId: string,
  fallback: AutoOffsetReset
): (tp: TopicPartition) => AutoOffsetReset {
  const byTopic = new Map<string, AutoOffsetReset>()
  const patterns: Array<[RegExp, AutoOffsetReset]> = []
  for (const node of topology.nodes.values()) {
    if (node.kind !== 'source' || node.offsetReset === undefined) continue
    for (const topic of node.topics) byTopic.set(topic, node.offsetReset)
    if (node.pattern !== undefined) patterns.push([node.pattern, node.offsetReset])
  }
  const internal = new Set([...topology.internalTopics.keys()].map(name => `${applicationId}-${name}`))
  return ({ topic }) => {
    if (internal.has(topic)) return 'earliest'
    return byTopic.get(topic) ?? patterns.find(([pattern]) => pattern.test(topic))?.[1] ?? fallback
  }
}
