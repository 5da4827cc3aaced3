/**
 * Co-partitioning of joins (Kafka Streams' ensureCopartitionWith / copartitionSources): the
 * topics feeding both sides of a join must have the same number of partitions. The core Topology
 * resolves the given nodes to the topics of their upstream source nodes when it is built; the
 * runtime checks the groups (and sizes the internal topics in them) at assignment. @internal
 */
import type { Topology } from '@kstreams/core'
import { COPARTITION_SOURCES } from '@kstreams/core/internal'

/** Declares the inputs of `nodeNames` co-partitioned. */
export function copartition(topology: Topology, nodeNames: readonly string[]): void {
  topology[COPARTITION_SOURCES]([...new Set(nodeNames)])
}
