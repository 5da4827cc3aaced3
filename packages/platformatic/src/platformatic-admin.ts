/**
 * AdminPort on platformatic's low-level requests, on connections of its own: CreateTopics v7
 * (configs given, replication factor -1 = the broker's default, TOPIC_ALREADY_EXISTS left as it
 * is) followed by a wait until every partition of every topic has a leader that answers
 * ListOffsets; partition counts and the topic list from Metadata v12; end offsets (high
 * watermarks, as the port and Java's KAFKA-10167 have them) and beginning offsets from each
 * leader (ListOffsets v9, READ_UNCOMMITTED); committed offsets from the group's coordinator
 * (OffsetFetch v9); DeleteRecords v2 to each leader; DescribeConfigs v4; offsets by timestamp
 * (the fetcher's ListOffsets v9 with the timestamps, at the isolation level asked for). For
 * tools: DeleteTopics v6, DescribeGroups v5 from the group's coordinator (a group it does not
 * know is Dead), and commits or LeaveGroups on a group's behalf through a group coordinator port.
 */
import { createTopicsV7, deleteRecordsV2, deleteTopicsV6, describeConfigsV4, describeGroupsV5 } from '@platformatic/kafka'
import {
  commitOffsetsFromOutside,
  removeMembers,
  type GroupDescription,
  KafkaRequestError,
  isKafkaError,
  tpKey,
  type AdminPort,
  type Clock,
  type NewTopic,
  type TopicPartition,
  type TopicPartitionOffset,
  type TopicPartitionTimestamp,
  type IsolationLevel,
  groupByTopic
} from '@kstreams/core'
import { BrokerConnections } from './broker-connections.js'
import { CoordinatorLookup } from './coordinator-lookup.js'
import { fetchGroupOffsets } from './group-offsets.js'
import { PartitionLeaders } from './partition-leaders.js'
import type { PlatformaticClientConfig } from './platformatic-client-config.js'
import { fromErrorCode } from './platformatic-errors.js'
import { forgettingLeadersOnFailure, leadersOrFail, PlatformaticFetcher } from './platformatic-fetcher.js'
import { PlatformaticGroupCoordinator } from './platformatic-group-coordinator.js'

const TOPIC_ALREADY_EXISTS = 36
const GROUP_ID_NOT_FOUND = 69
const TOPIC_RESOURCE = 2
const LEADER_WAIT_MS = 10_000
const LEADER_RETRY_MS = 100
const TRANSIENT: ReadonlySet<string> = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_OR_FOLLOWER'])

export class PlatformaticAdmin implements AdminPort {
  readonly #connections: BrokerConnections
  readonly #leaders: PartitionLeaders
  /** ListOffsets through the FetchPort's code (its own connections). */
  readonly #offsets: PlatformaticFetcher
  readonly #clientId: string
  readonly #clock: Clock
  readonly #requestTimeoutMs: number
  readonly #config: PlatformaticClientConfig

