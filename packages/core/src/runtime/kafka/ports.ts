/**
 * The wire-level ports through which the runtime reaches Kafka (DESIGN.md §3). An adapter
 * (@kstreams/kafkajs, the in-memory Kafka of @kstreams/testing) implements them as plain
 * requests: it routes each request to the right broker (the group's coordinator, the partition's
 * leader), encodes and decodes, and keeps connections. Everything stateful about consuming
 * (group membership, generations, rebalance callbacks, heartbeats, fetch positions, pause,
 * seek) lives in the runtime (runtime/consumer), as in Java's KafkaConsumer and
 * ConsumerCoordinator. The runtime never imports a client library.
 *
 * Errors: every request that fails rejects with a KafkaRequestError naming Kafka's error
 * (`UNKNOWN_MEMBER_ID`, `NOT_COORDINATOR`, `NETWORK_EXCEPTION` for a connection that failed,
 * `REQUEST_TIMED_OUT` for an answer that did not come, ...), with `retriable` as Kafka's error
 * table has it. Offsets are JS numbers (exact below 2^53).
 */
import type { Headers } from '../../record.js'
import type { KafkaRequestError } from './kafka-request-error.js'

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
  /** The records at or after the fetch offset: no control records, no aborted ones under READ_COMMITTED. */
  readonly records: readonly FetchedRecord[]
  /** The partition's end as the isolation level sees it (last stable offset under READ_COMMITTED); lag = highWatermark - nextOffset. */
  readonly highWatermark: number
  /** Where the next fetch of this partition starts: past every record batch the response covered (markers, aborted data, compaction gaps). */
  readonly nextOffset: number
  /** The partition's log-start offset, -1 when the broker did not say. */
  readonly logStartOffset: number
}

export type IsolationLevel = 'READ_UNCOMMITTED' | 'READ_COMMITTED'

/** A partition-level error in a response that otherwise succeeded (Fetch, OffsetCommit, ListOffsets). */
export interface PartitionError extends TopicPartition {
  readonly error: KafkaRequestError
}

// ---------------------------------------------------------------------------------------------
// Consumer groups (Kafka's classic group protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit, OffsetFetch), always sent to the group's coordinator.

export interface JoinGroupRequest {
  /** '' for a member joining for the first time. */
  readonly memberId: string
  /** Static membership (group.instance.id); undefined for a dynamic member. */
  readonly groupInstanceId?: string | undefined
  readonly sessionTimeoutMs: number
  readonly rebalanceTimeoutMs: number
  /** 'consumer' for a consumer group. */
  readonly protocolType: string
  /** The protocols (assignors) this member supports, by preference, each with its subscription bytes. */
  readonly protocols: ReadonlyArray<{ readonly name: string; readonly metadata: Buffer }>
  /** Why this member (re)joins, for the broker log (JoinGroup v8+). */
  readonly reason?: string | undefined
}

export interface JoinedMember {
  readonly memberId: string
  readonly groupInstanceId: string | undefined
  /** The member's subscription bytes for the chosen protocol. */
  readonly metadata: Buffer
}

export interface JoinGroupResponse {
  readonly generationId: number
  /** The protocol (assignor) the coordinator chose. */
  readonly protocolName: string
  readonly leaderId: string
  readonly memberId: string
  /** Every member with its subscription: filled for the leader only, empty for the others. */
  readonly members: readonly JoinedMember[]
}

export interface SyncGroupRequest {
  readonly generationId: number
  readonly memberId: string
  readonly groupInstanceId?: string | undefined
  readonly protocolType: string
  readonly protocolName: string
  /** The leader's assignment bytes per member; empty for the others. */
  readonly assignments: ReadonlyArray<{ readonly memberId: string; readonly assignment: Buffer }>
}

export interface GroupGeneration {
  readonly generationId: number
  readonly memberId: string
  readonly groupInstanceId?: string | undefined
}

export interface CommittedOffset {
  /** The next offset to read. */
  readonly offset: number
  readonly metadata: string | undefined
}

