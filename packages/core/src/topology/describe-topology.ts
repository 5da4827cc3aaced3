/**
 * Builds the `TopologyDescription` of a topology definition, with Kafka Streams' orders: a
 * node's size is the number of paths from it to its descendants (itself included); nodes are
 * sorted by descending size, then name; the `-->` / `<--` lists are filled the way Kafka fills
 * them (nodes visited in `HashMap` order, each list a `TreeSet` compared on sizes as they are at
 * each insertion), which is why the lists are not always sorted by final size.
 */
import type { NodeDef, ProcessorNodeDef, SinkNodeDef, SourceNodeDef, SubtopologyDef, GlobalStoreDef, TopologyDef } from './definitions.js'
import type {
  GlobalStoreDescription,
  NodeDescription,
  ProcessorNodeDescription,
  SinkNodeDescription,
  SourceNodeDescription,
  SubtopologyDescription,
  TopologyDescription
} from './topology-description.js'
import { formatGlobalStore, formatNode, formatSubtopology, formatTopology } from './topology-description.js'
import { JavaTreeSet, javaHashOrder, javaHashSetCopyOrder } from './java-order.js'

interface DraftNode {
  readonly def: NodeDef
  size: number
  readonly predecessors: JavaTreeSet<DraftNode>
  readonly successors: JavaTreeSet<DraftNode>
}

type Mutable<T> = { -readonly [P in keyof T]: T[P] }
type MutableNode = Mutable<SourceNodeDescription> | Mutable<ProcessorNodeDescription> | Mutable<SinkNodeDescription>

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareDrafts(a: DraftNode, b: DraftNode): number {
  if (a === b) return 0
  return a.size !== b.size ? b.size - a.size : compareNames(a.def.name, b.def.name)
}

function newDraft(def: NodeDef): DraftNode {
  return { def, size: 1, predecessors: new JavaTreeSet(compareDrafts), successors: new JavaTreeSet(compareDrafts) }
}

function addToSize(node: DraftNode, delta: number): void {
  node.size += delta
  for (const predecessor of node.predecessors.values()) addToSize(predecessor, delta)
}

function nodeToString(this: NodeDescription): string {
  return formatNode(this)
}

function sourceDescription(def: SourceNodeDef, topics: readonly string[] | undefined): Mutable<SourceNodeDescription> {
  return {
    kind: 'source',
    name: def.name,
    topicSet: topics === undefined ? undefined : new Set(topics),
    topicPattern: topics === undefined ? def.pattern : undefined,
    predecessors: [],
    successors: [],
    toString: nodeToString
  }
}

function processorDescription(name: string, stores: readonly string[]): Mutable<ProcessorNodeDescription> {
  return { kind: 'processor', name, stores: new Set(stores), predecessors: [], successors: [], toString: nodeToString }
}

function sinkDescription(def: SinkNodeDef): Mutable<SinkNodeDescription> {
  return {
    kind: 'sink',
    name: def.name,
    topic: def.topic,
    topicNameExtractor: def.topic === undefined ? def.topicExtractor : undefined,
    predecessors: [],
    successors: [],
    toString: nodeToString
  }
}

function nodeDescription(def: NodeDef): MutableNode {
  switch (def.kind) {
    case 'source':
      return sourceDescription(def, def.pattern === undefined ? javaHashSetCopyOrder(def.topics) : undefined)
    case 'processor':
      // The builder keeps a HashSet of store names; describe() copies it into a new HashSet.
      return processorDescription(def.name, javaHashSetCopyOrder(javaHashOrder((def as ProcessorNodeDef).stores)))
    case 'sink':
      return sinkDescription(def)
  }
}

function describeSubtopology(def: TopologyDef, subtopology: SubtopologyDef): SubtopologyDescription {
  // Kafka keeps a group's names in a HashSet, then puts the nodes in a HashMap in that order.
  const visitOrder = javaHashOrder(javaHashOrder(subtopology.nodes))
  const drafts = new Map<string, DraftNode>()
  for (const name of visitOrder) drafts.set(name, newDraft(def.nodes.get(name)!))

  for (const draft of drafts.values()) {
    if (draft.def.kind === 'source') continue
    for (const parentName of draft.def.parents) {
      const parent = drafts.get(parentName)!
      draft.predecessors.add(parent)
      parent.successors.add(draft)
      addToSize(parent, draft.size)
    }
  }

  const described = new Map<DraftNode, MutableNode>()
  for (const draft of drafts.values()) described.set(draft, nodeDescription(draft.def))
  for (const [draft, node] of described) {
    node.predecessors = Object.freeze(draft.predecessors.values().map(p => described.get(p)!))
    node.successors = Object.freeze(draft.successors.values().map(s => described.get(s)!))
  }

  const nodes = [...drafts.values()].sort(compareDrafts).map(draft => described.get(draft)!)
  return {
    id: subtopology.id,
    nodes: Object.freeze(nodes),
    toString(this: SubtopologyDescription) {
      return formatSubtopology(this)
    }
  }
}

function describeGlobalStore(def: TopologyDef, store: GlobalStoreDef): GlobalStoreDescription {
  const source = sourceDescription(def.nodes.get(store.sourceName) as SourceNodeDef, [store.topic])
  const processor = processorDescription(store.processorName, [store.storeName])
  source.successors = Object.freeze([processor])
  processor.predecessors = Object.freeze([source])
  return {
    id: store.id,
    source,
    processor,
    toString(this: GlobalStoreDescription) {
      return formatGlobalStore(this)
    }
  }
}

/** The description of `def`, printed by its `toString()` exactly as Kafka Streams prints it. */
export function describeTopology(def: TopologyDef): TopologyDescription {
  return {
    subtopologies: Object.freeze(def.subtopologies.map(s => describeSubtopology(def, s))),
    globalStores: Object.freeze(def.globalStores.map(g => describeGlobalStore(def, g))),
    toString(this: TopologyDescription) {
      return formatTopology(this)
    }
  }
}
