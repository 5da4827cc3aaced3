/**
 * Renders a `TopologyDescription` as a Mermaid flowchart: the same facts as Kafka's describe()
 * text, drawn. Owns the diagram's shapes, node ids and label escaping; the description itself
 * stays the Kafka-shaped data of `topology-description.ts`.
 */
import type { GlobalStoreDescription, NodeDescription, SubtopologyDescription, TopologyDescription } from './topology-description.js'
import { topicNameExtractorToString } from './topology-description.js'

/** Options of {@link toMermaid}. */
export interface MermaidOptions {
  /** The flowchart's direction: top to bottom (the default) or left to right. */
  readonly direction?: 'TB' | 'LR'
}

type Group =
  | { readonly kind: 'subtopology'; readonly value: SubtopologyDescription }
  | { readonly kind: 'global'; readonly value: GlobalStoreDescription }

/** Characters left as they are in a label; every other one becomes a Mermaid entity code (`#34;`). */
const PLAIN = /[A-Za-z0-9 _.,:()/+=@*-]/

/** A double-quoted Mermaid label: any character outside a small safe set as `#<code point>;`. */
function label(text: string): string {
  let out = ''
  for (const char of text) out += PLAIN.test(char) ? char : `#${char.codePointAt(0)};`
  return `"${out}"`
}

/** Node ids by what they stand for; every id is a prefix and a counter, so no name can break the syntax. */
class Ids {
  readonly #ids = new Map<string, string>()
  readonly #counts = new Map<string, number>()

  /** The id of `key` (kind-qualified), allocated as `<prefix>_<n>` on first sight; `isNew` tells. */
  get(prefix: string, key: string): { id: string; isNew: boolean } {
    const qualified = `${prefix}\u0000${key}`
    const existing = this.#ids.get(qualified)
    if (existing !== undefined) return { id: existing, isNew: false }
    const n = this.#counts.get(prefix) ?? 0
    this.#counts.set(prefix, n + 1)
    const id = `${prefix}_${n}`
    this.#ids.set(qualified, id)
    return { id, isNew: true }
  }
}

function groupsById(description: TopologyDescription): Group[] {
  const groups: Group[] = [
    ...description.subtopologies.map(value => ({ kind: 'subtopology' as const, value })),
    ...description.globalStores.map(value => ({ kind: 'global' as const, value }))
  ]
  return groups.sort((a, b) => a.value.id - b.value.id)
}

function groupNodes(group: Group): readonly NodeDescription[] {
  return group.kind === 'subtopology' ? group.value.nodes : [group.value.source, group.value.processor]
}

function nodeShape(node: NodeDescription, id: string): string {
  switch (node.kind) {
    case 'source':
      return `${id}([${label(node.name)}])`
    case 'processor':
      return `${id}[${label(node.name)}]`
    case 'sink':
      return `${id}>${label(node.name)}]`
  }
}

/**
 * Mermaid flowchart text of a described topology (`toMermaid(topology.describe())`), for
 * documentation and reviews; paste it into a ```` ```mermaid ```` block.
 *
 * - One `subgraph` per sub-topology (`Sub-topology: 0`) and per global store
 *   (`Sub-topology: 1 (global store)`), in id order as Kafka prints them.
 * - Shapes: sources are stadiums `([...])`, processors rectangles `[...]`, sinks flags `>...]`,
 *   state stores cylinders `[(...)]` (inside the sub-topology that uses them, linked to each
 *   processor connected to them by a dotted line), topics parallelograms `[/.../]` outside every
 *   subgraph, so a repartition topic links the sink of one sub-topology to the source of another.
 *   A pattern source reads from a node labelled `pattern: <regex>`; a sink whose topic an
 *   extractor chooses writes to its own node labelled `extractor: <name>`.
 * - Ids are generated (`node_0`, `topic_0`, `store_0`, `sub_0`), so any node, topic or store name
 *   is safe; labels are double-quoted with every character outside `[A-Za-z0-9 _.,:()/+=@*-]`
 *   written as a Mermaid entity code (`#35;` for `#`).
 * - The output is deterministic: it follows the description's orders (nodes, topics, stores,
 *   successors), each line ending with a newline.
 *
 * The description does not name changelog topics (Kafka's does not either; their names depend on
 * the application id), so none are drawn.
 */
export function toMermaid(description: TopologyDescription, options: MermaidOptions = {}): string {
  const ids = new Ids()
  const groups = groupsById(description)
  // Node names are unique in a topology; ids follow the order the nodes are declared in.
  for (const group of groups) for (const node of groupNodes(group)) ids.get('node', node.name)
  const nodeId = (node: NodeDescription): string => ids.get('node', node.name).id
  const topicLines: string[] = []
  const groupLines: string[] = []
  const edgeLines: string[] = []

  const topicNode = (key: string, text: string): string => {
    const { id, isNew } = ids.get('topic', key)
    if (isNew) topicLines.push(`  ${id}[/${label(text)}/]`)
    return id
  }

  for (const group of groups) {
    const title = group.kind === 'subtopology' ? `Sub-topology: ${group.value.id}` : `Sub-topology: ${group.value.id} (global store)`
    groupLines.push(`  subgraph sub_${group.value.id}[${label(title)}]`)
    const storeLines: string[] = []
    for (const node of groupNodes(group)) {
      const id = nodeId(node)
      groupLines.push(`    ${nodeShape(node, id)}`)
      switch (node.kind) {
        case 'source':
          if (node.topicSet === undefined)
            edgeLines.push(`  ${topicNode(`pattern:${node.topicPattern!.source}`, `pattern: ${node.topicPattern!.source}`)} --> ${id}`)
          else for (const topic of node.topicSet) edgeLines.push(`  ${topicNode(`topic:${topic}`, topic)} --> ${id}`)
          break
        case 'processor':
          for (const store of node.stores) {
            const storeId = ids.get('store', store)
            if (storeId.isNew) storeLines.push(`    ${storeId.id}[(${label(store)})]`)
            edgeLines.push(`  ${id} -.- ${storeId.id}`)
          }
          break
        case 'sink':
          break
      }
      for (const successor of node.successors) edgeLines.push(`  ${id} --> ${nodeId(successor)}`)
      if (node.kind === 'sink') {
        const target =
          node.topic !== undefined
            ? topicNode(`topic:${node.topic}`, node.topic)
            : topicNode(`extractor:${node.name}`, `extractor: ${topicNameExtractorToString(node.topicNameExtractor!)}`)
        edgeLines.push(`  ${id} --> ${target}`)
      }
    }
    groupLines.push(...storeLines, '  end')
  }

  const lines = [`flowchart ${options.direction ?? 'TB'}`, ...topicLines, ...groupLines, ...edgeLines]
  return lines.map(line => `${line}\n`).join('')
}
