/**
 * Where sinks send their serialized records: the test driver captures them, the runtime
 * produces them. @internal
 */
import type { Headers } from '../record.js'
import type { TaskId } from '../task-id.js'
import type { ProcessorRecordContext } from './record-context.js'

/** The task a record comes from: a record the production exception handler drops is counted in its dropped records. */
export interface RecordOrigin {
  readonly taskId: TaskId | string
  recordDroppedRecord(): void
}

export interface CollectedRecord {
  readonly topic: string
  /** Chosen by a StreamPartitioner; undefined means the default partitioning of the key. */
  readonly partition: number | undefined
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
  /** The task that produced it (undefined where nothing counts drops). */
  readonly origin?: RecordOrigin | undefined
  /** A store's changelog record (not a sink's output). */
  readonly changelog?: boolean
  /** The record being processed when it was sent, for the production exception handler's context. */
  readonly source?: ProcessorRecordContext | undefined
  /** The node that sent it (a sink, or the processor whose store logged it), for the handler's context. */
  readonly processorNodeId?: string | undefined
  /** A dead-letter record an exception handler asked for: one that cannot be sent fails the thread (KIP-1034), the handler is not asked again. */
  readonly deadLetter?: boolean
  /**
   * For a sink's record whose topic's partition count was not known when it was sent (a
   * StreamPartitioner on a topic a TopicNameExtractor chose): the collector looks the count up and
   * calls it before sending; it answers the partitions to send a copy to (empty: dropped, counted
   * by the sink) or undefined for the default partitioning. `partition` is undefined.
   */
  readonly choosePartitions?: ((partitionCount: number) => readonly number[] | undefined) | undefined
}

export interface RecordCollector {
  send(record: CollectedRecord): void
  /**
   * The partition count of an output topic, for StreamPartitioners; undefined while not known
   * (the sink then sends the record with `choosePartitions`).
   */
  partitionsFor(topic: string): number | undefined
}
