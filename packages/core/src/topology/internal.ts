/**
 * The internal seam between the public `Topology` builder and the runtime: a symbol-keyed method
 * returning the plain `TopologyDef`. Not exported from the package's public API. @internal
 */
import type { ProcessorSupplier } from '../processor/api.js'

/**
 * `topology[TOPOLOGY_DEF]()` returns the validated `TopologyDef` of a `Topology` as it is now.
 * @internal
 */
export const TOPOLOGY_DEF: unique symbol = Symbol('kstreams.topologyDef')

/**
 * `topology[ADD_INTERNAL_TOPIC](name, spec)` declares `name` an internal topic of the application
 * (a repartition topic): the runtime prefixes it with the application id and creates it. The DSL
 * uses it; `describe()` prints the name without the prefix, as Kafka Streams does. @internal
 */
export const ADD_INTERNAL_TOPIC: unique symbol = Symbol('kstreams.addInternalTopic')

/**
 * `topology[COPARTITION_SOURCES](nodeNames)` declares the input topics of these nodes (the topics
 * of every source node upstream of them) co-partitioned (Kafka Streams' copartition groups, for
 * joins): the assignor checks user topics have equal partition counts and creates internal ones
 * with that count. @internal
 */
export const COPARTITION_SOURCES: unique symbol = Symbol('kstreams.copartitionSources')

/**
 * `topology[SOURCE_CHANGELOG](storeName, topic)` makes the source topic `topic` the changelog of
 * the store (Kafka Streams' connectSourceStoreAndTopic, for the reuse.ktable.source.topics
 * optimization): no changelog topic is created, the store restores from the source topic up to
 * the committed offset, and its checkpoint records the consumed offset. The store must not log.
 * @internal
 */
export const SOURCE_CHANGELOG: unique symbol = Symbol('kstreams.sourceChangelog')

/**
 * `topology[REWRITE](edits)` applies the DSL's topology optimizations (Kafka Streams rewrites its
 * graph before writing it; the DSL writes eagerly and edits afterwards): removes nodes and
 * stores, re-parents nodes, replaces a processor in place, moves nodes in insertion order (which
 * numbers the sub-topologies) and renames a node in the co-partition groups. Each edit is checked;
 * the result must still be a valid topology. @internal
 */
export const REWRITE: unique symbol = Symbol('kstreams.rewrite')

/** One edit of `topology[REWRITE]`. @internal */
export type TopologyEdit =
  /** A node no other node names as parent; a source frees its topics, an unused internal topic is dropped. */
  | { readonly op: 'removeNode'; readonly name: string }
  /** New parents of a processor or sink (each an existing source or processor). */
  | { readonly op: 'setParents'; readonly name: string; readonly parents: readonly string[] }
  /** A processor keeps its name and place but gets another supplier and parents. */
  | {
      readonly op: 'replaceProcessor'
      readonly name: string
      readonly supplier: ProcessorSupplier<any, any, any, any>
      readonly parents: readonly string[]
    }
  /** Moves `names` (in this order) to right after `anchor` in insertion order. */
  | { readonly op: 'moveAfter'; readonly names: readonly string[]; readonly anchor: string }
  /** A store connected to no processor any more. */
  | { readonly op: 'removeStore'; readonly storeName: string }
  /** Connects a store to one more processor. */
  | { readonly op: 'connectStore'; readonly storeName: string; readonly processorName: string }
  /** Co-partition groups naming `from` name `to` instead. */
  | { readonly op: 'renameCopartitionNode'; readonly from: string; readonly to: string }

/** What the application declares about one of its internal topics. @internal */
export interface InternalTopicSpec {
  /** A partition count fixed by the user; otherwise it follows the upstream source topics. */
  readonly numPartitions?: number
}
