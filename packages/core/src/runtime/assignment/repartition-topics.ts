/**
 * Partition counts of repartition topics (Kafka Streams' RepartitionTopics): a count fixed by
 * the user wins; otherwise a repartition topic gets the largest partition count among the source
 * topics of the sub-topologies writing to it, computed upstream first. @internal
 */
import { StreamsError } from '../../errors.js'
import type { AssignorTopology } from './topology-metadata.js'

/**
 * @param userSourceTopics the resolved user source topics (fixed and pattern-matched) of each sub-topology
 * @param topicCounts partition counts of the user topics
 * Throws StreamsError ILLEGAL_STATE when a count cannot be computed (no writer, or no known upstream).
 */
export function computeRepartitionTopicCounts(
  topology: AssignorTopology,
  userSourceTopics: ReadonlyMap<number, readonly string[]>,
  topicCounts: ReadonlyMap<string, number>
): Map<string, number> {
  const counts = new Map<string, number>()
  for (const [topic, spec] of topology.repartitionTopics) {
    if (spec.numPartitions !== undefined) counts.set(topic, spec.numPartitions)
  }
  const writers = new Map<string, number[]>()
  for (const sub of topology.subtopologies) {
    for (const topic of sub.repartitionSinkTopics ?? []) {
      let list = writers.get(topic)
      if (list === undefined) writers.set(topic, (list = []))
      list.push(sub.id)
    }
  }
  const byId = new Map(topology.subtopologies.map(sub => [sub.id, sub]))

  // Upstream count of one writer: undefined when some input is not known yet (strict) or none is (relaxed).
  const upstream = (id: number, strict: boolean): number | undefined => {
    const sub = byId.get(id)!
    let max = 0
    let unknown = false
    for (const topic of userSourceTopics.get(id) ?? []) max = Math.max(max, topicCounts.get(topic) ?? 0)
    for (const topic of sub.repartitionSourceTopics) {
      const count = counts.get(topic)
      if (count === undefined) unknown = true
      else max = Math.max(max, count)
    }
    if (strict && unknown) return undefined
    return max > 0 ? max : undefined
  }

  const pending = (): string[] => [...topology.repartitionTopics.keys()].filter(topic => !counts.has(topic))
  // Strict passes resolve acyclic chains exactly; a relaxed pass breaks cycles with what is known.
  for (let progress = true; progress; ) {
    progress = false
    for (const strict of [true, false]) {
      for (const topic of pending()) {
        const candidates = (writers.get(topic) ?? []).map(id => upstream(id, strict))
        if (candidates.length === 0 || (strict && candidates.some(c => c === undefined))) continue
        const known = candidates.filter((c): c is number => c !== undefined)
        if (known.length === 0) continue
        counts.set(topic, Math.max(...known))
        progress = true
      }
      if (progress) break
    }
  }
  const missing = pending()
  if (missing.length > 0) {
    throw new StreamsError(
      'ILLEGAL_STATE',
      `Failed to compute the number of partitions of repartition topics [${missing.join(', ')}]: make sure all user input topics are created and all pattern subscriptions match at least one topic in the cluster`
    )
  }
  return counts
}
