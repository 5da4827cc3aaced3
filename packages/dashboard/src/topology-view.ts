/**
 * The topology as the dashboard draws it: `describe()`'s sub-topologies and global stores, with
 * what the description leaves out filled in from the topology's definition: each store's kind
 * (key-value, window, session) and changelog topic, and which topics are repartition topics
 * (named `<application.id>-<name>` at run time). Owns the mapping only; `topology-svg.ts` draws it.
 */
import { SessionStoreBuilder, TimestampedWindowStoreBuilder, WindowStoreBuilder, type NodeDescription, type Topology } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'

/** What an interactive query can ask a store for: a key's value, or its windows or sessions. */
export type StoreKind = 'keyValue' | 'window' | 'session'

/** A topic of the topology and what it is to the application. */
export interface TopicView {
  /** The topic's name as the brokers know it (internal topics prefixed with the application id). */
  readonly name: string
  /** A user topic, a repartition topic between sub-topologies, or a store's changelog. */
  readonly role: 'user' | 'repartition' | 'changelog'
}

/** A node of a sub-topology: a source, a processor or a sink. */
export interface NodeView {
  /** The node's name (as in describe()). */
  readonly name: string
  /** Which kind of node. */
  readonly kind: 'source' | 'processor' | 'sink'
  /** The names of the nodes it forwards to. */
  readonly successors: readonly string[]
  /** A source's topics, a sink's topic (none when an extractor chooses it). */
  readonly topics: readonly TopicView[]
  /** A source's pattern or a sink's topic name extractor, as text. */
  readonly dynamicTopic: string | undefined
  /** A processor's stores. */
  readonly stores: readonly string[]
}

/** A state store of the topology. */
export interface StoreView {
  /** The store's name. */
  readonly name: string
  /** What kind of queries it answers. */
  readonly kind: StoreKind
  /** Its changelog topic; undefined when logging is disabled. */
  readonly changelog: string | undefined
  /** Whether it is a global store (every instance has all of it). */
  readonly global: boolean
}

/** A sub-topology (or a global store's, with `global` set). */
export interface SubtopologyView {
  /** The id, the first part of its task ids. */
  readonly id: number
  /** Whether this is a global store's sub-topology (no tasks). */
  readonly global: boolean
  /** Its nodes in describe()'s order. */
  readonly nodes: readonly NodeView[]
}

/** The whole topology as the dashboard draws it. */
export interface TopologyView {
  /** Sub-topologies and global stores by id. */
  readonly subtopologies: readonly SubtopologyView[]
  /** Every store, local and global. */
  readonly stores: readonly StoreView[]
  /** describe()'s text, for those who read it. */
  readonly text: string
}

/** The view of `topology`; internal topic names get the `applicationId` prefix when it is given. */
export function topologyView(topology: Topology, applicationId: string | undefined): TopologyView {
  const def = topology[TOPOLOGY_DEF]()
  const description = topology.describe()
  const internal = (name: string): string => (applicationId === undefined ? name : `${applicationId}-${name}`)
  const topic = (name: string): TopicView =>
    def.internalTopics.has(name) ? { name: internal(name), role: 'repartition' } : { name, role: 'user' }
  const node = (n: NodeDescription): NodeView => ({
    name: n.name,
    kind: n.kind,
    successors: n.successors.map(s => s.name),
    topics: n.kind === 'source' ? [...(n.topicSet ?? [])].map(topic) : n.kind === 'sink' && n.topic !== undefined ? [topic(n.topic)] : [],
    dynamicTopic:
      n.kind === 'source' && n.topicPattern !== undefined
        ? `pattern: ${n.topicPattern.source}`
        : n.kind === 'sink' && n.topic === undefined
          ? 'topic chosen per record'
          : undefined,
    stores: n.kind === 'processor' ? [...n.stores] : []
  })
  const subtopologies: SubtopologyView[] = [
    ...description.subtopologies.map(s => ({ id: s.id, global: false, nodes: s.nodes.map(node) })),
    ...description.globalStores.map(g => ({ id: g.id, global: true, nodes: [node(g.source), node(g.processor)] }))
  ].sort((a, b) => a.id - b.id)
  const stores: StoreView[] = [...def.storeBuilders].map(([name, builder]) => ({
    name,
    kind:
      builder instanceof SessionStoreBuilder
        ? 'session'
        : builder instanceof WindowStoreBuilder || builder instanceof TimestampedWindowStoreBuilder
          ? 'window'
          : 'keyValue',
    changelog: def.globalStoreNames.has(name)
      ? undefined
      : (def.sourceChangelogs.get(name) ?? (builder.loggingEnabled ? internal(`${name}-changelog`) : undefined)),
    global: def.globalStoreNames.has(name)
  }))
  return { subtopologies, stores, text: description.toString() }
}
