/**
 * Reads what a StreamPartitioner returned (Kafka Streams' `Optional<Set<Integer>>` of
 * `StreamPartitioner.partitions`, KIP-837) into the partitions to send a copy to: undefined for
 * the default partitioning, an empty list to drop the record, else the distinct partitions in
 * the order given. @internal
 */
import type { StreamPartitions } from '../processor/api.js'

/** The distinct partitions of a partitioner's answer; undefined when it asks for the default partitioning. */
export function multicastPartitions(result: StreamPartitions): readonly number[] | undefined {
  if (result === undefined || result === null) return undefined
  if (typeof result === 'number') return [result]
  return [...new Set<number>(result)]
}

/** Whether `partition` is a partition of a topic with `numPartitions` partitions. */
export function isValidPartition(partition: number, numPartitions: number): boolean {
  return Number.isInteger(partition) && partition >= 0 && partition < numPartitions
}
