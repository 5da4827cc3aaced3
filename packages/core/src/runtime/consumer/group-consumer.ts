/**
 * The main consumer of a stream thread (Java's KafkaConsumer as Kafka Streams uses it): a group
 * member (ConsumerCoordinator) plus a Fetcher for what the group assigned. poll() is the only
 * place where rebalances happen, so the rebalance listener never runs while the thread processes.
 * Newly assigned partitions start at the group's committed offsets, or where `resetPolicy` says
 * when there are none (Kafka Streams: the source's reset policy, else autoOffsetReset, earliest).
 * pause/resume/seek accept only assigned partitions and belong to the current assignment.
 * @internal
 */
import { IllegalStateError, StreamsError } from '../../errors.js'
import type { Clock } from '../../clock.js'
import type { Logger } from '../../logger.js'
import type { ResolvedStreamsConfig } from '../../config/streams-config.js'
import { resolveClientConfigs, type ConsumerClientConfig } from '../../config/client-configs.js'
import type {
  AdminPort,
  CommittedOffset,
  FetchedBatch,
  GroupGeneration,
  KafkaClientFactory,
  TopicPartition,
  TopicPartitionOffset
} from '../kafka/ports.js'
import type { GroupAssignor, MainConsumer, RebalanceListener } from './consumer-api.js'
import { ConsumerCoordinator } from './consumer-coordinator.js'
import { Fetcher, type ResetPolicy } from './fetcher.js'

export interface GroupConsumerOptions {
  readonly clients: KafkaClientFactory
  readonly groupId: string
  readonly clientId: string
  readonly topics: readonly string[] | RegExp
  readonly assignor: GroupAssignor
  readonly listener: RebalanceListener
  /** Partition counts and topic names for the leader and pattern subscriptions; offsets by timestamp for by-duration resets. */
  readonly admin: Pick<AdminPort, 'partitionCounts' | 'listTopics' | 'offsetsForTimes'>
  readonly config: ResolvedStreamsConfig
  /** Where a partition without a committed offset (or with one out of range) starts. */
  readonly resetPolicy: (tp: TopicPartition) => ResetPolicy
  readonly clock: Clock
  readonly logger: Logger
}

export class GroupConsumer implements MainConsumer {
  readonly #coordinator: ConsumerCoordinator
  readonly #fetcher: Fetcher
  readonly #clientId: string
  readonly #o: GroupConsumerOptions
  /** The main consumer's client configs (`mainConsumer` over `consumer` over the StreamsConfig's). */
  readonly #client: ConsumerClientConfig
  /** The topics of the last join (a pattern resolved then). */
  #subscribed: readonly string[] = []
  /** When a pattern subscription next looks for new matching topics. */
  #nextPatternCheck = 0
  #closed: Promise<void> | undefined

