/**
 * AdminPort on the kafkajs admin client. Calls are serialised: several kafkajs admin methods
 * replace the client's cached metadata with just the topics they asked about, which would pull
 * the rug from under a concurrent call. End offsets are what a read_committed reader sees (the
 * last stable offset; the high watermark when no transaction is open), as kafkajs asks for them.
 * Topic creation waits until every partition has a leader, through the retries a KRaft broker
 * needs while a new topic propagates. Offsets by timestamp come from kafkajs'
 * fetchTopicOffsetsByTimestamp, which answers the end offset where no record is that recent:
 * those (an offset not below the end offset read after) are reported as not found. kafkajs'
 * admin always asks for read_committed offsets. For tools: DeleteTopics (missing topics are named
 * before anything is deleted: kafkajs would retry UNKNOWN_TOPIC_OR_PARTITION), DescribeGroups
 * (a group the broker does not know is Dead), and commits or LeaveGroups on a group's behalf
 * through a GroupCoordinatorPort of the group.
 */
import type { Admin, ConfigResourceTypes, Kafka } from 'kafkajs'
import {
  commitOffsetsFromOutside,
  removeMembers,
  type GroupCoordinatorPort,
  type GroupDescription,
  IllegalStateError,
  KafkaRequestError,
  tpKey,
  type AclRequest,
  type AdminPort,
  type Clock,
  type FetchPort,
  type NewTopic,
  type TopicPartition,
  type TopicPartitionOffset,
  type TopicPartitionTimestamp,
  SerialExecutor,
  groupByTopic
} from '@kstreams/core'
import { fetchCommittedOffsets } from './committed-offsets.js'
import { describeKafkajsError, toKafkaRequestError } from './kafkajs-errors.js'
import { LazyConnection } from './lazy-connection.js'

const METADATA_WAIT_MS = 10_000
/** kafkajs' ConfigResourceTypes.TOPIC (not a named export of its CommonJS module under ESM). */
const TOPIC_RESOURCE = 2 as ConfigResourceTypes
const METADATA_RETRY_MS = 100

export class KafkajsAdmin implements AdminPort {
  readonly #admin: Admin
  readonly #clientId: string
  readonly #clock: Clock
  readonly #executor = new SerialExecutor()
  readonly #connection: LazyConnection
  readonly #groupCoordinator: (groupId: string) => GroupCoordinatorPort
  readonly #metadata: FetchPort | undefined
  #closed = false

