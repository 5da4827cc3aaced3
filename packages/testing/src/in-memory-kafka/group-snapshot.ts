/**
 * What a test sees of a consumer group: a snapshot of its state, generation, leader, members and
 * committed offsets at the moment InMemoryKafka.group() was called.
 */
import type { CommittedOffset } from '@kstreams/core'
import type { ClassicGroup, ClassicGroupState } from './classic-group.js'

export type { ClassicGroupState }

/** A member of a consumer group, as a GroupSnapshot shows it. */
export interface GroupMemberSnapshot {
  /** The member id. */
  readonly memberId: string
  /** The client id of the port that joined it. */
  readonly clientId: string
  /** Its static membership id, if it has one. */
  readonly groupInstanceId: string | undefined
  /** Its session timeout (ms). */
  readonly sessionTimeoutMs: number
  /** Its rebalance timeout (ms). */
  readonly rebalanceTimeoutMs: number
  /** The member's protocol names, by preference. */
  readonly protocols: readonly string[]
  /** Its assignment bytes in the current generation (empty before the leader's SyncGroup). */
  readonly assignment: Buffer
  /** Parked in JoinGroup / SyncGroup right now. */
  readonly awaitingJoin: boolean
  /** Parked in SyncGroup right now. */
  readonly awaitingSync: boolean
  /** When the coordinator last heard from it (JoinGroup, SyncGroup, Heartbeat, OffsetCommit). */
  readonly lastSeenMs: number
}

/** A consumer group as InMemoryKafka.group() saw it: state, generation, leader, members, committed offsets. */
export interface GroupSnapshot {
  /** The group id. */
  readonly groupId: string
  /** The group's state in Kafka's classic group protocol. */
  readonly state: ClassicGroupState
  /** The current generation. */
  readonly generationId: number
  /** The protocol type ('consumer'); undefined before the first join. */
  readonly protocolType: string | undefined
  /** The protocol (assignor) chosen for the generation. */
  readonly protocolName: string | undefined
  /** The leader's member id; undefined without members. */
  readonly leaderId: string | undefined
  /** The members. */
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
