/**
 * GroupCoordinatorPort on a kafkajs Cluster of its own: the group's coordinator is found with
 * `cluster.findGroupCoordinator` (kafkajs retries that search) and cached; it is forgotten after
 * NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a lost connection or an unanswered request, so the
 * next request finds it again. Each request is sent once: the runtime owns retries, generations
 * and heartbeat timing.
 *
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup go through kafkajs' request definitions (see
 * kafkajs-internals.ts) because the broker's convenience methods drop `group.instance.id`;
 * OffsetCommit and OffsetFetch use the broker's methods. The subscription and assignment bytes
 * are passed through unchanged. What kafkajs 2.2.4's request versions cannot carry is dropped:
 * the join/leave `reason` (JoinGroup v8, LeaveGroup v5), the SyncGroup protocol type and name
 * (v5), the commit's group.instance.id (OffsetCommit v7) and `requireStable` (OffsetFetch v7).
 */
import {
  IllegalStateError,
  isKafkaError,
  tpKey,
  type CommittedOffset,
  type GroupCoordinatorPort,
  type GroupGeneration,
  type JoinGroupRequest,
  type JoinGroupResponse,
  type Logger,
  type SyncGroupRequest,
  type TopicPartition,
  type TopicPartitionOffset,
  groupByTopic
} from '@kstreams/core'
import { toKafkaRequestError } from './kafkajs-errors.js'
import type { InternalBroker, InternalCluster, KafkajsInternals } from './kafkajs-internals.js'
import { LazyConnection } from './lazy-connection.js'

/** After these the cached coordinator may be wrong or unreachable. */
const FORGET_COORDINATOR: ReadonlySet<string> = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'NETWORK_EXCEPTION',
  'REQUEST_TIMED_OUT'
])
/** The first versions that carry group.instance.id (KIP-345). */
const STATIC_MEMBER_VERSIONS = { JoinGroup: 5, SyncGroup: 3, Heartbeat: 3, LeaveGroup: 3 } as const
const EMPTY = Buffer.alloc(0)

/** The requests sent to the coordinator. */
type GroupApi = 'JoinGroup' | 'SyncGroup' | 'Heartbeat' | 'LeaveGroup' | 'OffsetCommit' | 'OffsetFetch'

interface JoinGroupResult {
  readonly generationId: number
  readonly groupProtocol: string
  readonly leaderId: string
  readonly memberId: string
  readonly members: ReadonlyArray<{
    readonly memberId: string
    readonly groupInstanceId?: string | null
    readonly memberMetadata: Buffer | null
  }>
}

export class KafkajsGroupCoordinator implements GroupCoordinatorPort {
  readonly #cluster: InternalCluster
  readonly #internals: KafkajsInternals
  readonly #groupId: string
  readonly #clientId: string
  readonly #logger: Logger
  readonly #connection: LazyConnection
  #coordinator: Promise<InternalBroker> | undefined
  #closed = false

