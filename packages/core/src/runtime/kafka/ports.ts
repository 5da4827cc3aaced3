/**
 * The ports through which the runtime reaches Kafka (DESIGN.md §3). The runtime never imports a
 * client library; one adapter implements these on kafkajs 2.2.4, and unit tests implement them
 * in memory. Shaped after what Kafka Streams needs from its clients, so another client could be
 * adapted later. Offsets are JS numbers (exact below 2^53).
 */
import type { Headers } from '../../record.js'

export interface TopicPartition {
  readonly topic: string
  readonly partition: number
}

export interface TopicPartitionOffset extends TopicPartition {
  readonly offset: number
}

/** A fetched record, still in bytes. */
export interface FetchedRecord extends TopicPartitionOffset {
  readonly timestamp: number
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
}

export interface FetchedBatch extends TopicPartition {
  readonly records: readonly FetchedRecord[]
  /** The partition's end offset (high watermark) as of this fetch; lag = highWatermark - nextOffset. */
  readonly highWatermark: number
  /** Where the next fetch of this partition starts (past control records and aborted data too). */
  readonly nextOffset: number
}

/** A group member's subscription as the leader's assignor sees it. */
export interface GroupMemberSubscription {
  readonly memberId: string
  readonly topics: readonly string[]
  readonly userData: Buffer
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

export interface GroupConsumerHandlers {
  /** Awaited before the member rejoins (eager protocol: everything it owns is revoked). */
  onPartitionsRevoked(revoked: readonly TopicPartition[]): Promise<void>
  /** Awaited after a new assignment is received, before any of it is fetched. */
  onPartitionsAssigned(assignment: MemberAssignment): Promise<void>
  /** A batch of one partition; the next fetch of that partition starts after it. */
  onBatch(batch: FetchedBatch): Promise<void>
  /** Called while the member is idle (no batch) at least every `idleIntervalMs`, for punctuation and commits. */
  onIdle(): Promise<void>
  /** The group consumer crashed and will not restart on its own. */
  onFatal(error: Error): void
}

/** A group member that consumes the source and repartition topics of a stream thread. */
export interface GroupConsumerPort {
  readonly memberId: string | undefined
  /** Subscribes and starts the fetch loop; resolves once it is running. */
  start(topics: readonly string[] | RegExp, assignor: GroupAssignor, handlers: GroupConsumerHandlers, idleIntervalMs: number): Promise<void>
  pause(partitions: readonly TopicPartition[]): void
  resume(partitions: readonly TopicPartition[]): void
  seek(partition: TopicPartitionOffset): void
  /** Commits offsets (next offset to read) with optional metadata, for the current generation. */
  commit(offsets: ReadonlyArray<TopicPartitionOffset & { metadata?: string }>): Promise<void>
  /** The group's committed offsets (next offset to read) of the given partitions; absent = none. */
  committed(partitions: readonly TopicPartition[]): Promise<Map<string, { offset: number, metadata: string | undefined }>>
  /** Asks the group to rebalance (e.g. a probing rebalance). */
  requestRebalance(): void
  /** Stops fetching; leaves the group when `leaveGroup` is true. */
  stop(options: { leaveGroup: boolean }): Promise<void>
}

/** Reads partitions it is told to read, from given offsets, without a group (restore, standby, global). */
export interface PartitionReaderPort {
  /** Replaces the assignment; each partition starts at its offset (or earliest when undefined). */
  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined }>): void
  /** Fetches what is available, waiting at most `maxWaitMs` when nothing is. */
  poll(maxWaitMs: number): Promise<FetchedBatch[]>
  close(): Promise<void>
}

export interface ProducedRecord extends TopicPartition {
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}

/** The offset Kafka gave the last record of each partition in a sent batch. */
export type SendResult = Map<string, number>

export interface ProducerPort {
  /** Sends records (partitions already chosen); resolves when all are acknowledged. */
  send(records: readonly ProducedRecord[]): Promise<SendResult>
  /** Transactions (exactly-once); undefined for a non-transactional producer. */
  readonly transactions?: {
    begin(): Promise<void>
    sendOffsets(groupId: string, offsets: readonly TopicPartitionOffset[]): Promise<void>
    commit(): Promise<void>
    abort(): Promise<void>
  }
  close(): Promise<void>
}

export interface NewTopic {
  readonly topic: string
  readonly numPartitions: number
  /** -1 = broker default. */
  readonly replicationFactor: number
  readonly configs: Readonly<Record<string, string>>
}

export interface AdminPort {
  /** Partition counts of existing topics; missing topics are absent. */
  partitionCounts(topics: readonly string[]): Promise<Map<string, number>>
  /** Creates topics that do not exist yet (existing ones are left as they are). */
  createTopics(topics: readonly NewTopic[]): Promise<void>
  /** End offsets (high watermarks) of partitions, keyed by `topic-partition`. */
  endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  /** The offsets a consumer group committed, keyed by `topic-partition`; partitions without a commit are absent. */
  committedOffsets(groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  /** Deletes records before the given offsets (repartition topic purge). */
  deleteRecords(offsets: readonly TopicPartitionOffset[]): Promise<void>
  /** All topic names (for pattern subscriptions). */
  listTopics(): Promise<string[]>
  close(): Promise<void>
}

/** Creates the clients of one KafkaStreams instance. */
export interface KafkaClientFactory {
  groupConsumer(options: { groupId: string, clientId: string }): GroupConsumerPort
  partitionReader(options: { clientId: string, readCommitted: boolean }): PartitionReaderPort
  producer(options: { clientId: string, transactionalId?: string }): ProducerPort
  admin(options: { clientId: string }): AdminPort
}

export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`
