/**
 * Where sinks send their serialized records: the test driver captures them, the runtime
 * produces them. @internal
 */
import type { Headers } from '../record.js'
import type { TaskId } from '../task-id.js'

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
}

export interface RecordCollector {
  send(record: CollectedRecord): void
  /** The partition count of an output topic, for StreamPartitioners. */
  partitionsFor(topic: string): number
}