  constructor(options: { cluster: InternalCluster; internals: KafkajsInternals; groupId: string; clientId: string; logger: Logger }) {
    this.#cluster = options.cluster
    // Connects to a bootstrap broker and loads the broker list (the coordinator search needs it).
    this.#connection = new LazyConnection(async () => {
      await options.cluster.connect()
      await options.cluster.refreshMetadataIfNecessary()
    })
    this.#internals = options.internals
    this.#groupId = options.groupId
    this.#clientId = options.clientId
    this.#logger = options.logger
  }

  async joinGroup(request: JoinGroupRequest): Promise<JoinGroupResponse> {
    return await this.#request('JoinGroup', async broker => {
      const send = async (memberId: string): Promise<JoinGroupResult> =>
        await this.#internals.send<JoinGroupResult>(
          broker,
          'JoinGroup',
          {
            groupId: this.#groupId,
            sessionTimeout: request.sessionTimeoutMs,
            rebalanceTimeout: request.rebalanceTimeoutMs,
            memberId,
            groupInstanceId: request.groupInstanceId ?? null,
            protocolType: request.protocolType,
            groupProtocols: request.protocols.map(p => ({ name: p.name, metadata: p.metadata }))
          },
          { ...staticMember('JoinGroup', request.groupInstanceId) }
        )
      let result: JoinGroupResult
      try {
        result = await send(request.memberId)
      } catch (error) {
        // KIP-394: a first join is answered with the member id to join with.
        const required = error as { name?: unknown; memberId?: unknown }
        if (required.name !== 'KafkaJSMemberIdRequired' || typeof required.memberId !== 'string') throw error
        result = await send(required.memberId)
      }
      return {
        generationId: result.generationId,
        protocolName: result.groupProtocol,
        leaderId: result.leaderId,
        memberId: result.memberId,
        members: result.members.map(m => ({
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId ?? undefined,
          metadata: copy(m.memberMetadata)
        }))
      }
    })
  }

  async syncGroup(request: SyncGroupRequest): Promise<Buffer> {
    return await this.#request('SyncGroup', async broker => {
      const result = await this.#internals.send<{ memberAssignment: Buffer | null }>(
        broker,
        'SyncGroup',
        {
          groupId: this.#groupId,
          generationId: request.generationId,
          memberId: request.memberId,
          groupInstanceId: request.groupInstanceId ?? null,
          groupAssignment: request.assignments.map(a => ({ memberId: a.memberId, memberAssignment: a.assignment }))
        },
        { ...staticMember('SyncGroup', request.groupInstanceId) }
      )
      return copy(result.memberAssignment)
    })
  }

  async heartbeat(generation: GroupGeneration): Promise<void> {
    await this.#request('Heartbeat', async broker => {
      await this.#internals.send(
        broker,
        'Heartbeat',
        {
          groupId: this.#groupId,
          groupGenerationId: generation.generationId,
          memberId: generation.memberId,
          groupInstanceId: generation.groupInstanceId ?? null
        },
        { ...staticMember('Heartbeat', generation.groupInstanceId) }
      )
    })
  }

  async leaveGroup(member: {
    readonly memberId: string
    readonly groupInstanceId?: string | undefined
    readonly reason?: string | undefined
  }): Promise<void> {
    await this.#request('LeaveGroup', async broker => {
      if (member.reason !== undefined) this.#logger.debug(`Group ${this.#groupId}: member ${member.memberId} leaves: ${member.reason}`)
      await this.#internals.send(
        broker,
        'LeaveGroup',
        {
          groupId: this.#groupId,
          memberId: member.memberId,
          groupInstanceId: member.groupInstanceId ?? null
        },
        { ...staticMember('LeaveGroup', member.groupInstanceId) }
      )
    })
  }

  async commitOffsets(
    generation: GroupGeneration,
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
  ): Promise<void> {
    this.#requireOpen('commitOffsets')
    if (offsets.length === 0) return
    await this.#request('OffsetCommit', async broker => {
      await broker.offsetCommit({
        groupId: this.#groupId,
        groupGenerationId: generation.generationId,
        memberId: generation.memberId,
        topics: groupByTopic(offsets).map(({ topic, items }) => ({
          topic,
          partitions: items.map(o => ({ partition: o.partition, offset: String(o.offset), metadata: o.metadata ?? null }))
        }))
      })
    })
  }

  async fetchCommittedOffsets(
    partitions: readonly TopicPartition[],
    _options?: { readonly requireStable?: boolean }
  ): Promise<Map<string, CommittedOffset>> {
    this.#requireOpen('fetchCommittedOffsets')
    const result = new Map<string, CommittedOffset>()
    if (partitions.length === 0) return result
    return await this.#request('OffsetFetch', async broker => {
      const { responses } = await broker.offsetFetch({
        groupId: this.#groupId,
        topics: groupByTopic(partitions).map(({ topic, items }) => ({ topic, partitions: items.map(tp => ({ partition: tp.partition })) }))
      })
      for (const { topic, partitions: list } of responses) {
        for (const { partition, offset, metadata } of list) {
          const value = Number(offset)
          if (value < 0) continue // no commit
          result.set(tpKey(topic, partition), { offset: value, metadata: metadata === null || metadata === '' ? undefined : metadata })
        }
      }
      return result
    })
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#coordinator = undefined
    try {
      await this.#connection.settled()
      await this.#cluster.disconnect()
    } catch (error) {
      throw toKafkaRequestError(error, `Closing group coordinator client ${this.#clientId}`)
    }
  }

  async #request<T>(api: GroupApi, send: (coordinator: InternalBroker) => Promise<T>): Promise<T> {
    this.#requireOpen(api)
    let coordinator: Promise<InternalBroker> | undefined
    try {
      coordinator = this.#findCoordinator()
      return await send(await coordinator)
    } catch (error) {
      const mapped = toKafkaRequestError(error, `${api} of group ${this.#groupId} (client ${this.#clientId})`, {
        api,
        group: this.#groupId
      })
      if (isKafkaError(mapped) && FORGET_COORDINATOR.has(mapped.errorName) && this.#coordinator === coordinator) {
        this.#logger.debug(`Group ${this.#groupId}: ${mapped.errorName}, finding the coordinator again`)
        this.#coordinator = undefined
      }
      throw mapped
    }
  }

  #findCoordinator(): Promise<InternalBroker> {
    if (this.#coordinator !== undefined) return this.#coordinator
    const found = (async () => {
      await this.#connection.ensure()
      try {
        return await this.#cluster.findGroupCoordinator({ groupId: this.#groupId })
      } catch (error) {
        throw await this.#whyNoCoordinator(error)
      }
    })()
    this.#coordinator = found
    found.catch(() => {
      if (this.#coordinator === found) this.#coordinator = undefined
    })
    return found
  }

  /**
   * kafkajs' coordinator search drops the broker's error (GroupCoordinatorNotFound, no cause): a
   * FindCoordinator the broker refuses (no DESCRIBE on the group) would be retried for ever. One
   * more FindCoordinator of our own tells: an error that is not retriable is the answer.
   */
  async #whyNoCoordinator(error: unknown): Promise<unknown> {
    if ((error as { name?: unknown }).name !== 'KafkaJSGroupCoordinatorNotFound') return error
    try {
      const broker = await this.#cluster.brokerPool.findConnectedBroker()
      await broker.findGroupCoordinator({ groupId: this.#groupId, coordinatorType: 0 })
    } catch (refused) {
      const mapped = toKafkaRequestError(refused, `FindCoordinator of group ${this.#groupId} (client ${this.#clientId})`, {
        api: 'FindCoordinator',
        group: this.#groupId
      })
      if (!mapped.retriable) return mapped
    }
    return error
  }

  #requireOpen(what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what} on closed group coordinator client ${this.#clientId} (group ${this.#groupId})`)
  }
}

function staticMember(api: keyof typeof STATIC_MEMBER_VERSIONS, groupInstanceId: string | undefined): { minVersion?: number } {
  return groupInstanceId === undefined ? {} : { minVersion: STATIC_MEMBER_VERSIONS[api] }
}

/** The bytes out of the response buffer they were decoded from (which they would otherwise keep alive). */
function copy(bytes: Buffer | null): Buffer {
  return bytes === null || bytes.length === 0 ? EMPTY : Buffer.from(bytes)
}
