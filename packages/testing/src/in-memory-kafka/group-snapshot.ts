/**
 * What a test sees of a consumer group: a snapshot of its state, generation, leader, members and
 * committed offsets at the moment InMemoryKafka.group() was called.
 */
import type { CommittedOffset } from '@kstreams/core'
import type { ClassicGroup, ClassicGroupState } from './classic-group.js'

export type { ClassicGroupState }

export interface GroupMemberSnapshot {
  readonly memberId: string
  /** The client id of the port that joined it. */
  readonly clientId: string
  readonly groupInstanceId: string | undefined
  readonly sessionTimeoutMs: number
  readonly rebalanceTimeoutMs: number
  /** The member's protocol names, by preference. */
  readonly protocols: readonly string[]
  /** Its assignment bytes in the current generation (empty before the leader's SyncGroup). */
  readonly assignment: Buffer
  /** Parked in JoinGroup / SyncGroup right now. */
  readonly awaitingJoin: boolean
  readonly awaitingSync: boolean
  /** When the coordinator last heard from it (JoinGroup, SyncGroup, Heartbeat, OffsetCommit). */
  readonly lastSeenMs: number
}

export interface GroupSnapshot {
  readonly groupId: string
  readonly state: ClassicGroupState
  readonly generationId: number
  readonly protocolType: string | undefined
  /** The protocol (assignor) chosen for the generation. */
  readonly protocolName: string | undefined
  readonly leaderId: string | undefined
  readonly members: readonly GroupMemberSnapshot[]
  /** Committed offsets, keyed by `topic-partition`. */
  readonly committed: ReadonlyMap<string, CommittedOffset>
}

/** @internal */
export function snapshotGroup(group: ClassicGroup, committed: ReadonlyMap<string, CommittedOffset>): GroupSnapshot {
  return {
    groupId: group.groupId,
    state: group.state,
    generationId: group.generationId,
    protocolType: group.protocolType,
    protocolName: group.protocolName,
    leaderId: group.leaderId,
    members: group.members.map(m => ({
      memberId: m.memberId,
      clientId: m.clientId,
      groupInstanceId: m.groupInstanceId,
      sessionTimeoutMs: m.sessionTimeoutMs,
      rebalanceTimeoutMs: m.rebalanceTimeoutMs,
      protocols: m.protocols.map(p => p.name),
      assignment: Buffer.from(m.assignment),
      awaitingJoin: m.isAwaitingJoin,
      awaitingSync: m.isAwaitingSync,
      lastSeenMs: m.lastSeenMs
    })),
    committed
  }
}
