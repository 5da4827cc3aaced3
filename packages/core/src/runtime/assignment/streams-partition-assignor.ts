/**
 * The group assignor of a Kafka Streams application (Kafka Streams' StreamsPartitionAssignor),
 * plugged into the group protocol through the GroupAssignor port. It assigns tasks, not raw
 * partitions. Every member sends its process id, endpoint, task offset sums and previous tasks
 * (SubscriptionInfo); the leader resolves source topics, sizes and creates the internal topics,
 * checks co-partitioning, computes lags from changelog end offsets, runs the high-availability
 * task assignor over processes, splits each process's tasks over its threads, and sends every
 * member its tasks plus the host maps for interactive queries (AssignmentInfo). Failures that
 * the whole group must see become an error code in every member's assignment.
 */
import type { Clock } from '../../clock.js'
import { systemClock } from '../../clock.js'
import { ConfigError, StreamsError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import { silentLogger } from '../../logger.js'
import { tpKey, type AdminPort, type NewTopic, type TopicPartition } from '../kafka/ports.js'
import type { GroupAssignor, GroupMemberSubscription, MemberAssignment } from '../consumer/consumer-api.js'
import {
  ASSIGNMENT_INFO_VERSION,
  encodeAssignmentInfo,
  errorAssignmentInfo,
  MIN_ASSIGNMENT_VERSION,
  sortPartitions
} from './assignment-info.js'
import { AssignorError } from './assignor-error.js'
import type { AssignorErrorCode } from './assignor-error.js'
import { assignTasksToConsumers } from './consumer-task-assignor.js'
import { enforceCopartitioning } from './copartition-enforcer.js'
import { CHANGELOG_TOPIC_DEFAULT_CONFIGS, InternalTopicManager, REPARTITION_TOPIC_DEFAULT_CONFIGS } from './internal-topic-manager.js'
import { groupPartitions } from './partition-grouper.js'
import type { TaskGrouping } from './partition-grouper.js'
import { computeRepartitionTopicCounts } from './repartition-topics.js'
import { resolveUserSourceTopics } from './source-topic-resolver.js'
import { decodeSubscriptionInfo, encodeSubscriptionInfo, isFutureSubscription, LATEST_OFFSET } from './subscription-info.js'
import type { SubscriptionInfo } from './subscription-info.js'
import { assignTasks } from './task-assignor.js'
import type { TaskAssignment } from './task-assignor.js'
import { endOffsetSums, mergeOffsetSums, taskLags } from './task-lags.js'
import type { AssignorTopology } from './topology-metadata.js'

export interface StreamsPartitionAssignorConfig {
  readonly applicationId: string
  /** `num.standby.replicas`, default 0. */
  readonly numStandbyReplicas?: number
  /** `acceptable.recovery.lag`, default 10000: the lag up to which a client counts as caught up. */
  readonly acceptableRecoveryLag?: number
  /** `max.warmup.replicas`, default 2: warm-up replicas per rebalance. */
  readonly maxWarmupReplicas?: number
  /** `probing.rebalance.interval.ms`, default 600000. */
  readonly probingRebalanceIntervalMs?: number
  /** `replication.factor` of internal topics, default -1 (broker default). */
  readonly replicationFactor?: number
  /** Topic configs for every internal topic (StreamsConfig `topic.`-prefixed keys, prefix removed). */
  readonly topicConfigs?: Readonly<Record<string, string>>
}

/** What this thread reports about its process when it joins. */
export interface LocalAssignorState {
  /** The process id (UUID), the same for all threads of a KafkaStreams instance. */
  readonly processId: string
  /** `application.server` ("host:port"), or "" / undefined. */
  readonly userEndpoint?: string
  /** Offset sum per task id of every task with state on this process (LATEST_OFFSET for running actives). */
  readonly taskOffsetSums: ReadonlyMap<string, number>
  /** Active task ids this thread owns (reported with LATEST_OFFSET). */
  readonly activeTasks: Iterable<string>
  /** An AssignorError code, e.g. SHUTDOWN_REQUESTED; default NONE. */
  readonly errorCode?: number
}

export interface StreamsPartitionAssignorOptions {
  readonly topology: AssignorTopology
  readonly admin: AdminPort
  readonly config: StreamsPartitionAssignorConfig
  /** Called on every (re)join, synchronously. */
  readonly localState: () => LocalAssignorState
  readonly clock?: Clock
  readonly logger?: Logger
}

type Resolved = Required<Omit<StreamsPartitionAssignorConfig, 'topicConfigs'>> & { topicConfigs: Readonly<Record<string, string>> }

/** Stops assignment with an error code every member receives. */
class AssignmentFailure extends Error {
  constructor(
    readonly errorCode: AssignorErrorCode,
    message: string
  ) {
    super(message)
  }
}

export class StreamsPartitionAssignor implements GroupAssignor {
  readonly name = 'stream'
  readonly #topology: AssignorTopology
  readonly #config: Resolved
  readonly #localState: () => LocalAssignorState
  readonly #clock: Clock
  readonly #topics: InternalTopicManager
  readonly #admin: AdminPort
  readonly #logger: Logger
  #uniqueField = 0

  /**
   * The end of each changelog partition for lag computation: its end offset, but for a source
   * topic serving as a changelog (reuse.ktable.source.topics) the group's committed offset (0
   * when none), as Kafka Streams does: a store is only ever restored up to it.
   */
  async #changelogEnds(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    const sourceChangelogs = new Set(this.#topology.subtopologies.flatMap(s => s.sourceChangelogTopics ?? []))
    const sources = partitions.filter(p => sourceChangelogs.has(p.topic))
    const [ends, committed] = await Promise.all([
      this.#admin.endOffsets(partitions),
      sources.length === 0 ? new Map<string, number>() : this.#admin.committedOffsets(this.#config.applicationId, sources)
    ])
    for (const p of sources) {
      const key = tpKey(p.topic, p.partition)
      ends.set(key, Math.min(ends.get(key) ?? 0, committed.get(key) ?? 0))
    }
    return ends
  }

  constructor(options: StreamsPartitionAssignorOptions) {
    this.#topology = options.topology
    this.#config = resolveConfig(options.config)
    this.#localState = options.localState
    this.#clock = options.clock ?? systemClock
    this.#admin = options.admin
    this.#logger = options.logger ?? silentLogger
    this.#topics = new InternalTopicManager(options.admin)
  }

  subscriptionUserData(_topics: readonly string[]): Buffer {
    const state = this.#localState()
    this.#uniqueField = (this.#uniqueField + 1) & 0xff
    const sums = new Map(state.taskOffsetSums)
    for (const task of state.activeTasks) sums.set(task, LATEST_OFFSET)
    return encodeSubscriptionInfo({
      processId: state.processId,
      userEndpoint: state.userEndpoint ?? '',
      taskOffsetSums: sums,
      errorCode: state.errorCode ?? AssignorError.NONE,
      uniqueField: this.#uniqueField
    })
  }

  async assign(
    members: readonly GroupMemberSubscription[],
    partitionCounts: ReadonlyMap<string, number>
  ): Promise<Map<string, MemberAssignment>> {
    try {
      return await this.#assign(members, partitionCounts)
    } catch (error) {
      if (!(error instanceof AssignmentFailure)) throw error
      this.#logger.error(`Assignment failed, every member receives error code ${error.errorCode}: ${error.message}`)
      const userData = encodeAssignmentInfo(errorAssignmentInfo(error.errorCode, error.message))
      return new Map(members.map(member => [member.memberId, { partitions: [], userData }]))
    }
  }

  async #assign(
    members: readonly GroupMemberSubscription[],
    partitionCounts: ReadonlyMap<string, number>
  ): Promise<Map<string, MemberAssignment>> {
    if (members.length === 0) return new Map()
    const subscriptions = new Map<string, SubscriptionInfo>()
    const future: string[] = []
    const latestSupported: number[] = []
    for (const member of members) {
      let info: SubscriptionInfo
      try {
        info = decodeSubscriptionInfo(member.userData)
      } catch (error) {
        const version = member.userData.length >= 4 ? member.userData.readInt32BE(0) : undefined
        throw new AssignmentFailure(
          AssignorError.ASSIGNMENT_ERROR,
          `Cannot read the subscription of member ${member.memberId} (subscription version ${version ?? 'unknown'}): ${(error as Error).message}`
        )
      }
      if (info.latestSupportedVersion > 0) latestSupported.push(info.latestSupportedVersion)
      if (isFutureSubscription(info)) future.push(member.memberId)
      else if (info.version < MIN_ASSIGNMENT_VERSION) {
        throw new AssignmentFailure(
          AssignorError.ASSIGNMENT_ERROR,
          `Member ${member.memberId} sent subscription version ${info.version}: versions before ${MIN_ASSIGNMENT_VERSION} (Kafka Streams 2.6) are not supported`
        )
      } else subscriptions.set(member.memberId, info)
    }
    const versions: Versions = {
      version: Math.min(ASSIGNMENT_INFO_VERSION, ...[...subscriptions.values()].map(info => info.version)),
      commonlySupportedVersion: Math.min(ASSIGNMENT_INFO_VERSION, ...latestSupported)
    }
    if (future.length > 0) {
      // Version probing: members running newer code get no tasks and an assignment in our
      // version, from which they learn to speak it and rejoin.
      this.#logger.info(`Members ${future.join(', ')} speak a newer subscription version; they rejoin with version ${versions.version}`)
    }
    const shutdown = [...subscriptions].find(([, info]) => info.errorCode === AssignorError.SHUTDOWN_REQUESTED)
    if (shutdown !== undefined) throw new AssignmentFailure(AssignorError.SHUTDOWN_REQUESTED, `Shutdown requested by member ${shutdown[0]}`)

    const grouping = await this.#prepareTopics(partitionCounts)
    const statefulTasks = new Set([...grouping.tasks].filter(([, info]) => info.changelogPartitions.length > 0).map(([task]) => task))

    // Partitions still owned by cooperative (Java) members, and the tasks they make previous actives.
    const taskOfPartition = new Map<string, string>()
    for (const [task, info] of grouping.tasks)
      for (const tp of info.sourcePartitions) taskOfPartition.set(tpKey(tp.topic, tp.partition), task)
    const owners = new Map<string, string>()
    const ownedTasks = new Map<string, string[]>()
    for (const member of members) {
      const tasks = new Set<string>()
      for (const tp of member.ownedPartitions ?? []) {
        owners.set(tpKey(tp.topic, tp.partition), member.memberId)
        const task = taskOfPartition.get(tpKey(tp.topic, tp.partition))
        if (task !== undefined) tasks.add(task)
      }
      ownedTasks.set(member.memberId, [...tasks])
    }

    // Clients: the members of one process.
    const processes = new Map<string, Thread[]>()
    for (const [memberId, info] of subscriptions) {
      let list = processes.get(info.processId)
      if (list === undefined) processes.set(info.processId, (list = []))
      const previousActive = new Set([...info.activeTasks, ...ownedTasks.get(memberId)!])
      list.push({ memberId, info, previousActive })
    }

    let endSums: Map<string, number> | undefined
    if (statefulTasks.size > 0) {
      const changelogPartitions = new Map([...statefulTasks].map(task => [task, grouping.tasks.get(task)!.changelogPartitions]))
      try {
        endSums = endOffsetSums(changelogPartitions, await this.#changelogEnds([...changelogPartitions.values()].flat()))
      } catch (error) {
        // As Kafka Streams: assign without lags (running actives stay put) and retry right away.
        this.#logger.warn(
          `Could not fetch changelog end offsets, assigning without lags and rebalancing again: ${(error as Error).message}`
        )
        endSums = undefined
      }
    }

    const known = (tasks: Iterable<string>): Set<string> => new Set([...tasks].filter(task => grouping.tasks.has(task)))
    const assignment = assignTasks({
      clients: new Map(
        [...processes].map(([processId, threads]) => [
          processId,
          {
            capacity: threads.length,
            previousActive: known(threads.flatMap(thread => [...thread.previousActive])),
            previousStandby: known(threads.flatMap(thread => thread.info.standbyTasks)),
            lags: taskLags(mergeOffsetSums(threads.map(thread => thread.info.taskOffsetSums)), statefulTasks, endSums)
          }
        ])
      ),
      allTasks: grouping.tasks.keys(),
      statefulTasks,
      config: this.#config
    })

    if (assignment.missingStandbys > 0) {
      this.#logger.warn(
        `Could not place ${assignment.missingStandbys} standby replicas: ${processes.size} processes are too few for numStandbyReplicas=${this.#config.numStandbyReplicas}`
      )
    }
    const now = this.#clock.milliseconds()
    const nextRebalanceMs =
      statefulTasks.size > 0 && endSums === undefined
        ? now
        : assignment.probingRebalanceNeeded
          ? now + this.#config.probingRebalanceIntervalMs
          : undefined
    if (assignment.probingRebalanceNeeded)
      this.#logger.info(`Some tasks stay on caught-up clients while others warm up; probing rebalance at ${nextRebalanceMs!}`)
    const result = this.#memberAssignments({ processes, assignment, grouping, statefulTasks, nextRebalanceMs, owners, versions })
    for (const memberId of future) result.set(memberId, { partitions: [], userData: encodeAssignmentInfo({ ...NOTHING, ...versions }) })
    return result
  }

  /**
   * Creates the internal topics now (before the consumers subscribe, since a subscription to a
   * topic that does not exist yet fails); throws a StreamsError naming the problem.
   */
  async prepareInternalTopics(partitionCounts: ReadonlyMap<string, number>): Promise<void> {
    try {
      await this.#prepareTopics(partitionCounts)
    } catch (error) {
      if (error instanceof AssignmentFailure)
        throw new StreamsError(
          error.errorCode === AssignorError.INCOMPLETE_SOURCE_TOPIC_METADATA ? 'UNKNOWN_TOPIC' : 'ASSIGNMENT_ERROR',
          error.message
        )
      throw error
    }
  }

  /** Resolves topics, sizes and creates internal topics, and groups partitions into tasks. */
  async #prepareTopics(partitionCounts: ReadonlyMap<string, number>): Promise<TaskGrouping> {
    const topology = this.#topology
    let userSources: Map<number, string[]>
    try {
      userSources = resolveUserSourceTopics(topology, partitionCounts)
    } catch (error) {
      if (error instanceof StreamsError && error.code === 'UNKNOWN_TOPIC')
        throw new AssignmentFailure(AssignorError.INCOMPLETE_SOURCE_TOPIC_METADATA, error.message)
      throw asAssignmentError(error)
    }
    let grouping: TaskGrouping
    const repartitionTopics: NewTopic[] = []
    try {
      const counts = computeRepartitionTopicCounts(topology, userSources, partitionCounts)
      const enforced = new Set(
        [...topology.repartitionTopics].filter(([, spec]) => spec.numPartitions !== undefined).map(([topic]) => topic)
      )
      enforceCopartitioning(topology.copartitionGroups, counts, enforced, partitionCounts)
      for (const [topic, numPartitions] of counts) {
        repartitionTopics.push(
          this.#newTopic(topic, numPartitions, REPARTITION_TOPIC_DEFAULT_CONFIGS, topology.repartitionTopics.get(topic)?.configs)
        )
      }
      grouping = groupPartitions(topology, userSources, new Map([...partitionCounts, ...counts]))
    } catch (error) {
      throw asAssignmentError(error)
    }
    const changelogTopics: NewTopic[] = []
    for (const sub of topology.subtopologies) {
      const numTasks = grouping.taskCounts.get(sub.id) ?? 0
      if (numTasks === 0) continue
      for (const topic of sub.changelogTopics) {
        changelogTopics.push(this.#newTopic(topic, numTasks, CHANGELOG_TOPIC_DEFAULT_CONFIGS, topology.changelogConfigs?.get(topic)))
      }
    }
    try {
      await this.#topics.makeReady([...repartitionTopics, ...changelogTopics])
    } catch (error) {
      if (error instanceof StreamsError && error.code === 'ILLEGAL_STATE') throw asAssignmentError(error)
      throw error
    }
    return grouping
  }

  #newTopic(
    topic: string,
    numPartitions: number,
    defaults: Readonly<Record<string, string>>,
    overrides: Readonly<Record<string, string>> | undefined
  ): NewTopic {
    return {
      topic,
      numPartitions,
      replicationFactor: this.#config.replicationFactor,
      configs: { ...defaults, ...this.#config.topicConfigs, ...overrides }
    }
  }

  /**
   * Splits each process's tasks over its threads and encodes every member's assignment. As Kafka
   * Streams does for cooperative members: a task whose partitions another member still owns is
   * held back (kept as a standby where the new owner has its state) and the new owner is asked to
   * rebalance again right away, by when the old owner has given the partitions up.
   */
  #memberAssignments(plan: MemberPlan): Map<string, MemberAssignment> {
    const { processes, assignment, grouping, statefulTasks, owners, versions } = plan
    const sourcePartitions = (tasks: readonly string[]): TopicPartition[] =>
      tasks.flatMap(task => grouping.tasks.get(task)!.sourcePartitions)
    const partitionsByHost = new Map<string, TopicPartition[]>()
    const standbyPartitionsByHost = new Map<string, TopicPartition[]>()
    for (const [processId, threads] of processes) {
      const host = threads.map(thread => thread.info.userEndpoint).find(endpoint => endpoint !== '')
      if (host === undefined) continue
      const tasks = assignment.clients.get(processId)!
      partitionsByHost.set(host, sortPartitions([...(partitionsByHost.get(host) ?? []), ...sourcePartitions(tasks.active)]))
      standbyPartitionsByHost.set(host, sortPartitions([...(standbyPartitionsByHost.get(host) ?? []), ...sourcePartitions(tasks.standby)]))
    }

    const result = new Map<string, MemberAssignment>()
    for (const [processId, threads] of processes) {
      const tasks = assignment.clients.get(processId)!
      const byConsumer = assignTasksToConsumers(
        threads.map(({ memberId, info, previousActive }) => ({
          memberId,
          previousActive,
          previousStandby: new Set(info.standbyTasks)
        })),
        tasks.active,
        tasks.standby,
        statefulTasks
      )
      for (const [memberId, consumerTasks] of byConsumer) {
        const hadState = new Set(threads.find(thread => thread.memberId === memberId)!.info.standbyTasks)
        const activeTasks = new Map<string, readonly TopicPartition[]>()
        const standbyTasks = new Map(consumerTasks.standby.map(task => [task, grouping.tasks.get(task)!.sourcePartitions]))
        let heldBack = false
        for (const task of consumerTasks.active) {
          const partitions = grouping.tasks.get(task)!.sourcePartitions
          const owner = partitions.map(tp => owners.get(tpKey(tp.topic, tp.partition))).find(o => o !== undefined && o !== memberId)
          if (owner === undefined) {
            activeTasks.set(task, partitions)
            continue
          }
          heldBack = true
          this.#logger.info(`Task ${task} moves to ${memberId} once member ${owner} has given up its partitions`)
          if (statefulTasks.has(task) && hadState.has(task)) standbyTasks.set(task, partitions)
        }
        result.set(memberId, {
          partitions: sortPartitions([...activeTasks.values()].flat()),
          userData: encodeAssignmentInfo({
            ...NOTHING,
            ...versions,
            nextRebalanceMs: heldBack ? 0 : plan.nextRebalanceMs,
            activeTasks,
            standbyTasks,
            partitionsByHost,
            standbyPartitionsByHost
          })
        })
      }
    }
    return result
  }
}

