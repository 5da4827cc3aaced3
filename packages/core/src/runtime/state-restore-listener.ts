/**
 * Restore progress callbacks (Kafka Streams' StateRestoreListener), one call per store and
 * changelog partition. Offsets are changelog offsets; `endOffset` is the end captured when the
 * restore started (the restore never reads past it).
 */
import type { TopicPartition } from './kafka/ports.js'

/** Told as stores restore from their changelogs (Kafka Streams' StateRestoreListener). */
export interface StateRestoreListener {
  /** The restore of `storeName` from changelog `partition` starts at `startOffset` and will end at `endOffset`. */
  onRestoreStart?(partition: TopicPartition, storeName: string, startOffset: number, endOffset: number): void
  /** A batch of `numRestored` records, ending at `batchEndOffset`, was applied to the store. */
  onBatchRestored?(partition: TopicPartition, storeName: string, batchEndOffset: number, numRestored: number): void
  /** The restore finished after `totalRestored` records. */
  onRestoreEnd?(partition: TopicPartition, storeName: string, totalRestored: number): void
  /** The task moved away before its restore finished. */
  onRestoreSuspended?(partition: TopicPartition, storeName: string, totalRestored: number): void
}