  constructor(options: GroupConsumerOptions) {
    const { config, topics } = options
    this.#o = options
    this.#clientId = options.clientId
    const client = resolveClientConfigs(config, config, options.clients.clientConfigs ?? {}).mainConsumer
    this.#client = client
    this.#fetcher = new Fetcher({
      port: options.clients.fetcher({ clientId: options.clientId, configs: client.adapterConfigs }),
      clientId: options.clientId,
      isolationLevel: client.isolationLevel,
      maxWaitMs: client.fetchMaxWaitMs,
      maxBytes: client.fetchMaxBytes,
      maxPartitionBytes: client.maxPartitionFetchBytes,
      minBytes: client.fetchMinBytes,
      maxPollRecords: client.maxPollRecords,
      retryBackoffMs: client.retryBackoffMs,
      resetPolicy: options.resetPolicy,
      ...(options.admin.offsetsForTimes === undefined
        ? {}
        : { offsetsForTimes: async (partitions, isolationLevel) => await options.admin.offsetsForTimes!(partitions, isolationLevel) }),
      now: () => options.clock.milliseconds(),
      initialOffsets: async partitions => {
        const committed = await this.#coordinator.fetchCommittedOffsets(partitions, config.processingGuarantee === 'exactly_once_v2')
        return new Map([...committed].map(([key, c]) => [key, c.offset]))
      },
      logger: options.logger
    })
    this.#coordinator = new ConsumerCoordinator({
      port: options.clients.groupCoordinator({ groupId: options.groupId, clientId: options.clientId, configs: client.adapterConfigs }),
      groupId: options.groupId,
      clientId: options.clientId,
      assignor: options.assignor,
      listener: options.listener,
      subscription: async () => {
        this.#subscribed = topics instanceof RegExp ? await this.#matchingTopics(topics) : topics
        return this.#subscribed
      },
      partitionCounts: async names => await options.admin.partitionCounts(names),
      onAssignment: assignment => {
        this.#fetcher.assign(assignment.partitions)
      },
      onAssignmentCleared: () => {
        this.#fetcher.assign([])
      },
      onRejoinNeeded: () => {
        this.#fetcher.wakeup()
      },
      sessionTimeoutMs: client.sessionTimeoutMs,
      maxPollIntervalMs: client.maxPollIntervalMs,
      heartbeatIntervalMs: client.heartbeatIntervalMs,
      retryBackoffMs: client.retryBackoffMs,
      defaultApiTimeoutMs: client.defaultApiTimeoutMs,
      clock: options.clock,
      logger: options.logger
    })
  }

  /**
   * Rejoins the group when needed (the listener runs inside), then returns the fetched batches,
   * waiting up to `timeoutMs`; returns early when a rebalance becomes necessary.
   */
  async poll(timeoutMs: number): Promise<FetchedBatch[]> {
    this.#requireOpen('poll')
    await this.#coordinator.ensureActiveGroup()
    if (this.#coordinator.rejoinNeeded) return []
    this.#maybeCheckPattern()
    return await this.#fetcher.poll(timeoutMs)
  }

  async #matchingTopics(pattern: RegExp): Promise<string[]> {
    return (await this.#o.admin.listTopics()).filter(t => pattern.test(t)).sort()
  }

  /** A pattern subscription rejoins when the topics it matches change (Java checks at each metadata refresh). */
  #maybeCheckPattern(): void {
    const { topics, clock } = this.#o
    if (!(topics instanceof RegExp) || clock.milliseconds() < this.#nextPatternCheck) return
    this.#nextPatternCheck = clock.milliseconds() + this.#client.metadataMaxAgeMs
    void this.#matchingTopics(topics).then(
      matching => {
        if (matching.join('\0') !== this.#subscribed.join('\0'))
          this.enforceRebalance('the topics matching the subscription pattern changed')
      },
      (error: unknown) => {
        this.#o.logger.debug(`${this.#clientId}: listing topics for the subscription pattern failed: ${String(error)}`)
      }
    )
  }

  /** Records between the position and the end of an assigned partition, as last fetched; undefined before the first fetch response. */
  currentLag(tp: TopicPartition): number | undefined {
    return this.#fetcher.currentLag(tp)
  }

  assignment(): TopicPartition[] {
    return this.#fetcher.assignment()
  }

  pause(partitions: readonly TopicPartition[]): void {
    this.#assignedOnly(partitions, 'pause')
    this.#fetcher.pause(partitions)
  }

  resume(partitions: readonly TopicPartition[]): void {
    this.#assignedOnly(partitions, 'resume')
    this.#fetcher.resume(partitions)
  }

  seek(partition: TopicPartitionOffset): void {
    this.#assignedOnly([partition], 'seek')
    if (!Number.isSafeInteger(partition.offset) || partition.offset < 0) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `seek(): invalid offset ${partition.offset} for ${partition.topic}-${partition.partition}`)
    }
    this.#fetcher.seek(partition, partition.offset)
  }

  resetToCommitted(partitions: readonly TopicPartition[]): void {
    this.#assignedOnly(partitions, 'resetToCommitted')
    this.#fetcher.resetPositions(partitions)
  }

  /** The group and this member's generation: what a transactional offset commit carries (KIP-447). */
  groupMetadata(): { groupId: string; generation: GroupGeneration } {
    return { groupId: this.#o.groupId, generation: this.#coordinator.generation }
  }

  async commit(offsets: ReadonlyArray<TopicPartitionOffset & { metadata?: string }>): Promise<void> {
    this.#requireOpen('commit')
    if (offsets.length === 0) return
    await this.#coordinator.commitOffsets(offsets)
  }

  /** Whether this member still holds its generation, asking the coordinator after a long gap without heartbeats. */
  async confirmMembership(): Promise<boolean> {
    return await this.#coordinator.confirmMembership()
  }

  async committed(partitions: readonly TopicPartition[]): Promise<Map<string, CommittedOffset>> {
    this.#requireOpen('committed')
    // Under exactly-once, offsets a transaction is still committing are waited for (KIP-447).
    return await this.#coordinator.fetchCommittedOffsets(partitions, this.#o.config.processingGuarantee === 'exactly_once_v2')
  }

  /** Asks the group to rebalance at the next poll (Java's enforceRebalance()). */
  enforceRebalance(reason: string): void {
    this.#coordinator.requestRejoin(reason)
  }

  /** Ends a poll in progress. */
  wakeup(): void {
    this.#fetcher.wakeup()
  }

  /** The thread is shutting down: a poll in progress returns, a rebalance in progress is given up. */
  interrupt(): void {
    this.#coordinator.interrupt()
    this.#fetcher.wakeup()
  }

  /** Stops fetching and heartbeating; leaves the group when `leaveGroup`. Idempotent. */
  async close(options: { leaveGroup: boolean }): Promise<void> {
    this.#closed ??= (async () => {
      const results = await Promise.allSettled([this.#coordinator.close(options.leaveGroup), this.#fetcher.close()])
      const failed = results.find(r => r.status === 'rejected')
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
    })()
    await this.#closed
  }

  #assignedOnly(partitions: readonly TopicPartition[], what: string): void {
    this.#requireOpen(what)
    for (const tp of partitions) {
      if (!this.#fetcher.isAssigned(tp))
        throw new IllegalStateError(`${what}(): ${tp.topic}-${tp.partition} is not assigned to ${this.#clientId}`)
    }
  }

  #requireOpen(what: string): void {
    if (this.#closed !== undefined) throw new IllegalStateError(`${what}() on closed consumer ${this.#clientId}`)
  }
}
