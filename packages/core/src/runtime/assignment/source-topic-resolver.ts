/**
 * Resolves the user source topics of each sub-topology against cluster metadata: fixed topics
 * must exist, patterns match whole topic names among the known topics (never this application's
 * own internal topics), and no topic may feed two sub-topologies. @internal
 */
import { StreamsError, TopologyError } from '../../errors.js'
import { wholeNameMatcher } from '../../topology/topology-arguments.js'
import type { AssignorTopology } from './topology-metadata.js'

/**
 * Returns sub-topology id -> its user source topics (fixed ones first, then pattern matches
 * sorted). Throws StreamsError UNKNOWN_TOPIC naming every missing fixed source topic, and
 * TopologyError DUPLICATE_TOPIC when a topic would feed two sub-topologies.
 */
export function resolveUserSourceTopics(topology: AssignorTopology, topicCounts: ReadonlyMap<string, number>): Map<number, string[]> {
  const internal = new Set<string>(topology.repartitionTopics.keys())
  for (const sub of topology.subtopologies) for (const topic of sub.changelogTopics) internal.add(topic)
  const known = [...topicCounts.keys()].filter(topic => !internal.has(topic)).sort()

  const missing: string[] = []
  const owner = new Map<string, number>()
  const result = new Map<number, string[]>()
  for (const sub of topology.subtopologies) {
    const topics: string[] = []
    for (const topic of sub.sourceTopics) {
      if (!topicCounts.has(topic)) missing.push(topic)
      else topics.push(topic)
    }
    const matchers = sub.sourcePatterns.map(wholeNameMatcher)
    for (const topic of known) {
      if (!topics.includes(topic) && matchers.some(matcher => matcher.test(topic))) topics.push(topic)
    }
    for (const topic of topics) {
      const other = owner.get(topic)
      if (other !== undefined && other !== sub.id) {
        throw new TopologyError('DUPLICATE_TOPIC', `Topic ${topic} is a source of sub-topologies ${other} and ${sub.id}`)
      }
      owner.set(topic, sub.id)
    }
    result.set(sub.id, topics)
  }
  if (missing.length > 0) {
    throw new StreamsError('UNKNOWN_TOPIC', `Missing source topics: [${[...new Set(missing)].sort().join(', ')}]`)
  }
  return result
}
