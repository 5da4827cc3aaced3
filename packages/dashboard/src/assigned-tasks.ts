/**
 * Which tasks an instance has, from the group's host info (`metadataForAllStreamsClients()`):
 * the info names partitions, and each sub-topology that reads a topic has one task per
 * partition of it, so task `<sub-topology>_<partition>` belongs to whoever hosts that partition
 * of one of the sub-topology's source topics (Kafka Streams' own mapping, reversed).
 */
import type { StreamsMetadata } from '@kstreams/core'
import type { AssignedTasks } from './instance-view.js'
import type { TopologyView } from './topology-view.js'

/** Task ids of `partitions` (as `{topic, partition}`) under `view`'s sub-topologies, sorted. */
export function tasksOf(view: TopologyView, partitions: ReadonlyArray<{ topic: string; partition: number }>): string[] {
  const readers = new Map<string, number[]>()
  for (const sub of view.subtopologies) {
    if (sub.global) continue
    for (const node of sub.nodes)
      for (const topic of node.kind === 'source' ? node.topics : []) readers.set(topic.name, [...(readers.get(topic.name) ?? []), sub.id])
  }
  const ids = new Set<string>()
  for (const { topic, partition } of partitions) for (const sub of readers.get(topic) ?? []) ids.add(`${sub}_${partition}`)
  return [...ids].sort(compareTaskIds)
}

/** Task ids in (sub-topology, partition) order. */
export function compareTaskIds(a: string, b: string): number {
  const [sa, pa] = a.split('_').map(Number)
  const [sb, pb] = b.split('_').map(Number)
  return sa! - sb! || pa! - pb!
}

/** The active and standby tasks the group's assignment gives the instance of `metadata`. */
export function assignedTasks(view: TopologyView, metadata: StreamsMetadata | undefined): AssignedTasks {
  if (metadata === undefined) return { active: [], standby: [] }
  return { active: tasksOf(view, metadata.topicPartitions), standby: tasksOf(view, metadata.standbyTopicPartitions) }
}
