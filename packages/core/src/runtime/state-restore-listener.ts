/**
 * Restore progress callbacks (Kafka Streams' StateRestoreListener), one call per store and
 * changelog partition. Offsets are changelog offsets; `endOffset` is the end captured when the
 * restore started (the restore never reads past it).
 */
import type { TopicPartition } from './kafka/ports.js'

export interface StateRestoreListener {
  onRestoreStart?(partition: TopicPartition, storeName: string, startOffset: number, endOffset: number): void
  onBatchRestored?(partition: TopicPartition, storeName: string, batchEndOffset: number, numRestored: number): void
  onRestoreEnd?(partition: TopicPartition, storeName: string, totalRestored: number): void
  /** The task moved away before its restore finished. */
  onRestoreSuspended?(partition: TopicPartition, storeName: string, totalRestored: number): void
}
