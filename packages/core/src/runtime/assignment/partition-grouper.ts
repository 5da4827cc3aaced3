/**
 * Turns sub-topologies and partition counts into tasks (Kafka Streams' PartitionGrouper): a
 * sub-topology has as many tasks as its largest source topic has partitions, and task `s_p`
 * processes partition p of every source topic of s that has it. A task is stateful when its
 * sub-topology has changelog topics; its changelog partitions are partition p of each. @internal
 */
import type { TopicPartition } from '../kafka/ports.js'
import type { AssignorTopology } from './topology-metadata.js'

export interface TaskInfo {
  readonly subtopology: number
  readonly sourcePartitions: readonly TopicPartition[]
  readonly changelogPartitions: readonly TopicPartition[]
}

export interface TaskGrouping {
  /** Task id -> its partitions, in task order. */
  readonly tasks: ReadonlyMap<string, TaskInfo>
  /** Sub-topology id -> number of tasks (also the partition count of its changelog topics). */
  readonly taskCounts: ReadonlyMap<number, number>
}

/**
 * @param userSourceTopics resolved user source topics per sub-topology
 * @param counts partition counts of every source topic, repartition topics included
 */
export function groupPartitions(
  topology: AssignorTopology,
  userSourceTopics: ReadonlyMap<number, readonly string[]>,
  counts: ReadonlyMap<string, number>
): TaskGrouping {
  const subtopologies = [...topology.subtopologies].sort((a, b) => a.id - b.id)
  const tasks = new Map<string, TaskInfo>()
  const taskCounts = new Map<number, number>()
  for (const sub of subtopologies) {
    const sources = [...(userSourceTopics.get(sub.id) ?? []), ...sub.repartitionSourceTopics].sort()
    const numTasks = Math.max(0, ...sources.map(topic => counts.get(topic) ?? 0))
    taskCounts.set(sub.id, numTasks)
    for (let partition = 0; partition < numTasks; partition++) {
      tasks.set(`${sub.id}_${partition}`, {
        subtopology: sub.id,
        sourcePartitions: sources.filter(topic => partition < (counts.get(topic) ?? 0)).map(topic => ({ topic, partition })),
        changelogPartitions: [
          ...sub.changelogTopics,
          ...(sub.sourceChangelogTopics ?? []).filter(topic => partition < (counts.get(topic) ?? 0))
        ]
          .sort()
          .map(topic => ({ topic, partition }))
      })
    }
  }
  return { tasks, taskCounts }
}
