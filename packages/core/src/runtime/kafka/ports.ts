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
import type { AdapterClientConfigs, ClientConfigs } from '../../config/client-configs.js'
import type { SaslConfig, SslConfig } from '../../config/security-config.js'

/** A partition of a topic. */
export interface TopicPartition {
  /** The topic name. */
  readonly topic: string
  /** The partition number, from 0. */
  readonly partition: number
}

/** An offset in a partition. */
export interface TopicPartitionOffset extends TopicPartition {
  /** The offset. */
  readonly offset: number
}

/** The undecoded rest of a FetchedBatch, decoded in order, some records at a time. */
export interface RecordDecoder {
  /** Decodes up to `max` more records, in offset order; fewer (none at the end) only when no more are left. */
  next(max: number): FetchedRecord[]
}

/** Every record of a FetchedBatch: its `records` and what its `undecoded` rest still holds (which it uses up). */
export function decodedRecords(batch: FetchedBatch): FetchedRecord[] {
  const rest = batch.undecoded?.next(Number.POSITIVE_INFINITY) ?? []
  return rest.length === 0 ? [...batch.records] : [...batch.records, ...rest]
}

/** A timestamp to look a partition's offset up by (ListOffsets by timestamp). */
export interface TopicPartitionTimestamp extends TopicPartition {
  /** The timestamp (ms, not negative). */
  readonly timestamp: number
}

/** A fetched record, still in bytes. */
export interface FetchedRecord extends TopicPartitionOffset {
  /** The record's timestamp (ms). */
  readonly timestamp: number
  /** The key bytes; null for a record without a key. */
  readonly key: Buffer | null
  /** The value bytes; null for a tombstone. */
  readonly value: Buffer | null
  /** The record's headers. */
  readonly headers: Headers
}

/** What a Fetch returned for one partition. */
export interface FetchedBatch extends TopicPartition {
  /**
   * The records at or after the fetch offset: no control records, no aborted ones under
   * READ_COMMITTED. With `undecoded`, the first of them (possibly none), the rest follow there.
   */
  readonly records: readonly FetchedRecord[]
  /**
   * The records after `records` that the adapter left to decode: the consumer decodes them as
   * its polls hand them out (as Java's CompletedFetch does), so a record lives while it is
   * processed, not as long as the whole fetched batch (a few MB of records that outlive V8's
   * young generation cost far more garbage collection). `decodedRecords` reads them all.
   */
  readonly undecoded?: RecordDecoder
  /** The partition's end as the isolation level sees it (last stable offset under READ_COMMITTED); lag = highWatermark - nextOffset. */
  readonly highWatermark: number
  /** Where the next fetch of this partition starts: past every record batch the response covered (markers, aborted data, compaction gaps). */
  readonly nextOffset: number
  /** The partition's log-start offset, -1 when the broker did not say. */
  readonly logStartOffset: number
}

/** Which records a fetch sees: all (READ_UNCOMMITTED), or only committed transactions' (READ_COMMITTED). */
export type IsolationLevel = 'READ_UNCOMMITTED' | 'READ_COMMITTED'

/** A partition-level error in a response that otherwise succeeded (Fetch, OffsetCommit, ListOffsets). */
export interface PartitionError extends TopicPartition {
  /** The partition's error, with Kafka's error name. */
  readonly error: KafkaRequestError
}

// ---------------------------------------------------------------------------------------------
// Consumer groups (Kafka's classic group protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit, OffsetFetch), always sent to the group's coordinator.

/** A JoinGroup request: a member joining or rejoining its group. */
export interface JoinGroupRequest {
  /** '' for a member joining for the first time. */
  readonly memberId: string
  /** Static membership (group.instance.id); undefined for a dynamic member. */
  readonly groupInstanceId?: string | undefined
  /** How long the coordinator waits for a heartbeat before it removes the member (`session.timeout.ms`). */
  readonly sessionTimeoutMs: number
  /** How long the coordinator waits for every member to rejoin in a rebalance (`max.poll.interval.ms`). */
  readonly rebalanceTimeoutMs: number
  /** 'consumer' for a consumer group. */
  readonly protocolType: string
  /** The protocols (assignors) this member supports, by preference, each with its subscription bytes. */
  readonly protocols: ReadonlyArray<{
    /** The protocol (assignor) name. */
    readonly name: string
    /** The member's subscription bytes for it. */
    readonly metadata: Buffer
  }>
  /** Why this member (re)joins, for the broker log (JoinGroup v8+). */
  readonly reason?: string | undefined
}