  constructor(options: { config: PlatformaticClientConfig; clientId: string }) {
    const { config } = options
    this.#config = config
    this.#clientId = options.clientId
    this.#clock = config.clock
    this.#requestTimeoutMs = config.requestTimeoutMs
    this.#connections = new BrokerConnections({
      clientId: options.clientId,
      bootstrap: config.bootstrap,
      connection: config.connectionOptions()
    })
    this.#leaders = new PartitionLeaders({ connections: this.#connections, clock: config.clock, maxAgeMs: config.metadataMaxAgeMs })
    this.#offsets = new PlatformaticFetcher({ config, clientId: options.clientId })
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    if (topics.length === 0) return new Map()
    return await this.#leaders.partitionCounts(topics)
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    if (topics.length === 0) return
    const what = `CreateTopics ${topics.map(t => t.topic).join(', ')} (admin ${this.#clientId})`
    const connection = await this.#connections.any(what)
    const response = await this.#connections.request(
      connection,
      createTopicsV7.api,
      [
        topics.map(t => ({
          name: t.topic,
          numPartitions: t.numPartitions,
          replicationFactor: t.replicationFactor,
          assignments: [],
          configs: Object.entries(t.configs).map(([name, value]) => ({ name, value }))
        })),
        this.#requestTimeoutMs,
        false
      ],
      what
    )
    for (const t of response.topics) {
      if (t.errorCode !== 0 && t.errorCode !== TOPIC_ALREADY_EXISTS)
        throw fromErrorCode(t.errorCode, `${what}: topic ${t.name}`, t.errorMessage, { api: 'CreateTopics', topic: t.name })
    }
    await this.#awaitLeaders(
      topics.map(t => t.topic),
      what
    )
  }

  async endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets.listOffsets(partitions, 'latest', 'READ_UNCOMMITTED')
  }

  async beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets.listOffsets(partitions, 'earliest', 'READ_UNCOMMITTED')
  }

  async committedOffsets(groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    if (partitions.length === 0) return new Map()
    const what = `Fetching committed offsets of group ${groupId} (admin ${this.#clientId})`
    const coordinator = new CoordinatorLookup(this.#connections, groupId)
    const committed = await fetchGroupOffsets(this.#connections, await coordinator.connection(what), groupId, partitions, false)
    return new Map([...committed].map(([key, c]) => [key, c.offset]))
  }

  async deleteRecords(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (offsets.length === 0) return
    const what = `DeleteRecords (admin ${this.#clientId})`
    const byNode = await leadersOrFail(this.#leaders, offsets, what)
    const wanted = new Map(offsets.map(o => [tpKey(o.topic, o.partition), o.offset]))
    await Promise.all(
      [...byNode].map(async ([node, list]) => {
        const topics = groupByTopic(list).map(({ topic, items }) => ({
          name: topic,
          partitions: items.map(tp => ({ partitionIndex: tp.partition, offset: BigInt(wanted.get(tpKey(tp.topic, tp.partition))!) }))
        }))
        const response = await forgettingLeadersOnFailure(
          this.#leaders,
          topics,
          async () =>
            await this.#connections.request(
              await this.#connections.node(node, what),
              deleteRecordsV2.api,
              [topics, this.#requestTimeoutMs],
              what
            )
        )
        for (const { name, partitions } of response.topics) {
          const failed = partitions.find(p => p.errorCode !== 0)
          if (failed === undefined) continue
          this.#leaders.invalidate(name)
          throw fromErrorCode(failed.errorCode, `${what} of ${tpKey(name, failed.partitionIndex)}`, null, {
            api: 'DeleteRecords',
            topic: name
          })
        }
      })
    )
  }

  async offsetsForTimes(partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel): Promise<Map<string, number>> {
    return await this.#offsets.offsetsForTimes(partitions, isolationLevel)
  }

  async listTopics(): Promise<string[]> {
    const response = await this.#connections.metadata(null, `Listing topics (admin ${this.#clientId})`)
    return response.topics.filter(t => t.errorCode === 0 && !t.isInternal && t.name !== null).map(t => t.name!)
  }

  async topicConfigs(topics: readonly string[]): Promise<Map<string, Readonly<Record<string, string>>>> {
    const result = new Map<string, Readonly<Record<string, string>>>()
    if (topics.length === 0) return result
    const what = `DescribeConfigs of ${topics.join(', ')} (admin ${this.#clientId})`
    const connection = await this.#connections.any(what)
    const resources = topics.map(name => ({ resourceType: TOPIC_RESOURCE as never, resourceName: name }))
    const response = await this.#connections.request(connection, describeConfigsV4.api, [resources, false, false], what)
    for (const r of response.results) {
      if (r.errorCode === 0) {
        result.set(r.resourceName, Object.fromEntries(r.configs.filter(c => c.value !== null).map(c => [c.name, c.value!])))
        continue
      }
      const error = fromErrorCode(r.errorCode, `${what}: topic ${r.resourceName}`, r.errorMessage, {
        api: 'DescribeConfigs',
        topic: r.resourceName
      })
      if (!isKafkaError(error, 'UNKNOWN_TOPIC_OR_PARTITION')) throw error
    }
    return result
  }

  async deleteTopics(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return
    const what = `DeleteTopics ${topics.join(', ')} (admin ${this.#clientId})`
    const connection = await this.#connections.any(what)
    const response = await this.#connections.request(
      connection,
      deleteTopicsV6.api,
      [topics.map(name => ({ name })), this.#requestTimeoutMs],
      what
    )
    this.#leaders.clear()
    const failed = response.responses.find(r => r.errorCode !== 0)
    if (failed !== undefined)
      throw fromErrorCode(failed.errorCode, `${what}: topic ${failed.name}`, failed.errorMessage, {
        api: 'DeleteTopics',
        topic: failed.name ?? undefined
      })
  }

  async describeGroup(groupId: string): Promise<GroupDescription> {
    const what = `DescribeGroups of group ${groupId} (admin ${this.#clientId})`
    const coordinator = new CoordinatorLookup(this.#connections, groupId)
    const response = await this.#connections.request(await coordinator.connection(what), describeGroupsV5.api, [[groupId], false], what)
    const group = response.groups.find(g => g.groupId === groupId)
    if (group === undefined || group.errorCode === GROUP_ID_NOT_FOUND)
      return { groupId, state: 'Dead', protocolType: '', protocol: '', members: [] }
    if (group.errorCode !== 0) throw fromErrorCode(group.errorCode, what, null, { api: 'DescribeGroups', group: groupId })
    return {
      groupId,
      state: group.groupState,
      protocolType: group.protocolType,
      protocol: group.protocolData,
      members: group.members.map(m => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId ?? undefined,
        clientId: m.clientId,
        clientHost: m.clientHost
      }))
    }
  }

  async alterConsumerGroupOffsets(groupId: string, offsets: readonly TopicPartitionOffset[]): Promise<void> {
    await commitOffsetsFromOutside(this.#groupCoordinator(groupId), offsets)
  }

  async removeMembersFromConsumerGroup(
    groupId: string,
    members: ReadonlyArray<{ readonly memberId: string; readonly groupInstanceId?: string | undefined }>
  ): Promise<void> {
    await removeMembers(this.#groupCoordinator(groupId), members)
  }

  async close(): Promise<void> {
    this.#leaders.clear()
    await Promise.all([this.#connections.close(), this.#offsets.close()])
  }

  #groupCoordinator(groupId: string): PlatformaticGroupCoordinator {
    return new PlatformaticGroupCoordinator({ config: this.#config, groupId, clientId: this.#clientId })
  }

  /** Until every partition of `topics` has a leader that answers ListOffsets (a KRaft broker needs a moment after CreateTopics). */
  async #awaitLeaders(topics: readonly string[], what: string): Promise<void> {
    const deadline = this.#clock.milliseconds() + LEADER_WAIT_MS
    for (;;) {
      try {
        const counts = await this.#leaders.partitionCounts(topics)
        const missing = topics.filter(t => !counts.has(t))
        if (missing.length > 0)
          throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${what}: ${missing.join(', ')} not in the metadata yet`)
        await this.#offsets.listOffsets(
          topics.flatMap(topic => Array.from({ length: counts.get(topic)! }, (_, partition) => ({ topic, partition }))),
          'latest',
          'READ_UNCOMMITTED'
        )
        return
      } catch (error) {
        if (!isKafkaError(error) || !TRANSIENT.has(error.errorName) || this.#clock.milliseconds() >= deadline) throw error
        await new Promise(resolve => setTimeout(resolve, LEADER_RETRY_MS))
      }
    }
  }
}
