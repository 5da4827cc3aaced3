/**
 * Sub-topology grouping: the connected components of the node graph, where a node is linked to
 * each of its parents and processors sharing a store are linked to each other. Components are
 * numbered like Kafka Streams' `InternalTopologyBuilder.makeNodeGroups`: walking the nodes in
 * insertion order, the component of each node not yet seen takes the next id. @internal
 */

/**
 * Returns the components, the one with id `i` at index `i`, each listing its nodes in insertion order.
 * `links` are pairs of node names to put in the same component; every name must be in `nodeNames`.
 */
export function computeNodeGroups(nodeNames: readonly string[], links: Iterable<readonly [string, string]>): string[][] {
  const parentOf = new Map<string, string>()
  for (const name of nodeNames) parentOf.set(name, name)

  const root = (name: string): string => {
    let r = name
    while (parentOf.get(r) !== r) r = parentOf.get(r)!
    let n = name
    while (n !== r) {
      const next = parentOf.get(n)!
      parentOf.set(n, r)
      n = next
    }
    return r
  }

  for (const [a, b] of links) {
    const ra = root(a)
    const rb = root(b)
    if (ra !== rb) parentOf.set(rb, ra)
  }

  const groups: string[][] = []
  const groupByRoot = new Map<string, string[]>()
  for (const name of nodeNames) {
    const r = root(name)
    let group = groupByRoot.get(r)
    if (group === undefined) {
      group = []
      groupByRoot.set(r, group)
      groups.push(group)
    }
    group.push(name)
  }
  return groups
}
