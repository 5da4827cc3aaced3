/**
 * The internal seam between the public `Topology` builder and the runtime: a symbol-keyed method
 * returning the plain `TopologyDef`. Not exported from the package's public API. @internal
 */

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

/** What the application declares about one of its internal topics. @internal */
export interface InternalTopicSpec {
  /** A partition count fixed by the user; otherwise it follows the upstream source topics. */
  readonly numPartitions?: number
}