interface Thread {
  readonly memberId: string
  readonly info: SubscriptionInfo
  /** Tasks active on the member before: from its offset sums and from the partitions it still owns. */
  readonly previousActive: ReadonlySet<string>
}

interface Versions {
  readonly version: number
  readonly commonlySupportedVersion: number
}

interface MemberPlan {
  readonly processes: ReadonlyMap<string, readonly Thread[]>
  readonly assignment: TaskAssignment
  readonly grouping: TaskGrouping
  readonly statefulTasks: ReadonlySet<string>
  readonly nextRebalanceMs: number | undefined
  /** `topic-partition` -> the member that still owns it. */
  readonly owners: ReadonlyMap<string, string>
  readonly versions: Versions
}

const NOTHING = errorAssignmentInfo(AssignorError.NONE, '')

function asAssignmentError(error: unknown): unknown {
  return error instanceof StreamsError ? new AssignmentFailure(AssignorError.ASSIGNMENT_ERROR, error.message) : error
}

function resolveConfig(config: StreamsPartitionAssignorConfig): Resolved {
  const resolved: Resolved = {
    applicationId: config.applicationId,
    numStandbyReplicas: config.numStandbyReplicas ?? 0,
    acceptableRecoveryLag: config.acceptableRecoveryLag ?? 10_000,
    maxWarmupReplicas: config.maxWarmupReplicas ?? 2,
    probingRebalanceIntervalMs: config.probingRebalanceIntervalMs ?? 600_000,
    replicationFactor: config.replicationFactor ?? -1,
    topicConfigs: config.topicConfigs ?? {}
  }
  const check = (key: keyof Resolved, ok: boolean, what: string): void => {
    if (!ok) throw new ConfigError(key, `${key} ${what}, got ${String(resolved[key])}`)
  }
  check('applicationId', typeof resolved.applicationId === 'string' && resolved.applicationId.length > 0, 'must be a non-empty string')
  check(
    'numStandbyReplicas',
    Number.isSafeInteger(resolved.numStandbyReplicas) && resolved.numStandbyReplicas >= 0,
    'must be a non-negative integer'
  )
  check(
    'acceptableRecoveryLag',
    Number.isSafeInteger(resolved.acceptableRecoveryLag) && resolved.acceptableRecoveryLag >= 0,
    'must be a non-negative integer'
  )
  check(
    'maxWarmupReplicas',
    Number.isSafeInteger(resolved.maxWarmupReplicas) && resolved.maxWarmupReplicas >= 1,
    'must be a positive integer'
  )
  check(
    'probingRebalanceIntervalMs',
    Number.isSafeInteger(resolved.probingRebalanceIntervalMs) && resolved.probingRebalanceIntervalMs >= 60_000,
    'must be at least 60000'
  )
  check(
    'replicationFactor',
    Number.isSafeInteger(resolved.replicationFactor) && (resolved.replicationFactor >= 1 || resolved.replicationFactor === -1),
    'must be a positive integer or -1'
  )
  return resolved
}