/** A member of the group, as the group leader sees it in its JoinGroup response. */
export interface JoinedMember {
  /** The member id the coordinator gave. */
  readonly memberId: string
  /** Its static membership id (group.instance.id), if it has one. */
  readonly groupInstanceId: string | undefined
  /** The member's subscription bytes for the chosen protocol. */
  readonly metadata: Buffer
}

/** The coordinator's answer to a JoinGroup, once the join completed. */
export interface JoinGroupResponse {
  /** The group's new generation. */
  readonly generationId: number
  /** The protocol (assignor) the coordinator chose. */
  readonly protocolName: string
  /** The member id of the group leader, which computes the assignment. */
  readonly leaderId: string
  /** This member's id. */
  readonly memberId: string
  /** Every member with its subscription: filled for the leader only, empty for the others. */
  readonly members: readonly JoinedMember[]
}

/** A SyncGroup request: the leader hands out the assignment, the other members ask for theirs. */
export interface SyncGroupRequest {
  /** The generation the JoinGroup response gave. */
  readonly generationId: number
  /** This member's id. */
  readonly memberId: string
  /** This member's static membership id, if it has one. */
  readonly groupInstanceId?: string | undefined
  /** 'consumer' for a consumer group. */
  readonly protocolType: string
  /** The protocol (assignor) the coordinator chose. */
  readonly protocolName: string
  /** The leader's assignment bytes per member; empty for the others. */
  readonly assignments: ReadonlyArray<{
    /** The member the assignment is for. */
    readonly memberId: string
    /** Its assignment bytes. */
    readonly assignment: Buffer
  }>
}

/** A member in a generation of its group: what heartbeats and offset commits carry. */
export interface GroupGeneration {
  /** The generation id. */
  readonly generationId: number
  /** The member id. */
  readonly memberId: string
  /** The static membership id, if the member has one. */
  readonly groupInstanceId?: string | undefined
}