  /**
   * `metadata`: a fetch port whose `leaders` asks the brokers about topics by name (a topic the
   * principal may not DESCRIBE is left out of the full listing, as if it did not exist).
   */
  constructor(options: {
    kafka: Kafka
    clientId: string
    clock: Clock
    groupCoordinator: (groupId: string) => GroupCoordinatorPort
    metadata?: FetchPort
  }) {
    this.#groupCoordinator = options.groupCoordinator
    this.#metadata = options.metadata
    this.#admin = options.kafka.admin()
    const admin = this.#admin
    this.#connection = new LazyConnection(async () => {
      await admin.connect()
    })
    this.#clientId = options.clientId
    this.#clock = options.clock
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    return await this.#run('Fetching partition counts', { api: 'Metadata' }, async admin => {
      const wanted = new Set(topics)
      const result = new Map<string, number>()
      if (wanted.size === 0) return result
      // All topics in one request: asking for a missing topic by name fails the whole request.
      const { topics: all } = await admin.fetchTopicMetadata()
      for (const { name, partitions } of all) {
        if (wanted.has(name) && partitions.length > 0) result.set(name, partitions.length)
      }
      // Missing, or hidden by an ACL: asked for by name, the broker says TOPIC_AUTHORIZATION_FAILED (which rejects).
      const absent = [...wanted].filter(topic => !result.has(topic))
      if (absent.length > 0)
        await this.#metadata?.leaders(
          absent.map(topic => ({ topic, partition: 0 })),
          true
        )
      return result
    })
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    if (topics.length === 0) return
    await this.#run('Creating topics', { api: 'CreateTopics', topics: topics.map(t => t.topic) }, async admin => {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: topics.map(t => ({
            topic: t.topic,
            numPartitions: t.numPartitions,
            replicationFactor: t.replicationFactor,
            configEntries: Object.entries(t.configs).map(([name, value]) => ({ name, value }))
          }))
        })
      } catch (error) {
        // The topics were created, but kafkajs' wait for their leaders gives up on the
        // UNKNOWN_TOPIC_OR_PARTITION a KRaft broker answers until a new topic has propagated
        // (seen on a loaded machine); the waits below take over.
        if (!isTransientMetadataError(error)) throw error
      }
      // kafkajs skips waiting for leaders when some of the topics already existed.
      const names = topics.map(t => t.topic)
      await this.#awaitMetadata(admin, names)
      await this.#awaitLeaders(admin, names)
    })
  }

  async endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets('high', partitions)
  }

  async beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return await this.#offsets('low', partitions)
  }

  async committedOffsets(groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    if (partitions.length === 0) return new Map()
    return await this.#run(
      `Fetching committed offsets of group ${groupId}`,
      { api: 'OffsetFetch', group: groupId },
      async admin => new Map([...(await fetchCommittedOffsets(admin, groupId, partitions))].map(([key, c]) => [key, c.offset]))
    )
  }

  async deleteRecords(offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (offsets.length === 0) return
    await this.#run('Deleting records', { api: 'DeleteRecords', topics: offsets.map(o => o.topic) }, async admin => {
      for (const { topic, items } of groupByTopic(offsets)) {
        // deleteTopicRecords looks leaders up in the cached metadata: load this topic's first.
        await admin.fetchTopicMetadata({ topics: [topic] })
        await admin.deleteTopicRecords({ topic, partitions: items.map(o => ({ partition: o.partition, offset: String(o.offset) })) })
      }
    })
  }

  async listTopics(): Promise<string[]> {
    return await this.#run('Listing topics', { api: 'Metadata' }, async admin => await admin.listTopics())
  }

  async topicConfigs(topics: readonly string[]): Promise<Map<string, Readonly<Record<string, string>>>> {
    const result = new Map<string, Readonly<Record<string, string>>>()
    if (topics.length === 0) return result
    return await this.#run('Describing topic configs', { api: 'DescribeConfigs', topics }, async admin => {
      // One topic per request: kafkajs rejects the whole call when one resource has an error (a missing topic).
      for (const topic of topics) {
        let described
        try {
          described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC_RESOURCE, name: topic }] })
        } catch (error) {
          if (describeKafkajsError(error).errorName === 'UNKNOWN_TOPIC_OR_PARTITION') continue
          throw error
        }
        for (const resource of described.resources) {
          if (resource.errorCode !== 0) continue
          result.set(resource.resourceName, Object.fromEntries(resource.configEntries.map(e => [e.configName, e.configValue])))
        }
      }
      return result
    })
  }

  async offsetsForTimes(partitions: readonly TopicPartitionTimestamp[]): Promise<Map<string, number>> {
    const result = new Map<string, number>()
    if (partitions.length === 0) return result
    return await this.#run('Fetching offsets by timestamp', { api: 'ListOffsets' }, async admin => {
      // kafkajs asks for one timestamp per topic: group the partitions by topic and timestamp.
      const groups = new Map<string, { topic: string; timestamp: number; partitions: Set<number> }>()
      for (const { topic, partition, timestamp } of partitions) {
        const key = `${timestamp}:${topic}`
        let group = groups.get(key)
        if (group === undefined) groups.set(key, (group = { topic, timestamp, partitions: new Set() }))
        group.partitions.add(partition)
      }
      for (const { topic, timestamp, partitions: wanted } of groups.values()) {
        const found = await admin.fetchTopicOffsetsByTimestamp(topic, timestamp)
        const ends = await admin.fetchTopicOffsets(topic)
        for (const partition of wanted) {
          const offset = found.find(o => o.partition === partition)
          const end = ends.find(o => o.partition === partition)
          if (offset === undefined || end === undefined)
            throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${topic}-${partition} does not exist`)
          if (Number(offset.offset) < Number(end.high)) result.set(tpKey(topic, partition), Number(offset.offset))
        }
      }
      return result
    })
  }

  async deleteTopics(topics: readonly string[]): Promise<void> {
    if (topics.length === 0) return
    await this.#run(`Deleting topics ${topics.join(', ')}`, { api: 'DeleteTopics', topics }, async admin => {
      const existing = new Set(await admin.listTopics())
      const missing = topics.filter(t => !existing.has(t))
      if (missing.length > 0) throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `topics ${missing.join(', ')} do not exist`)
      await admin.deleteTopics({ topics: [...topics] })
    })
  }

  async describeGroup(groupId: string): Promise<GroupDescription> {
    return await this.#run(`Describing group ${groupId}`, { api: 'DescribeGroups', group: groupId }, async admin => {
      let described
      try {
        described = (await admin.describeGroups([groupId])).groups.find(g => g.groupId === groupId)
      } catch (error) {
        if (describeKafkajsError(error).errorName !== 'GROUP_ID_NOT_FOUND') throw error
      }
      if (described === undefined) return { groupId, state: 'Dead', protocolType: '', protocol: '', members: [] }
      return {
        groupId,
        state: described.state,
        protocolType: described.protocolType,
        protocol: described.protocol,
        members: described.members.map(m => ({
          memberId: m.memberId,
          groupInstanceId: undefined, // kafkajs' DescribeGroups versions (v0-v2) do not carry it
          clientId: m.clientId,
          clientHost: m.clientHost
        }))
      }
    })
  }

  async alterConsumerGroupOffsets(groupId: string, offsets: readonly TopicPartitionOffset[]): Promise<void> {
    if (this.#closed) throw new IllegalStateError(`Committing offsets of group ${groupId}: admin ${this.#clientId} is closed`)
    await commitOffsetsFromOutside(this.#groupCoordinator(groupId), offsets)
  }

  async removeMembersFromConsumerGroup(
    groupId: string,
    members: ReadonlyArray<{ readonly memberId: string; readonly groupInstanceId?: string | undefined }>
  ): Promise<void> {
    if (this.#closed) throw new IllegalStateError(`Removing members of group ${groupId}: admin ${this.#clientId} is closed`)
    await removeMembers(this.#groupCoordinator(groupId), members)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#executor.idle()
    try {
      await this.#metadata?.close()
      if (this.#connection.started) await this.#admin.disconnect()
    } catch (error) {
      throw toKafkaRequestError(error, `Closing admin ${this.#clientId}`)
    }
  }

  async #offsets(which: 'high' | 'low', partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    const result = new Map<string, number>()
    if (partitions.length === 0) return result
    return await this.#run(`Fetching ${which === 'high' ? 'end' : 'beginning'} offsets`, { api: 'ListOffsets' }, async admin => {
      for (const { topic, items } of groupByTopic(partitions)) {
        const offsets = await admin.fetchTopicOffsets(topic)
        for (const { partition } of items) {
          const found = offsets.find(o => o.partition === partition)
          if (found === undefined) throw new KafkaRequestError('UNKNOWN_TOPIC_OR_PARTITION', `${topic}-${partition} does not exist`)
          result.set(tpKey(topic, partition), Number(found[which]))
        }
      }
      return result
    })
  }

  async #awaitMetadata(admin: Admin, topics: string[]): Promise<void> {
    await retryTransient(this.#clock, this.#clock.milliseconds() + METADATA_WAIT_MS, async () => await admin.fetchTopicMetadata({ topics }))
  }

  /** Every partition answers a ListOffsets request, which only its leader can. */
  async #awaitLeaders(admin: Admin, topics: string[]): Promise<void> {
    const deadline = this.#clock.milliseconds() + METADATA_WAIT_MS
    for (const topic of topics) {
      // kafkajs asks the leader it has cached until its metadata is refreshed.
      await retryTransient(
        this.#clock,
        deadline,
        async () => await admin.fetchTopicOffsets(topic),
        async () => await admin.fetchTopicMetadata({ topics: [topic] })
      )
    }
  }

  /** Runs `fn` after the calls before it; `request` names the operation an authorization error refused. */
  async #run<T>(what: string, request: AclRequest, fn: (admin: Admin) => Promise<T>): Promise<T> {
    if (this.#closed) throw new IllegalStateError(`${what}: admin ${this.#clientId} is closed`)
    return await this.#executor.run(async () => {
      try {
        await this.#connection.ensure()
        return await fn(this.#admin)
      } catch (error) {
        throw toKafkaRequestError(error, `${what} (admin ${this.#clientId})`, request)
      }
    })
  }
}

const TRANSIENT_METADATA_ERRORS: ReadonlySet<string> = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_OR_FOLLOWER'
])

function isTransientMetadataError(error: unknown): boolean {
  return TRANSIENT_METADATA_ERRORS.has(describeKafkajsError(error).errorName)
}

/** Calls `fn` until it succeeds, retrying transient metadata errors until `deadline` (then `beforeRetry`, if any, after each pause). */
async function retryTransient(
  clock: Clock,
  deadline: number,
  fn: () => Promise<unknown>,
  beforeRetry?: () => Promise<unknown>
): Promise<void> {
  for (;;) {
    try {
      await fn()
      return
    } catch (error) {
      if (!isTransientMetadataError(error) || clock.milliseconds() >= deadline) throw error
      await new Promise(resolve => setTimeout(resolve, METADATA_RETRY_MS))
      await beforeRetry?.().catch(() => undefined)
    }
  }
}
