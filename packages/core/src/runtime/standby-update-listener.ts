/**
 * Standby update callbacks (Kafka Streams' StandbyUpdateListener, KIP-988), one call per store
 * and changelog partition of a standby task. Offsets are changelog offsets; `currentEndOffset` is
 * the changelog's end as last seen by the reader (the standby never stops at it).
 */
import type { TaskId } from '../task-id.js'
import type { TopicPartition } from './kafka/ports.js'

/** Why a standby stopped updating: its task moved to another instance, or became active here. */
export type StandbySuspendReason = 'MIGRATED' | 'PROMOTED'

/** Told as standby tasks update their stores from the changelogs (Kafka Streams' StandbyUpdateListener). */
export interface StandbyUpdateListener {
  /** The standby starts reading the changelog at `startingOffset` (its checkpoint + 1, or the beginning). */
  onUpdateStart?(partition: TopicPartition, storeName: string, startingOffset: number): void
  /** A batch ending at `batchEndOffset` was applied to the standby's store. */
  onBatchLoaded?(
    partition: TopicPartition,
    storeName: string,
    taskId: TaskId,
    batchEndOffset: number,
    batchSize: number,
    currentEndOffset: number
  ): void
  /** The standby stopped; `storeOffset` is the offset of the last record its store applied (-1 for none). */
  onUpdateSuspended?(
    partition: TopicPartition,
    storeName: string,
    storeOffset: number,
    currentEndOffset: number,
    reason: StandbySuspendReason
  ): void
}
