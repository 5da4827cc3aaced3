/**
 * The filter in front of every repartition sink (Kafka Streams 3.7+, KIP-962): it keeps records
 * with a null key only when a join that accepts them (a left or outer stream-stream join, a left
 * stream-table or stream-GlobalKTable join) lies downstream of the repartition topic; otherwise
 * it drops them, as Kafka's buildAndOptimizeTopology decides from its graph. The decision is
 * taken from the finished topology when the first processor instance is initialised. @internal
 */
import type { ProcessorSupplier, Topology } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'

export function repartitionNullKeyFilter<K, V>(
  topology: Topology,
  repartitionSource: string,
  relaxedJoins: ReadonlySet<string>
): ProcessorSupplier<K, V, K, V> {
  let keepNullKeys: boolean | undefined
  return () => {
    let keep = false
    let context: Parameters<NonNullable<ReturnType<ProcessorSupplier<K, V, K, V>>['init']>>[0]
    return {
      init(c) {
        context = c
        // Not when the supplier is called: Topology.addProcessor calls it once to check it.
        keepNullKeys ??= hasDownstream(topology, repartitionSource, relaxedJoins)
        keep = keepNullKeys
      },
      process(record) {
        if (keep || (record.key !== null && record.key !== undefined)) context.forward(record)
      }
    }
  }
}

/** Whether one of `targets` is reachable from `start`, following children and internal topics from their sinks to their sources. */
function hasDownstream(topology: Topology, start: string, targets: ReadonlySet<string>): boolean {
  if (targets.size === 0) return false
  const def = topology[TOPOLOGY_DEF]()
  const readers = new Map<string, string[]>()
  for (const [name, node] of def.nodes) {
    if (node.kind !== 'source') continue
    for (const topic of node.topics) readers.set(topic, [...(readers.get(topic) ?? []), name])
  }
  const seen = new Set<string>()
  const pending = [start]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    if (targets.has(name)) return true
    const node = def.nodes.get(name)
    if (node?.kind === 'sink' && node.topic !== undefined && def.internalTopics.has(node.topic))
      pending.push(...(readers.get(node.topic) ?? []))
    pending.push(...(def.children.get(name) ?? []))
  }
  return false
}
