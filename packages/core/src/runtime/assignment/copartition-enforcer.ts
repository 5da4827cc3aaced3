/**
 * Co-partitioning check at assignment time (Kafka Streams' CopartitionedTopicsEnforcer). In each
 * co-partition group all user topics must have the same partition count; repartition topics in
 * the group are set to that count, or, when the group holds only repartition topics, to the
 * count fixed by the user or else the largest one. @internal
 */
import { StreamsError, TopologyError } from '../../errors.js'

/** Partition counts as `{a=3, b=4}`, sorted by topic, like a Java TreeMap. */
function describeCounts(counts: ReadonlyMap<string, number>): string {
  return `{${[...counts.keys()]
    .sort()
    .map(topic => `${topic}=${counts.get(topic)!}`)
    .join(', ')}}`
}

/**
 * Enforces every group in place: updates `repartitionCounts` (full repartition topic name ->
 * partition count) for the repartition topics whose count is not in `enforced`.
 * Throws TopologyError (TOPOLOGY_INVALID) for mismatches, StreamsError UNKNOWN_TOPIC for a user
 * topic missing from `topicCounts`.
 */
export function enforceCopartitioning(
  groups: ReadonlyArray<readonly string[]>,
  repartitionCounts: Map<string, number>,
  enforced: ReadonlySet<string>,
  topicCounts: ReadonlyMap<string, number>
): void {
  for (const group of groups) {
    if (group.length === 0) continue
    const internal = group.filter(topic => repartitionCounts.has(topic))
    const external = new Map<string, number>()
    for (const topic of group) {
      if (repartitionCounts.has(topic)) continue
      const count = topicCounts.get(topic)
      if (count === undefined) throw new StreamsError('UNKNOWN_TOPIC', `Topic not found: ${topic}`)
      external.set(topic, count)
    }

    let target: number
    if (external.size === 0) {
      const fixed = new Map(internal.filter(topic => enforced.has(topic)).map(topic => [topic, repartitionCounts.get(topic)!]))
      if (fixed.size > 0) {
        if (new Set(fixed.values()).size > 1) {
          throw new TopologyError(
            'TOPOLOGY_INVALID',
            `Following topics do not have the same number of partitions: [${describeCounts(fixed)}]`
          )
        }
        target = fixed.values().next().value!
      } else {
        target = Math.max(...internal.map(topic => repartitionCounts.get(topic)!))
      }
    } else {
      if (new Set(external.values()).size > 1) {
        throw new TopologyError('TOPOLOGY_INVALID', `Topics not co-partitioned: [${describeCounts(external)}]`)
      }
      target = external.values().next().value!
    }

    for (const topic of internal) {
      if (!enforced.has(topic)) repartitionCounts.set(topic, target)
      const count = repartitionCounts.get(topic)!
      if (count !== target) {
        throw new TopologyError(
          'TOPOLOGY_INVALID',
          `Number of partitions [${count}] of repartition topic [${topic}] doesn't match number of partitions [${target}] of the source topic.`
        )
      }
    }
  }
}
