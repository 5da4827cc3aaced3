/**
 * InMemoryKafka: a single-process Kafka for unit tests of the kstreams runtime and of
 * applications. It implements the wire-level ports of @kstreams/core (hand `kafka.client()` to
 * KafkaStreams), and gives tests what a real broker cannot: setup without a producer
 * (createTopic, produce), inspection (topic, group, requests) and injected faults (failNext,
 * delay, disconnect, evictMember, moveLeader). See README.md for what it models and what not.
 */
import { Headers, partitionFor, StreamsError } from '@kstreams/core'
import type { KafkaClient, KafkaClientFactory } from '@kstreams/core'
import type { DelaySpec, FailureSpec, Fault } from './fault-injector.js'
import { clientIdMatches } from './fault-injector.js'
import { snapshotGroup } from './group-snapshot.js'
import type { GroupSnapshot } from './group-snapshot.js'
import { InMemoryBroker } from './in-memory-broker.js'
import type { KafkaApi, RequestRecord } from './kafka-api.js'
import { InMemoryClientFactory } from './in-memory-client-factory.js'
import { SystemScheduler } from './scheduler.js'
import type { Scheduler } from './scheduler.js'
import type { TopicEntry } from './topic-registry.js'
import { TopicView } from './topic-view.js'

/** The options of an InMemoryKafka. */
export interface InMemoryKafkaOptions {
  /** Broker nodes, with ids 1..n; partition leaders are spread over them (default 1). */
  readonly nodes?: number
  /** Time and timers (default: the wall clock and unref'd Node timers); a ManualScheduler makes timeouts deterministic. */
  readonly scheduler?: Scheduler
  /** group.initial.rebalance.delay.ms (default 0, as test brokers set it; Kafka's default is 3000). */
  readonly initialRebalanceDelayMs?: number
  /** How long a new member may wait in its first JoinGroup before it is dropped (Kafka: 300000). */
  readonly newMemberJoinTimeoutMs?: number
  /** group.min.session.timeout.ms (default 1 so tests may use short sessions; Kafka's default is 6000). */
  readonly minSessionTimeoutMs?: number
  /** group.max.session.timeout.ms (default 1800000, as Kafka). */
  readonly maxSessionTimeoutMs?: number
  /** num.partitions: partitions of a topic created with numPartitions -1 (default 1). */
  readonly defaultPartitions?: number
  /** How many requests requests() keeps, the latest ones (default 10000). */
  readonly maxRequestLog?: number
}

/** A record for produce(): strings are UTF-8; without a partition, a keyed record goes where Kafka's default partitioner puts it. */
export interface ProduceInput {
  /** The key; none by default. */
  readonly key?: Buffer | string | null
  /** The value; null (a tombstone) by default. */
  readonly value?: Buffer | string | null
  /** The partition; default: Kafka's default partitioner for a keyed record, round robin otherwise. */
  readonly partition?: number
  /** Default: the scheduler's now. */
  readonly timestamp?: number
  /** The record's headers. */
  readonly headers?: Headers | Readonly<Record<string, string | Buffer | null>>
}

/** Where produce() put a record. */
export interface ProducedOffset {
  /** The partition. */
  readonly partition: number
  /** The record's offset. */
  readonly offset: number
}

const bytes = (x: Buffer | string | null | undefined): Buffer | null =>
  x === undefined || x === null ? null : typeof x === 'string' ? Buffer.from(x) : x

/**
 * A single-process Kafka for unit tests of the kstreams runtime and of applications: implements the
 * wire-level ports of `@kstreams/core` (hand `kafka.client()` to KafkaStreams), with setup without a
 * producer, inspection, and injected faults.
 */
export class InMemoryKafka {
  readonly #broker: InMemoryBroker
  readonly #roundRobin = new Map<string, number>()

