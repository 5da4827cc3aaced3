/**
 * Instantiates the part of a TopologyDef a task runs: one node per definition, new processor
 * instances from their suppliers, children linked in connection order. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import { toDeserializer, toSerializer } from '../serialization/serde.js'
import { StreamsError } from '../errors.js'
import { ProcessorNode } from './processor-node.js'
import { SourceNode } from './source-node.js'
import { SinkNode } from './sink-node.js'
import type { RecordCollector } from './record-collector.js'

export interface ProcessorGraph {
  /** In insertion order (parents before children). */
  readonly nodes: readonly ProcessorNode[]
  readonly sourcesByTopic: ReadonlyMap<string, SourceNode>
  readonly patternSources: ReadonlyArray<{ pattern: RegExp; source: SourceNode }>
  /** Stores used by the processors of the graph. */
  readonly storeNames: ReadonlySet<string>
}

/** The topic name the runtime uses: internal topics are prefixed with the application id. */
export function runtimeTopicName(def: TopologyDef, applicationId: string, topic: string): string {
  return def.internalTopics.has(topic) ? `${applicationId}-${topic}` : topic
}

export function buildProcessorGraph(
  def: TopologyDef,
  nodeNames: ReadonlySet<string>,
  collector: RecordCollector,
  applicationId = ''
): ProcessorGraph {
  const topicName = (topic: string): string => runtimeTopicName(def, applicationId, topic)
  const nodes = new Map<string, ProcessorNode>()
  const sourcesByTopic = new Map<string, SourceNode>()
  const patternSources: Array<{ pattern: RegExp; source: SourceNode }> = []
  const storeNames = new Set<string>()
  for (const [name, nodeDef] of def.nodes) {
    if (!nodeNames.has(name)) continue
    switch (nodeDef.kind) {
      case 'source': {
        const source = new SourceNode(
          name,
          toDeserializer(nodeDef.keyDeserializer),
          toDeserializer(nodeDef.valueDeserializer),
          nodeDef.timestampExtractor
        )
        for (const topic of nodeDef.topics) sourcesByTopic.set(topicName(topic), source)
        if (nodeDef.pattern !== undefined) patternSources.push({ pattern: nodeDef.pattern, source })
        nodes.set(name, source)
        break
      }
      case 'processor': {
        const processor = nodeDef.supplier()
        if (processor === null || typeof processor !== 'object' || typeof processor.process !== 'function') {
          throw new StreamsError(
            'TOPOLOGY_INVALID',
            `The supplier of processor ${name} did not return a Processor (an object with a process method)`
          )
        }
        for (const store of nodeDef.stores) storeNames.add(store)
        nodes.set(name, new ProcessorNode(name, processor, nodeDef.stores))
        break
      }
      case 'sink':
        nodes.set(
          name,
          new SinkNode(
            name,
            nodeDef.topic === undefined ? undefined : topicName(nodeDef.topic),
            nodeDef.topicExtractor,
            toSerializer(nodeDef.keySerializer),
            toSerializer(nodeDef.valueSerializer),
            nodeDef.partitioner,
            collector
          )
        )
        break
    }
  }
  for (const [name, node] of nodes) {
    for (const childName of def.children.get(name) ?? []) {
      const child = nodes.get(childName)
      if (child !== undefined) node.addChild(child)
    }
  }
  return { nodes: [...nodes.values()], sourcesByTopic, patternSources, storeNames }
}

/** The source node that reads `topic`, by name or by pattern. */
export function sourceFor(graph: ProcessorGraph, topic: string): SourceNode | undefined {
  const byName = graph.sourcesByTopic.get(topic)
  if (byName !== undefined) return byName
  for (const { pattern, source } of graph.patternSources) {
    if (matchesFully(pattern, topic)) return source
  }
  return undefined
}

/** Like Java's `Pattern.matcher(topic).matches()`: the whole topic name must match. */
export function matchesFully(pattern: RegExp, topic: string): boolean {
  const match = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).exec(topic)
  return match !== null && match.index === 0 && match[0].length === topic.length
}