/** One consumer group's requests; the adapter finds the coordinator and finds it again after NOT_COORDINATOR or a lost connection. */
export interface GroupCoordinatorPort {
  /**
   * JoinGroup. Resolves when the coordinator completes the join (it waits for every member, up
   * to the rebalance timeout). A first join answered with MEMBER_ID_REQUIRED is sent again at
   * once with the member id the coordinator gave (KIP-394); that is the adapter's business.
   */
  joinGroup(request: JoinGroupRequest): Promise<JoinGroupResponse>
  /** SyncGroup: resolves with this member's assignment bytes (empty when it has none). */
  syncGroup(request: SyncGroupRequest): Promise<Buffer>
  heartbeat(generation: GroupGeneration): Promise<void>
  /** LeaveGroup for this member. */
  leaveGroup(member: {
    readonly memberId: string
    readonly groupInstanceId?: string | undefined
    readonly reason?: string | undefined
  }): Promise<void>
  /**
   * OffsetCommit in `generation` (offsets are the next offsets to read, metadata optional). A
   * group-level error or the first partition-level error rejects the whole call.
   */
  commitOffsets(
    generation: GroupGeneration,
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
  ): Promise<void>
  /**
   * OffsetFetch: the group's committed offsets of `partitions`, keyed by `topic-partition`;
   * partitions without a commit are absent. `requireStable` waits for pending transactional
   * commits (KIP-447), where the client supports it.
   */
  fetchCommittedOffsets(
    partitions: readonly TopicPartition[],
    options?: { readonly requireStable?: boolean }
  ): Promise<Map<string, CommittedOffset>>
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Fetching from explicit offsets (main, restore and global consumers alike; no group involved).

export interface FetchRequest {
  /** The broker to ask: the leader of every partition in it (see `leaders`). */
  readonly node: number
  readonly partitions: readonly TopicPartitionOffset[]
  readonly isolationLevel: IsolationLevel
  /** How long the broker may wait for data (Fetch max wait). */
  readonly maxWaitMs: number
  readonly maxBytes: number
  readonly maxPartitionBytes: number
}

export interface FetchPort {
  /**
   * The leader node of each partition, keyed by `topic-partition`, from the client's metadata;
   * `refresh` reloads the metadata first. Partitions without a leader (or unknown) are absent.
   */
  leaders(partitions: readonly TopicPartition[], refresh: boolean): Promise<Map<string, number>>
  /**
   * One Fetch request to one broker. Partitions come back as a batch (possibly without records)
   * or as a PartitionError (OFFSET_OUT_OF_RANGE, NOT_LEADER_OR_FOLLOWER, ...); a partition the
   * broker left out of its answer comes back as neither. A request that fails as a whole
   * (connection lost) rejects.
   */
  fetch(request: FetchRequest): Promise<Array<FetchedBatch | PartitionError>>
  /** Earliest or latest offsets (latest = last stable offset under READ_COMMITTED), keyed by `topic-partition`. */
  listOffsets(
    partitions: readonly TopicPartition[],
    spec: 'earliest' | 'latest',
    isolationLevel: IsolationLevel
  ): Promise<Map<string, number>>
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Producing.

export interface ProducedRecord extends TopicPartition {
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}

/** The offset Kafka gave the last record of each partition in a sent batch. */
export type SendResult = Map<string, number>

export interface ProducerPort {
  /**
   * Sends records (partitions already chosen) idempotently, acks=all; resolves when all are
   * acknowledged. Calls are not concurrent: the runtime waits for one before the next.
   */
  send(records: readonly ProducedRecord[]): Promise<SendResult>
  /**
   * Transactions (exactly-once); undefined for a non-transactional producer. Fencing (a newer
   * producer with the same transactional id, or a group generation that moved on) rejects with
   * PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID or
   * FENCED_INSTANCE_ID; after a failed sendOffsets or commit only abort() (or a new producer) is left.
   */
  readonly transactions?: {
    /**
     * InitProducerId (Java's initTransactions): fences every earlier producer with this
     * transactional id and aborts its open transaction. Called once before the first begin();
     * waits (retrying CONCURRENT_TRANSACTIONS) while an earlier transaction is still completing.
     */
    init(): Promise<void>
    begin(): Promise<void>
    /** TxnOffsetCommit with the group's generation (KIP-447), so a zombie member is fenced by the group. */
    sendOffsets(
      groupId: string,
      generation: GroupGeneration,
      offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
    ): Promise<void>
    commit(): Promise<void>
    abort(): Promise<void>
  }
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Administration.

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
  /** Creates topics that do not exist yet (existing ones are left as they are); resolves when every partition has a leader. */
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
  /**
   * DescribeConfigs of existing topics: each topic's configs (at least those set on the topic or
   * defaulted by the broker, such as `max.message.bytes`), keyed by topic; missing topics are
   * absent. Optional: without it the record collector leaves per-topic size limits to the broker.
   */
  topicConfigs?(topics: readonly string[]): Promise<Map<string, Readonly<Record<string, string>>>>
  close(): Promise<void>
}

/** Creates the clients of one KafkaStreams instance; each port is closed by whoever asked for it. */
export interface KafkaClientFactory {
  /** The adapter, for messages (`@kstreams/kafkajs`). */
  readonly name: string
  /**
   * Whether the adapter has what processingGuarantee `exactly_once_v2` needs: transactional
   * offset commits that carry the group's generation and member id (TxnOffsetCommit v3+, KIP-447)
   * and committed-offset fetches that wait for pending transactions (OffsetFetch require_stable).
   */
  readonly exactlyOnceV2: boolean
  groupCoordinator(options: { groupId: string; clientId: string }): GroupCoordinatorPort
  fetcher(options: { clientId: string }): FetchPort
  producer(options: { clientId: string; transactionalId?: string }): ProducerPort
  admin(options: { clientId: string }): AdminPort
}

/** What a client adapter is given to build its factory: the client settings of the StreamsConfig. */
export interface KafkaClientSettings {
  readonly bootstrapServers: readonly string[]
  readonly clientId: string
  readonly ssl: boolean | Readonly<Record<string, unknown>> | undefined
  readonly sasl: Readonly<Record<string, unknown>> | undefined
  readonly connectionTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly transactionTimeoutMs?: number
  readonly logger: import('../../logger.js').Logger
}

/**
 * How an application picks its Kafka client: `new KafkaStreams(topology, config, { client: kafkajs() })`
 * with `kafkajs` from @kstreams/kafkajs. Called once per KafkaStreams instance at start().
 */
export type KafkaClient = (settings: KafkaClientSettings) => KafkaClientFactory

export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`

export const isPartitionError = (x: FetchedBatch | PartitionError): x is PartitionError => 'error' in x
