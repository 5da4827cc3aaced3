/**
 * The plain description of a topology that `Topology` builds and the runtime instantiates
 * (one set of processor instances per task). @internal
 */
import type { Deserializer, Serializer } from '../serialization/serde.js'
import type { AutoOffsetReset, ProcessorSupplier, StreamPartitioner, TimestampExtractor, TopicNameExtractor } from '../processor/api.js'
import type { StateStore, StoreBuilder } from '../state/state-store.js'

export interface SourceNodeDef {
  readonly kind: 'source'
  readonly name: string
  /** Fixed topic names; empty when `pattern` is set. */
  readonly topics: readonly string[]
  readonly pattern: RegExp | undefined
  readonly keyDeserializer: Deserializer<unknown> | undefined
  readonly valueDeserializer: Deserializer<unknown> | undefined
  readonly timestampExtractor: TimestampExtractor | undefined
  readonly offsetReset: AutoOffsetReset | undefined
}

export interface ProcessorNodeDef {
  readonly kind: 'processor'
  readonly name: string
  readonly supplier: ProcessorSupplier<any, any, any, any>
  /** Parent node names, in the order given. */
  readonly parents: readonly string[]
  /** Names of the stores connected to this processor. */
  readonly stores: ReadonlySet<string>
}

export interface SinkNodeDef {
  readonly kind: 'sink'
  readonly name: string
  /** The fixed topic, or undefined when a topic extractor chooses it. */
  readonly topic: string | undefined
  readonly topicExtractor: TopicNameExtractor<any, any> | undefined
  readonly keySerializer: Serializer<unknown> | undefined
  readonly valueSerializer: Serializer<unknown> | undefined
  readonly partitioner: StreamPartitioner<any, any> | undefined
  readonly parents: readonly string[]
}

export type NodeDef = SourceNodeDef | ProcessorNodeDef | SinkNodeDef

/** A connected component of the graph: the unit that becomes tasks (one per partition). */
export interface SubtopologyDef {
  readonly id: number
  /** Node names in insertion order. */
  readonly nodes: readonly string[]
  /** Topics read by its sources (fixed names only). */
  readonly sourceTopics: readonly string[]
  /** Pattern sources of this sub-topology. */
  readonly sourcePatterns: readonly RegExp[]
  /** Names of the (non-global) stores used by its processors. */
  readonly stores: readonly string[]
}

export interface GlobalStoreDef {
  /** Sub-topology id of the global store (numbered together with the others, no tasks). */
  readonly id: number
  readonly storeName: string
  readonly topic: string
  readonly sourceName: string
  readonly processorName: string
}

export interface TopologyDef {
  /** Every node, in insertion order. */
  readonly nodes: ReadonlyMap<string, NodeDef>
  /** Children of each node, in the order they were connected. */
  readonly children: ReadonlyMap<string, readonly string[]>
  readonly subtopologies: readonly SubtopologyDef[]
  readonly globalStores: readonly GlobalStoreDef[]
  /** Every store builder by store name (local and global). */
  readonly storeBuilders: ReadonlyMap<string, StoreBuilder<StateStore>>
  /** Global store names. */
  readonly globalStoreNames: ReadonlySet<string>
  /** Internal (repartition) topics by unprefixed name; the runtime uses `<applicationId>-<name>`. */
  readonly internalTopics: ReadonlyMap<string, { readonly numPartitions?: number }>
  /**
   * Groups of source topics that must be co-partitioned (a join's two inputs): user topics must
   * have equal partition counts, internal ones are created with that count. Topic names as in
   * the topology (internal ones unprefixed).
   */
  readonly copartitionGroups: ReadonlyArray<readonly string[]>
  /** Stores whose changelog is one of their sub-topology's source topics, by store name (reuse.ktable.source.topics). */
  readonly sourceChangelogs: ReadonlyMap<string, string>
}
