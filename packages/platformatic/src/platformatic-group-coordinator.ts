/**
 * GroupCoordinatorPort on platformatic's low-level requests: JoinGroup v9, SyncGroup v5,
 * Heartbeat v4, LeaveGroup v5, OffsetCommit v9 and OffsetFetch v9 (require_stable), each sent
 * once to the group's coordinator (CoordinatorLookup; found again after NOT_COORDINATOR,
 * COORDINATOR_NOT_AVAILABLE, a lost connection or an unanswered request). The runtime owns
 * retries, generations and heartbeat timing. Protocol type, names and bytes are passed through.
 *
 * JoinGroup and SyncGroup go over connections of their own, whose request timeout covers the
 * rebalance timeout (the coordinator holds a JoinGroup until every member joined), so a
 * Heartbeat or commit never waits behind a pending join.
 */
import { heartbeatV4, joinGroupV9, leaveGroupV5, offsetCommitV9, syncGroupV5, type Connection } from '@platformatic/kafka'
import {
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
import { BrokerConnections } from './broker-connections.js'
import { CoordinatorLookup } from './coordinator-lookup.js'
import { fetchGroupOffsets } from './group-offsets.js'
import type { PlatformaticClientConfig } from './platformatic-client-config.js'
import { fromErrorCode } from './platformatic-errors.js'

const MEMBER_ID_REQUIRED = 79
/** Java's consumer gives a JoinGroup the rebalance timeout plus this. */
const JOIN_TIMEOUT_MARGIN_MS = 5_000
const EMPTY = Buffer.alloc(0)

export class PlatformaticGroupCoordinator implements GroupCoordinatorPort {
  readonly #config: PlatformaticClientConfig
  readonly #groupId: string
  readonly #clientId: string
  readonly #logger: Logger
  readonly #connections: BrokerConnections
  readonly #coordinator: CoordinatorLookup
  /** JoinGroup/SyncGroup connections, made for the largest rebalance timeout asked for so far. */
  #rebalance: { connections: BrokerConnections; timeoutMs: number } | undefined

  constructor(options: { config: PlatformaticClientConfig; groupId: string; clientId: string }) {
    this.#config = options.config
    this.#groupId = options.groupId
    this.#clientId = options.clientId
    this.#logger = options.config.logger
    this.#connections = this.#newConnections(options.config.requestTimeoutMs)
    this.#coordinator = new CoordinatorLookup(this.#connections, options.groupId)
  }

  async joinGroup(request: JoinGroupRequest): Promise<JoinGroupResponse> {
    const connections = await this.#rebalanceConnections(request.rebalanceTimeoutMs + JOIN_TIMEOUT_MARGIN_MS)
    return await this.#request('JoinGroup', connections, async (connection, what) => {
      const send = async (memberId: string): Promise<Awaited<ReturnType<typeof joinGroupV9.api.async>>> =>
        await connections.request(
          connection,
          joinGroupV9.api,
          [
            this.#groupId,
            request.sessionTimeoutMs,
            request.rebalanceTimeoutMs,
            memberId,
            request.groupInstanceId ?? null,
            request.protocolType,
            request.protocols.map(p => ({ name: p.name, metadata: p.metadata })),
            request.reason ?? null
          ],
          what
        )
      let response = await send(request.memberId)
      // KIP-394: a first join is answered with the member id to join with.
      if (response.errorCode === MEMBER_ID_REQUIRED && response.memberId !== '') response = await send(response.memberId)
      if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, what, null, { api: 'JoinGroup', group: this.#groupId })
      return {
        generationId: response.generationId,
        protocolName: response.protocolName ?? '',
        leaderId: response.leader,
        memberId: response.memberId,
        members: response.members.map(m => ({
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId ?? undefined,
          metadata: copy(m.metadata)
        }))
      }
    })
  }

  async syncGroup(request: SyncGroupRequest): Promise<Buffer> {
    const connections = await this.#rebalanceConnections(this.#rebalance?.timeoutMs ?? this.#config.requestTimeoutMs)
    return await this.#request('SyncGroup', connections, async (connection, what) => {
      const response = await connections.request(
        connection,
        syncGroupV5.api,
        [
          this.#groupId,
          request.generationId,
          request.memberId,
          request.groupInstanceId ?? null,
          request.protocolType,
          request.protocolName,
          request.assignments.map(a => ({ memberId: a.memberId, assignment: a.assignment }))
        ],
        what
      )
      if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, what, null, { api: 'SyncGroup', group: this.#groupId })
      return copy(response.assignment)
    })
  }

  async heartbeat(generation: GroupGeneration): Promise<void> {
    await this.#request('Heartbeat', this.#connections, async (connection, what) => {
      const response = await this.#connections.request(
        connection,
        heartbeatV4.api,
        [this.#groupId, generation.generationId, generation.memberId, generation.groupInstanceId ?? null],
        what
      )
      if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, what, null, { api: 'Heartbeat', group: this.#groupId })
    })
  }

  async leaveGroup(member: {
    readonly memberId: string
    readonly groupInstanceId?: string | undefined
    readonly reason?: string | undefined
  }): Promise<void> {
    await this.#request('LeaveGroup', this.#connections, async (connection, what) => {
      const response = await this.#connections.request(
        connection,
        leaveGroupV5.api,
        [
          this.#groupId,
          [
            {
              memberId: member.memberId,
              groupInstanceId: member.groupInstanceId ?? null,
              reason: member.reason ?? null
            }
          ]
        ],
        what
      )
      if (response.errorCode !== 0) throw fromErrorCode(response.errorCode, what, null, { api: 'LeaveGroup', group: this.#groupId })
      const failed = response.members.find(m => m.errorCode !== 0)
      if (failed !== undefined)
        throw fromErrorCode(failed.errorCode, `${what} of member ${failed.memberId}`, null, { api: 'LeaveGroup', group: this.#groupId })
    })
  }

  async commitOffsets(
    generation: GroupGeneration,
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
  ): Promise<void> {
    if (offsets.length === 0) return
    await this.#request('OffsetCommit', this.#connections, async (connection, what) => {
      const topics = groupByTopic(offsets).map(({ topic, items }) => ({
        name: topic,
        partitions: items.map(o => ({
          partitionIndex: o.partition,
          committedOffset: BigInt(o.offset),
          committedLeaderEpoch: -1,
          committedMetadata: o.metadata ?? null
        }))
      }))
      const response = await this.#connections.request(
        connection,
        offsetCommitV9.api,
        [this.#groupId, generation.generationId, generation.memberId, generation.groupInstanceId ?? null, topics],
        what
      )
      for (const { name, partitions } of response.topics) {
        const failed = partitions.find(p => p.errorCode !== 0)
        if (failed !== undefined)
          throw fromErrorCode(failed.errorCode, `${what} for ${tpKey(name, failed.partitionIndex)}`, null, {
            api: 'OffsetCommit',
            group: this.#groupId,
            topic: name
          })
      }
    })
  }

  async fetchCommittedOffsets(
    partitions: readonly TopicPartition[],
    options?: { readonly requireStable?: boolean }
  ): Promise<Map<string, CommittedOffset>> {
    if (partitions.length === 0) return new Map()
    return await this.#request(
      'OffsetFetch',
      this.#connections,
      async connection => await fetchGroupOffsets(this.#connections, connection, this.#groupId, partitions, options?.requireStable === true)
    )
  }

  async close(): Promise<void> {
    const rebalance = this.#rebalance
    this.#rebalance = undefined
    await Promise.all([this.#connections.close(), rebalance?.connections.close()])
  }

  async #request<T>(api: string, connections: BrokerConnections, send: (coordinator: Connection, what: string) => Promise<T>): Promise<T> {
    const what = `${api} of group ${this.#groupId} (client ${this.#clientId})`
    try {
      return await send(await this.#coordinator.connection(what, connections), what)
    } catch (error) {
      this.#coordinator.forgetAfter(error)
      throw error
    }
  }

  async #rebalanceConnections(timeoutMs: number): Promise<BrokerConnections> {
    const current = this.#rebalance
    if (current !== undefined && current.timeoutMs >= timeoutMs) return current.connections
    // Fails with ILLEGAL_STATE once the port is closed.
    await this.#connections.any(`Connecting group ${this.#groupId} (client ${this.#clientId})`)
    const requestTimeoutMs = Math.max(timeoutMs, this.#config.requestTimeoutMs)
    this.#rebalance = { connections: this.#newConnections(requestTimeoutMs), timeoutMs: requestTimeoutMs }
    if (current !== undefined) {
      this.#logger.debug(`Group ${this.#groupId}: rebalance connections now wait ${requestTimeoutMs} ms for an answer`)
      await current.connections.close().catch(() => undefined)
    }
    return this.#rebalance.connections
  }

  #newConnections(requestTimeoutMs: number): BrokerConnections {
    return new BrokerConnections({
      clientId: this.#clientId,
      bootstrap: this.#config.bootstrap,
      connection: this.#config.connectionOptions(requestTimeoutMs)
    })
  }
}

/** The bytes out of the response buffer they were decoded from (which they would otherwise keep alive). */
function copy(bytes: Buffer | null | undefined): Buffer {
  return bytes === null || bytes === undefined || bytes.length === 0 ? EMPTY : Buffer.from(bytes)
}
