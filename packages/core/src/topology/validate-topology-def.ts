/**
 * Structural checks of a `TopologyDef`, run on every definition `Topology` hands to the runtime
 * and usable on definitions built any other way. `Topology` already rejects each of these
 * problems when the offending node is added; this is the defensive second line, and the only
 * place a parent cycle can be detected (through `Topology` a parent must exist before its child,
 * so a cycle cannot be built there). @internal
 */
import { TopologyError } from '../errors.js'
import type { NodeDef, TopologyDef } from './definitions.js'

function parentsOf(node: NodeDef): readonly string[] {
  return node.kind === 'source' ? [] : node.parents
}

function checkNodes(def: TopologyDef): void {
  const topicOwner = new Map<string, string>()
  for (const [name, node] of def.nodes) {
    if (node.name !== name) throw new TopologyError('TOPOLOGY_INVALID', `Node ${node.name} is registered under the name ${name}.`)
    if (node.kind === 'source') {
      if ((node.pattern === undefined) === (node.topics.length === 0)) {
        throw new TopologyError('TOPOLOGY_INVALID', `Source ${name} must have either topics or a pattern.`)
      }
      for (const topic of node.topics) {
        const owner = topicOwner.get(topic)
        if (owner !== undefined) throw new TopologyError('DUPLICATE_TOPIC', `Topic ${topic} is read by both ${owner} and ${name}.`)
        topicOwner.set(topic, name)
      }
      continue
    }
    if (node.parents.length === 0) {
      if (node.kind === 'sink') throw new TopologyError('SINK_WITHOUT_PARENT', `Sink ${name} must have at least one parent.`)
      throw new TopologyError('TOPOLOGY_INVALID', `Processor ${name} must have at least one parent.`)
    }
    for (const parentName of node.parents) {
      if (parentName === name) throw new TopologyError('INVALID_PARENT', `Node ${name} cannot be its own parent.`)
      const parent = def.nodes.get(parentName)
      if (parent === undefined) throw new TopologyError('UNKNOWN_NODE', `Parent ${parentName} of ${name} is not in the topology.`)
      if (parent.kind === 'sink') throw new TopologyError('INVALID_PARENT', `Sink ${parentName} cannot be the parent of ${name}.`)
    }
    if (node.kind === 'processor') {
      for (const store of node.stores) {
        if (!def.storeBuilders.has(store))
          throw new TopologyError('UNKNOWN_STORE', `Store ${store} of processor ${name} has no store builder.`)
      }
    }
  }
}

function checkChildren(def: TopologyDef): void {
  const expected = new Map<string, string[]>()
  for (const node of def.nodes.values()) {
    for (const parent of parentsOf(node)) {
      const children = expected.get(parent) ?? []
      children.push(node.name)
      expected.set(parent, children)
    }
  }
  for (const name of def.nodes.keys()) {
    const want = expected.get(name) ?? []
    const actual = def.children.get(name) ?? []
    if (want.length !== actual.length || want.some((child, i) => actual[i] !== child)) {
      throw new TopologyError('TOPOLOGY_INVALID', `The children of ${name} do not match the parents of the other nodes.`)
    }
  }
}

/** Depth-first search over parent links; names a node on the first cycle found. */
function checkAcyclic(def: TopologyDef): void {
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (start: string): void => {
    const stack: Array<{ name: string; next: number }> = [{ name: start, next: 0 }]
    state.set(start, 'visiting')
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const parents = parentsOf(def.nodes.get(frame.name)!)
      if (frame.next === parents.length) {
        state.set(frame.name, 'done')
        stack.pop()
        continue
      }
      const parent = parents[frame.next++]!
      const seen = state.get(parent)
      if (seen === 'visiting') {
        const cycle = [...stack.slice(stack.findIndex(f => f.name === parent)).map(f => f.name), parent]
        throw new TopologyError('TOPOLOGY_CYCLE', `Node ${parent} is its own ancestor: ${cycle.reverse().join(' -> ')}.`)
      }
      if (seen === undefined) {
        state.set(parent, 'visiting')
        stack.push({ name: parent, next: 0 })
      }
    }
  }
  for (const name of def.nodes.keys()) if (!state.has(name)) visit(name)
}

function checkGroups(def: TopologyDef): void {
  const groupOf = new Map<string, number>()
  const assign = (name: string, id: number): void => {
    if (!def.nodes.has(name)) throw new TopologyError('UNKNOWN_NODE', `Sub-topology ${id} lists the unknown node ${name}.`)
    if (groupOf.has(name)) throw new TopologyError('TOPOLOGY_INVALID', `Node ${name} is in sub-topologies ${groupOf.get(name)!} and ${id}.`)
    groupOf.set(name, id)
  }
  for (const subtopology of def.subtopologies) for (const name of subtopology.nodes) assign(name, subtopology.id)
  for (const store of def.globalStores) {
    if (!def.globalStoreNames.has(store.storeName) || !def.storeBuilders.has(store.storeName)) {
      throw new TopologyError('UNKNOWN_STORE', `Global store ${store.storeName} has no store builder.`)
    }
    assign(store.sourceName, store.id)
    assign(store.processorName, store.id)
  }
  for (const name of def.nodes.keys()) {
    if (!groupOf.has(name)) throw new TopologyError('TOPOLOGY_INVALID', `Node ${name} is in no sub-topology.`)
  }
  for (const node of def.nodes.values()) {
    for (const parent of parentsOf(node)) {
      if (groupOf.get(parent) !== groupOf.get(node.name)) {
        throw new TopologyError('TOPOLOGY_INVALID', `Node ${node.name} and its parent ${parent} are in different sub-topologies.`)
      }
    }
  }
  const storeGroup = new Map<string, number>()
  for (const subtopology of def.subtopologies) {
    for (const name of subtopology.nodes) {
      const node = def.nodes.get(name)!
      if (node.kind !== 'processor') continue
      for (const store of node.stores) {
        const other = storeGroup.get(store)
        if (other !== undefined && other !== subtopology.id) {
          throw new TopologyError('TOPOLOGY_INVALID', `Store ${store} is used by sub-topologies ${other} and ${subtopology.id}.`)
        }
        storeGroup.set(store, subtopology.id)
      }
    }
  }
}

/** Throws a `TopologyError` naming the first node, topic or store that makes `def` invalid. */
export function validateTopologyDef(def: TopologyDef): void {
  checkNodes(def)
  checkAcyclic(def)
  checkChildren(def)
  checkGroups(def)
  checkSourceChangelogs(def)
}

/** A store's source-topic changelog must be read by a source of the store's own sub-topology. */
function checkSourceChangelogs(def: TopologyDef): void {
  for (const [store, topic] of def.sourceChangelogs) {
    const sub = def.subtopologies.find(s => s.stores.includes(store))
    if (sub === undefined || !sub.sourceTopics.includes(topic)) {
      throw new TopologyError(
        'TOPOLOGY_INVALID',
        `Store ${store} cannot use topic ${topic} as its changelog: the topic is not a source of the store's sub-topology`
      )
    }
  }
}