  constructor(options: InMemoryKafkaOptions = {}) {
    const nodes = options.nodes ?? 1
    if (!(Number.isInteger(nodes) && nodes >= 1))
      throw new StreamsError('ILLEGAL_ARGUMENT', `nodes must be a positive integer, got ${nodes}`)
    this.#broker = new InMemoryBroker({
      nodes,
      scheduler: options.scheduler ?? new SystemScheduler(),
      initialRebalanceDelayMs: options.initialRebalanceDelayMs ?? 0,
      newMemberJoinTimeoutMs: options.newMemberJoinTimeoutMs ?? 300_000,
      minSessionTimeoutMs: options.minSessionTimeoutMs ?? 1,
      maxSessionTimeoutMs: options.maxSessionTimeoutMs ?? 1_800_000,
      defaultPartitions: options.defaultPartitions ?? 1,
      maxRequestLog: options.maxRequestLog ?? 10_000
    })
  }

  /** The broker node ids. */
  get nodes(): readonly number[] {
    return this.#broker.topics.nodes
  }

  /** The transactional ids the transaction coordinator knows, with producer id and epoch (each InitProducerId bumps it). */
  transactionalIds(): Array<{
    /** The transactional id. */
    readonly transactionalId: string
    /** Its producer id. */
    readonly producerId: number
    /** Its current producer epoch. */
    readonly epoch: number
  }> {
    return this.#broker.transactions.identities()
  }

  /** The client for KafkaStreams: `new KafkaStreams(topology, config, { client: kafka.client() })`. */
  client(): KafkaClient {
    return settings => new InMemoryClientFactory(this.#broker, settings)
  }

  /** A client factory without KafkaStreams' settings, for tests that drive the ports themselves. */
  clientFactory(options: { transactionTimeoutMs?: number } = {}): KafkaClientFactory {
    return new InMemoryClientFactory(this.#broker, options)
  }

  // --- topics ------------------------------------------------------------------------------

  /** Creates a topic; a topic that exists already is an error. */
  createTopic(name: string, partitions = 1, configs: Readonly<Record<string, string>> = {}): TopicView {
    if (!this.#broker.topics.create(name, partitions, { configs }))
      throw new StreamsError('ILLEGAL_ARGUMENT', `topic ${name} exists already`)
    return new TopicView(this.#broker.topics, name)
  }

  /** Deletes a topic; an unknown topic is an error. */
  deleteTopic(name: string): void {
    this.#topicOrThrow(name)
    this.#broker.topics.delete(name)
  }

  /** Grows a topic to `total` partitions (CreatePartitions). */
  addPartitions(name: string, total: number): void {
    this.#topicOrThrow(name)
    this.#broker.topics.addPartitions(name, total)
  }

  /** A view of a topic's partitions and records; an unknown topic is an error. */
  topic(name: string): TopicView {
    this.#topicOrThrow(name)
    return new TopicView(this.#broker.topics, name)
  }

  /** The names of every topic. */
  topics(): string[] {
    return this.#broker.topics.names()
  }

  /** Appends records outside any transaction (as an idempotent producer would); returns where each went. */
  produce(topic: string, records: ProduceInput | readonly ProduceInput[]): ProducedOffset[] {
    const entry = this.#topicOrThrow(topic)
    return (Array.isArray(records) ? records : ([records] as readonly ProduceInput[])).map(r => {
      const key = bytes(r.key)
      const partition =
        r.partition ?? (key === null ? this.#nextRoundRobin(topic, entry.logs.length) : partitionFor(key, entry.logs.length))
      if (!(Number.isInteger(partition) && partition >= 0 && partition < entry.logs.length)) {
        throw new StreamsError('ILLEGAL_ARGUMENT', `topic ${topic} has no partition ${partition} (it has ${entry.logs.length})`)
      }
      const headers = r.headers instanceof Headers ? r.headers : new Headers(r.headers ?? [])
      const offset = this.#broker.topics.append({ topic, partition }, [
        { key, value: bytes(r.value), headers, timestamp: r.timestamp ?? this.#broker.timers.now() }
      ])
      return { partition, offset }
    })
  }

  /**
   * Truncates a partition's log to `offset`, as an unclean leader election does (the new leader
   * never had the records from `offset` on): a reader past the new end gets OFFSET_OUT_OF_RANGE.
   */
  truncateLog(topic: string, partition: number, offset: number): void {
    this.#broker.topics.requireLog({ topic, partition }).truncateTo(offset)
    this.#broker.signal.notify()
  }

  /** Moves a partition's leadership to another node: fetches at the old leader get NOT_LEADER_OR_FOLLOWER. */
  moveLeader(topic: string, partition: number, node: number): void {
    this.#broker.topics.moveLeader({ topic, partition }, node)
  }

  // --- groups ------------------------------------------------------------------------------

  /** A snapshot of a consumer group, or undefined when the coordinator does not know it. */
  group(groupId: string): GroupSnapshot | undefined {
    const group = this.#broker.coordinator.group(groupId)
    return group === undefined ? undefined : snapshotGroup(group, this.#broker.offsets.committed(groupId))
  }

  /** The ids of every consumer group the coordinator knows. */
  groups(): string[] {
    return this.#broker.coordinator.groupIds()
  }

  /** Removes a member as if its session had expired: its group rebalances without it. */
  evictMember(groupId: string, memberId: string): void {
    this.#broker.coordinator.evictMember(groupId, memberId)
  }

  // --- faults ------------------------------------------------------------------------------

  /**
   * The next matching request(s) fail with Kafka's `error` (before the broker handles them, or,
   * with `afterProcessing`, after: the request takes effect but the client sees the error).
   */
  failNext(spec: FailureSpec): Fault {
    return this.#broker.faults.fail(spec)
  }

  /** The next matching request(s) reach the broker `ms` later. */
  delay(spec: DelaySpec): Fault {
    return this.#broker.faults.delay(spec)
  }

  /** Withdraws every failNext() and delay() not used up yet. */
  clearFaults(): void {
    this.#broker.faults.clear()
  }

  /**
   * Cuts the clients whose client id matches (a string: equal; a RegExp: found in it) off the
   * broker: their requests in flight and to come fail with NETWORK_EXCEPTION until reconnect().
   * Group members of those clients stop heartbeating and expire after their session timeout.
   */
  disconnect(clientId: string | RegExp): void {
    this.#broker.disconnect(clientId)
  }

  /** Lifts disconnect() of an equal pattern, or every disconnect when called without one. */
  reconnect(clientId?: string | RegExp): void {
    this.#broker.reconnect(clientId)
  }

  // --- observation -------------------------------------------------------------------------

  /** The requests the broker answered (or failed), oldest first. */
  requests(filter: { readonly api?: KafkaApi; readonly clientId?: string | RegExp; readonly groupId?: string } = {}): RequestRecord[] {
    return this.#broker
      .requests()
      .filter(
        r =>
          (filter.api === undefined || r.api === filter.api) &&
          (filter.clientId === undefined || clientIdMatches(filter.clientId, r.clientId)) &&
          (filter.groupId === undefined || r.groupId === filter.groupId)
      )
  }

  /** Forgets the requests logged so far. */
  clearRequests(): void {
    this.#broker.clearRequests()
  }

  /** Shuts the broker down: requests in flight and to come fail with NETWORK_EXCEPTION, every timer stops. Idempotent. */
  close(): void {
    this.#broker.close()
  }

  #topicOrThrow(name: string): TopicEntry {
    const topic = this.#broker.topics.get(name)
    if (topic === undefined) throw new StreamsError('UNKNOWN_TOPIC', `topic ${name} does not exist`)
    return topic
  }

  #nextRoundRobin(topic: string, partitions: number): number {
    const next = this.#roundRobin.get(topic) ?? 0
    this.#roundRobin.set(topic, next + 1)
    return next % partitions
  }
}
