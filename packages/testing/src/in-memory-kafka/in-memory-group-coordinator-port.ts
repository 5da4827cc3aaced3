/**
 * GroupCoordinatorPort on the in-memory broker: one group's JoinGroup, SyncGroup, Heartbeat,
 * LeaveGroup, OffsetCommit and OffsetFetch for one client id. There is one coordinator, so
 * NOT_COORDINATOR never happens unless injected; a first JoinGroup (member id '') is admitted at
 * once, without the MEMBER_ID_REQUIRED round trip an adapter hides anyway.
 * @internal
 */
import type {
  CommittedOffset,
  GroupCoordinatorPort,
  GroupGeneration,
  JoinGroupRequest,
  JoinGroupResponse,
  SyncGroupRequest,
  TopicPartition,
  TopicPartitionOffset
} from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'

export class InMemoryGroupCoordinatorPort implements GroupCoordinatorPort {
  readonly #broker: InMemoryBroker
  readonly #groupId: string
  readonly #connection: ClientConnection

  constructor(broker: InMemoryBroker, options: { groupId: string; clientId: string }) {
    this.#broker = broker
    this.#groupId = options.groupId
    this.#connection = broker.connect(options.clientId, `group coordinator port of group ${options.groupId}`)
  }

  async joinGroup(request: JoinGroupRequest): Promise<JoinGroupResponse> {
    return await this.#call(
      'joinGroup',
      undefined,
      async () => await this.#broker.coordinator.joinGroup(this.#groupId, this.#connection.clientId, request)
    )
  }

  async syncGroup(request: SyncGroupRequest): Promise<Buffer> {
    return await this.#call('syncGroup', undefined, async () => await this.#broker.coordinator.syncGroup(this.#groupId, request))
  }

  async heartbeat(generation: GroupGeneration): Promise<void> {
    await this.#call('heartbeat', undefined, () => this.#broker.coordinator.heartbeat(this.#groupId, generation))
  }

  async leaveGroup(member: {
    readonly memberId: string
    readonly groupInstanceId?: string | undefined
    readonly reason?: string | undefined
  }): Promise<void> {
    await this.#call('leaveGroup', undefined, () => this.#broker.coordinator.leaveGroup(this.#groupId, member))
  }

  async commitOffsets(
    generation: GroupGeneration,
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
  ): Promise<void> {
    await this.#call('commitOffsets', offsets, () => this.#broker.offsets.commit(this.#groupId, generation, offsets))
  }

  async fetchCommittedOffsets(
    partitions: readonly TopicPartition[],
    options?: { readonly requireStable?: boolean }
  ): Promise<Map<string, CommittedOffset>> {
    return await this.#call(
      'fetchCommittedOffsets',
      partitions,
      async () => await this.#broker.offsets.fetch(this.#groupId, partitions, options?.requireStable ?? false)
    )
  }

  async close(): Promise<void> {
    this.#broker.release(this.#connection)
  }

  async #call<T>(
    api: 'joinGroup' | 'syncGroup' | 'heartbeat' | 'leaveGroup' | 'commitOffsets' | 'fetchCommittedOffsets',
    partitions: readonly TopicPartition[] | undefined,
    handler: () => T | Promise<T>
  ): Promise<T> {
    return await this.#broker.call(
      this.#connection,
      { api, clientId: this.#connection.clientId, groupId: this.#groupId, partitions },
      handler
    )
  }
}
