/**
 * What the runtime's own consumers offer the rest of the runtime (they are built on the
 * wire-level ports in ../kafka/ports.ts): the assignor plugged into the group protocol, the main
 * consumer a stream thread polls, and the partition reader that restores and follows changelogs
 * and global topics. @internal
 */
import type { CommittedOffset, FetchedBatch, TopicPartition, TopicPartitionOffset } from '../kafka/ports.js'

/** A group member's subscription as the leader's assignor sees it. */
export interface GroupMemberSubscription {
  readonly memberId: string
  readonly topics: readonly string[]
  readonly userData: Buffer
  /**
   * The partitions the member still owns while it rejoins: a member on the cooperative protocol
   * (a Java Kafka Streams member) keeps its partitions until its new assignment takes them away;
   * eager members (kstreams) own none. None must move to another member in the same rebalance.
   */
  readonly ownedPartitions?: readonly TopicPartition[]
}

export interface MemberAssignment {
  readonly partitions: readonly TopicPartition[]
  readonly userData: Buffer
}

/** The leader-side assignor plugged into the group protocol (Kafka Streams' StreamsPartitionAssignor). */
export interface GroupAssignor {
  readonly name: string
  /** This member's subscription userData, computed on every (re)join. Synchronous. */
  subscriptionUserData(topics: readonly string[]): Buffer
  /** Leader only: assigns partitions to members. `partitionCounts` is fresh cluster metadata. */
  assign(members: readonly GroupMemberSubscription[], partitionCounts: ReadonlyMap<string, number>): Promise<Map<string, MemberAssignment>>
}

/** Kafka's ConsumerRebalanceListener for the eager protocol; each call is awaited inside poll(). */
export interface RebalanceListener {
  /** Before the member rejoins, while it still is in its generation (commits are accepted): everything it owns is revoked. */
  onPartitionsRevoked(revoked: readonly TopicPartition[]): Promise<void>
  /** The membership is gone (evicted, fenced, generation reset): the partitions already belong to others; no commit. */
  onPartitionsLost(lost: readonly TopicPartition[]): Promise<void>
  /** After SyncGroup, before anything of the new assignment is fetched. */
  onPartitionsAssigned(assignment: MemberAssignment): Promise<void>
}

/** The consumer of a stream thread's source and repartition topics: Java's KafkaConsumer, as Kafka Streams uses it. */
export interface MainConsumer {
  pause(partitions: readonly TopicPartition[]): void
  resume(partitions: readonly TopicPartition[]): void
  seek(partition: TopicPartitionOffset): void
  /** Forgets the positions of `partitions`: they are read again from the committed offsets (or the reset policy), as after an assignment. */
  resetToCommitted(partitions: readonly TopicPartition[]): void
  /** Commits offsets (next offset to read) with optional metadata in the current generation; TASK_MIGRATED when the generation is gone. */
  commit(offsets: ReadonlyArray<TopicPartitionOffset & { metadata?: string }>): Promise<void>
  /** The group's committed offsets of `partitions`, keyed by `topic-partition`; absent = none. */
  committed(partitions: readonly TopicPartition[]): Promise<Map<string, CommittedOffset>>
}

/** Reads the partitions it is told to read, from given offsets, without a group (restore, standby, global). */
export interface PartitionReader {
  /**
   * Replaces the assignment; each partition starts at its offset (or earliest when undefined). A
   * partition with an `endOffset` is read up to it and not fetched at or past it.
   */
  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined; endOffset?: number | undefined }>): void
  /** Fetches what is available, waiting at most `maxWaitMs` when nothing is. */
  poll(maxWaitMs: number): Promise<FetchedBatch[]>
  close(): Promise<void>
}