/** An offset a consumer group committed for a partition. */
export interface CommittedOffset {
  /** The next offset to read. */
  readonly offset: number
  /** The metadata string committed with it, if any. */
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
  /** Heartbeat: keeps the member in the group; rejects with REBALANCE_IN_PROGRESS when the group rebalances. */
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
  /** Closes the port; no request is sent after. */
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Fetching from explicit offsets (main, restore and global consumers alike; no group involved).

/** A Fetch request to one broker: the partitions it leads, from explicit offsets. */
export interface FetchRequest {
  /** The broker to ask: the leader of every partition in it (see `leaders`). */
  readonly node: number
  /** The partitions to fetch, each from its offset. */
  readonly partitions: readonly TopicPartitionOffset[]
  /** Whether records of open or aborted transactions are left out (READ_COMMITTED). */
  readonly isolationLevel: IsolationLevel
  /** How long the broker may wait for data (Fetch max wait). */
  readonly maxWaitMs: number
  /** Most bytes the response may carry (`fetch.max.bytes`). */
  readonly maxBytes: number
  /** Most bytes per partition in the response (`max.partition.fetch.bytes`). */
  readonly maxPartitionBytes: number
  /** Least bytes the broker gathers before it answers, unless maxWaitMs passes (`fetch.min.bytes`); default 1. */
  readonly minBytes?: number
}

/** Fetching from explicit offsets, for the main, restore and global consumers; no group involved. */
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
  /** Closes the port; no request is sent after. */
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Producing.

/** A record to send, serialized and with its partition chosen. */
export interface ProducedRecord extends TopicPartition {
  /** The key bytes; null for none. */
  readonly key: Buffer | null
  /** The value bytes; null for a tombstone. */
  readonly value: Buffer | null
  /** The record's headers. */
  readonly headers: Headers
  /** The record's timestamp (ms). */
  readonly timestamp: number
}

/** The offset Kafka gave the last record of each partition in a sent batch. */
export type SendResult = Map<string, number>

/** The producer of a stream thread: idempotent sends, and transactions under exactly-once. */
export interface ProducerPort {
  /**
   * Sends records (partitions already chosen) idempotently, acks=all; resolves when all are
   * acknowledged. Calls are not concurrent: the runtime waits for one before the next. Without
   * a transactional id, a failed send leaves the producer usable: one whose producer id, epoch or
   * sequence the broker refused starts over with a new producer id (as Java's producer bumps its
   * epoch, KIP-360), and may report a lost sequence retriable (the runtime sends again).
   */
  send(records: readonly ProducedRecord[]): Promise<SendResult>
  /**
   * Transactions (exactly-once); undefined for a non-transactional producer. Fencing (a newer
   * producer with the same transactional id, or a group generation that moved on) rejects with
   * PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID or
   * FENCED_INSTANCE_ID. A sendOffsets or commit that rejects with a retriable error (a
   * coordinator that moved, is loading or did not answer, CONCURRENT_TRANSACTIONS) leaves the
   * transaction as it was: the runtime calls it again, for up to `max.block.ms`, as Java's
   * producer retries it (EndTxn with the same producer id and epoch gets the same outcome, also
   * when the first one took effect). After a failed send, or another failed sendOffsets or
   * commit, only abort() (or a new producer) is left.
   */
  readonly transactions?: {
    /**
     * InitProducerId (Java's initTransactions): fences every earlier producer with this
     * transactional id and aborts its open transaction. Called once before the first begin();
     * waits (retrying CONCURRENT_TRANSACTIONS) while an earlier transaction is still completing.
     */
    init(): Promise<void>
    /** Starts a transaction. */
    begin(): Promise<void>
    /** TxnOffsetCommit with the group's generation (KIP-447), so a zombie member is fenced by the group. */
    sendOffsets(
      groupId: string,
      generation: GroupGeneration,
      offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
    ): Promise<void>
    /** EndTxn(commit): commits the records and offsets sent in the transaction. */
    commit(): Promise<void>
    /** EndTxn(abort): aborts the transaction; read_committed consumers never see its records. */
    abort(): Promise<void>
  }
  /** Closes the port; no request is sent after. */
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Administration.

/** A topic to create. */
export interface NewTopic {
  /** The topic name. */
  readonly topic: string
  /** How many partitions it has. */
  readonly numPartitions: number
  /** -1 = broker default. */
  readonly replicationFactor: number
  /** Topic configs (e.g. `cleanup.policy`: `compact` for a changelog). */
  readonly configs: Readonly<Record<string, string>>
}

/** A member of a consumer group, as DescribeGroups reports it. */
export interface GroupMemberDescription {
  /** The member id the coordinator gave. */
  readonly memberId: string
  /** Its static membership id (group.instance.id), if it has one. */
  readonly groupInstanceId: string | undefined
  /** The member's client id. */
  readonly clientId: string
  /** The member's host, as the coordinator saw it (`/127.0.0.1`). */
  readonly clientHost: string
}

/** A consumer group, as DescribeGroups (the classic protocol) reports it. */
export interface GroupDescription {
  /** The group id. */
  readonly groupId: string
  /**
   * Kafka's group state: `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable`, or
   * `Dead` (also for a group that does not exist).
   */
  readonly state: string
  /** 'consumer' for a consumer group; '' when the group has none (empty or dead). */
  readonly protocolType: string
  /** The chosen protocol (assignor); '' when there is none. */
  readonly protocol: string
  /** The group's members; empty for an empty or dead group. */
  readonly members: readonly GroupMemberDescription[]
}

/** The admin requests of the runtime: internal topics, offsets, repartition purges. */
export interface AdminPort {
  /** Partition counts of existing topics; missing topics are absent. */
  partitionCounts(topics: readonly string[]): Promise<Map<string, number>>
  /** Creates topics that do not exist yet (existing ones are left as they are); resolves when every partition has a leader. */
  createTopics(topics: readonly NewTopic[]): Promise<void>
  /** End offsets (high watermarks) of partitions, keyed by `topic-partition`. */
  endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  /** Beginning offsets (log-start offsets) of partitions, keyed by `topic-partition`. */
  beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  /** The offsets a consumer group committed, keyed by `topic-partition`; partitions without a commit are absent. */
  committedOffsets(groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>>
  /** Deletes records before the given offsets (repartition topic purge). */
  deleteRecords(offsets: readonly TopicPartitionOffset[]): Promise<void>
  /** All topic names (for pattern subscriptions). */
  listTopics(): Promise<string[]>
  /**
   * ListOffsets by timestamp (Kafka's `offsetsForTimes`): for each partition the offset of the
   * first record whose timestamp is at or after the given one, keyed by `topic-partition`;
   * partitions with no such record (below the end `isolationLevel` sees) are absent. The runtime
   * needs it for `AutoOffsetReset.byDuration`; an adapter without it cannot run that policy.
   */
  offsetsForTimes?(partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel): Promise<Map<string, number>>
  /**
   * DescribeConfigs of existing topics: each topic's configs (at least those set on the topic or
   * defaulted by the broker, such as `max.message.bytes`), keyed by topic; missing topics are
   * absent. Optional: without it the record collector leaves per-topic size limits to the broker.
   */
  topicConfigs?(topics: readonly string[]): Promise<Map<string, Readonly<Record<string, string>>>>
  /**
   * DeleteTopics. A topic that does not exist rejects with UNKNOWN_TOPIC_OR_PARTITION naming it.
   * Optional (the runtime deletes no topic): tools such as the application reset tool need it.
   */
  deleteTopics?(topics: readonly string[]): Promise<void>
  /** DescribeGroups of one consumer group; a group that does not exist is `Dead` with no members. Optional, for tools. */
  describeGroup?(groupId: string): Promise<GroupDescription>
  /**
   * Commits offsets for a group from outside it (OffsetCommit with generation -1 and no member
   * id, as Kafka's `Admin.alterConsumerGroupOffsets`); the broker refuses it while the group has
   * members (UNKNOWN_MEMBER_ID). Offsets are the next offsets to read. Optional, for tools.
   */
  alterConsumerGroupOffsets?(groupId: string, offsets: readonly TopicPartitionOffset[]): Promise<void>
  /**
   * LeaveGroup on behalf of members of a group (Kafka's `Admin.removeMembersFromConsumerGroup`):
   * the coordinator removes them at once instead of waiting for their session timeout. A member
   * the group does not know rejects with UNKNOWN_MEMBER_ID. Optional, for tools.
   */
  removeMembersFromConsumerGroup?(
    groupId: string,
    members: ReadonlyArray<{ readonly memberId: string; readonly groupInstanceId?: string | undefined }>
  ): Promise<void>
  /** Closes the port; no request is sent after. */
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
  /**
   * The Kafka client configs (by Kafka name, per client kind) the adapter honours itself, each
   * with its value check; a pass-through config (StreamsConfig `consumer`, `producer`, `admin`,
   * ...) that neither the runtime nor this list honours is a ConfigError. None when absent.
   */
  readonly clientConfigs?: AdapterClientConfigs
  /** The requests of one consumer group, sent to its coordinator; `configs`: the consumer's configs of `clientConfigs.consumer`. */
  groupCoordinator(options: { groupId: string; clientId: string; configs?: ClientConfigs }): GroupCoordinatorPort
  /** A fetcher (a consumer without a group); `configs`: its configs of `clientConfigs.consumer`. */
  fetcher(options: { clientId: string; configs?: ClientConfigs }): FetchPort
  /** A producer; transactional (with `transactions`) when given a transactional id; `configs`: of `clientConfigs.producer`. */
  producer(options: { clientId: string; transactionalId?: string; configs?: ClientConfigs }): ProducerPort
  /** An admin client; `configs`: of `clientConfigs.admin`. */
  admin(options: { clientId: string; configs?: ClientConfigs }): AdminPort
}

/** What a client adapter is given to build its factory: the client settings of the StreamsConfig. */
export interface KafkaClientSettings {
  /** The brokers to connect to first, as `host:port`. */
  readonly bootstrapServers: readonly string[]
  /** The client id prefix (the config's clientId, or else the application id). */
  readonly clientId: string
  /** TLS: true (the system's CAs), or TLS options; undefined or false for plaintext. Check it with checkSslConfig. */
  readonly ssl: boolean | SslConfig | undefined
  /** SASL settings, one shape per mechanism; undefined for none. Check them with checkSaslConfig. Never logged. */
  readonly sasl: SaslConfig | undefined
  /** How long to wait for a connection to a broker. */
  readonly connectionTimeoutMs: number
  /** How long to wait for a broker's answer to a request. */
  readonly requestTimeoutMs: number
  /** The transactional producers' `transaction.timeout.ms`. */
  readonly transactionTimeoutMs?: number
  /**
   * How long the transactional producers' requests are tried again after retriable errors
   * (`max.block.ms`, default 60000): the runtime sends a failed commit step again for as long, and
   * a client that retries inside a send or a transaction step (a coordinator or a leader that
   * moved) should keep at it about as long, as Java's producer does.
   */
  readonly maxBlockMs?: number
  /** Where the adapter logs (the KafkaStreams instance's logger). */
  readonly logger: import('../../logger.js').Logger
}

/**
 * How an application picks its Kafka client: `new KafkaStreams(topology, config, { client: kafkajs() })`
 * with `kafkajs` from @kstreams/kafkajs. Called once per KafkaStreams instance at start().
 */
export type KafkaClient = (settings: KafkaClientSettings) => KafkaClientFactory

/** The `topic-partition` key of a partition, as the ports key their maps. */
export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`

/** Whether a fetch result is a PartitionError rather than a FetchedBatch. */
export const isPartitionError = (x: FetchedBatch | PartitionError): x is PartitionError => 'error' in x
