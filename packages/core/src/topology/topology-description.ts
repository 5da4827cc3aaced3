/**
 * What `Topology.describe()` returns (Kafka Streams' `TopologyDescription` and its nested
 * `Subtopology`, `GlobalStore`, `Source`, `Processor` and `Sink`), and the exact text format of
 * their `toString()`. The element orders (nodes, `-->` / `<--` lists, topic and store sets) are
 * the ones Kafka prints; `describe-topology.ts` computes them.
 */
import type { TopicNameExtractor } from '../processor/api.js'

interface NodeDescriptionBase {
  /** The node's name. */
  readonly name: string
  /** Parent nodes, in the order Kafka prints them after `<--`. */
  readonly predecessors: readonly NodeDescription[]
  /** Child nodes, in the order Kafka prints them after `-->`. */
  readonly successors: readonly NodeDescription[]
  /** The node as Kafka Streams prints it in describe(). */
  toString(): string
}

/** A source node (Kafka Streams' TopologyDescription.Source). */
export interface SourceNodeDescription extends NodeDescriptionBase {
  /** Tells the node kinds apart. */
  readonly kind: 'source'
  /** The topics, in Kafka's print order; undefined for a pattern source. */
  readonly topicSet: ReadonlySet<string> | undefined
  /** The pattern; undefined for a source of named topics. */
  readonly topicPattern: RegExp | undefined
}

/** A processor node (Kafka Streams' TopologyDescription.Processor). */
export interface ProcessorNodeDescription extends NodeDescriptionBase {
  /** Tells the node kinds apart. */
  readonly kind: 'processor'
  /** Connected store names, in Kafka's print order. */
  readonly stores: ReadonlySet<string>
}

/** A sink node (Kafka Streams' TopologyDescription.Sink). */
export interface SinkNodeDescription extends NodeDescriptionBase {
  /** Tells the node kinds apart. */
  readonly kind: 'sink'
  /** The fixed topic; undefined when a topic name extractor chooses it. */
  readonly topic: string | undefined
  /** The extractor that chooses the topic per record; undefined for a fixed topic. */
  readonly topicNameExtractor: TopicNameExtractor<any, any> | undefined
}

/** A node of a described topology: a source, a processor or a sink (`kind` tells which). */
export type NodeDescription = SourceNodeDescription | ProcessorNodeDescription | SinkNodeDescription

/** A sub-topology: a connected group of nodes that becomes one task per input partition. */
export interface SubtopologyDescription {
  /** The sub-topology's id, the first part of its task ids. */
  readonly id: number
  /** Nodes by descending size of the subtree below them, then by name. */
  readonly nodes: readonly NodeDescription[]
  /** The sub-topology as Kafka Streams prints it. */
  toString(): string
}

/** A global store with the source and processor that feed it (no tasks). */
export interface GlobalStoreDescription {
  /** Its id, counted with the sub-topologies'. */
  readonly id: number
  /** The source reading the global topic. */
  readonly source: SourceNodeDescription
  /** The processor that writes the store. */
  readonly processor: ProcessorNodeDescription
  /** The global store as Kafka Streams prints it. */
  toString(): string
}

/** What Topology.describe() returns (Kafka Streams' TopologyDescription). */
export interface TopologyDescription {
  /** By id. */
  readonly subtopologies: readonly SubtopologyDescription[]
  /** By id; ids are shared with the sub-topologies. */
  readonly globalStores: readonly GlobalStoreDescription[]
  /** The topology as Kafka Streams prints it (`Topologies:` and each sub-topology). */
  toString(): string
}

const ARROW_INDENT = '\n      '

function nodeNames(nodes: readonly NodeDescription[]): string {
  return nodes.length === 0 ? 'none' : nodes.map(node => node.name).join(', ')
}

function setToString(values: Iterable<string>): string {
  return `[${[...values].join(', ')}]`
}

/**
 * What Kafka prints for a dynamic sink is the extractor's `toString()`. A function given its own
 * `toString` prints that; any other function prints its name (a function's default `toString()`
 * is its source code, which would break the format).
 */
export function topicNameExtractorToString(extractor: TopicNameExtractor<any, any>): string {
  if (extractor.toString !== Function.prototype.toString) return String(extractor)
  return extractor.name === '' ? 'anonymous' : extractor.name
}

export function formatNode(node: NodeDescription): string {
  switch (node.kind) {
    case 'source': {
      const topics = node.topicSet === undefined ? node.topicPattern!.source : setToString(node.topicSet)
      return `Source: ${node.name} (topics: ${topics})${ARROW_INDENT}--> ${nodeNames(node.successors)}`
    }
    case 'processor':
      return (
        `Processor: ${node.name} (stores: ${setToString(node.stores)})` +
        `${ARROW_INDENT}--> ${nodeNames(node.successors)}${ARROW_INDENT}<-- ${nodeNames(node.predecessors)}`
      )
    case 'sink': {
      const target =
        node.topic !== undefined ? `topic: ${node.topic}` : `extractor class: ${topicNameExtractorToString(node.topicNameExtractor!)}`
      return `Sink: ${node.name} (${target})${ARROW_INDENT}<-- ${nodeNames(node.predecessors)}`
    }
  }
}

export function formatSubtopology(subtopology: SubtopologyDescription): string {
  return `Sub-topology: ${subtopology.id}\n` + subtopology.nodes.map(node => `    ${formatNode(node)}\n`).join('') + '\n'
}

export function formatGlobalStore(store: GlobalStoreDescription): string {
  return (
    `Sub-topology: ${store.id} for global store (will not generate tasks)\n` +
    `    ${formatNode(store.source)}\n    ${formatNode(store.processor)}\n`
  )
}

/** Sub-topologies and global stores interleaved by id, each preceded by two spaces. */
export function formatTopology(description: TopologyDescription): string {
  const parts: Array<{ id: number; text: string }> = [
    ...description.subtopologies.map(s => ({ id: s.id, text: formatSubtopology(s) })),
    ...description.globalStores.map(g => ({ id: g.id, text: formatGlobalStore(g) }))
  ].sort((a, b) => a.id - b.id)
  return 'Topologies:\n ' + parts.map(part => `  ${part.text}`).join('')
}
