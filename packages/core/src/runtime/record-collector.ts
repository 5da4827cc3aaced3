/**
 * Where sinks send their serialized records: the test driver captures them, the runtime
 * produces them. @internal
 */
import type { Headers } from '../record.js'

export interface CollectedRecord {
  readonly topic: string
  /** Chosen by a StreamPartitioner; undefined means the default partitioning of the key. */
  readonly partition: number | undefined
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}

export interface RecordCollector {
  send(record: CollectedRecord): void
  /** The partition count of an output topic, for StreamPartitioners. */
  partitionsFor(topic: string): number
}
