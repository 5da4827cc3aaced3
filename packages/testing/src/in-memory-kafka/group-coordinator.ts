/**
 * The classic group coordinator (Kafka's GroupMetadataManager for classic groups): JoinGroup with
 * its join barrier and the initial-rebalance delay, SyncGroup, Heartbeat, LeaveGroup, session
 * expiry, the pending-sync deadline, and the membership checks of OffsetCommit. Follows Kafka 4's
 * rules request by request; where Kafka leaves a request unanswered until the client's request
 * timeout, it answers with the error the client would end up seeing.
 * @internal
 */
import { randomUUID } from 'node:crypto'
import { StreamsError } from '@kstreams/core'
import type { GroupGeneration, JoinGroupRequest, JoinGroupResponse, SyncGroupRequest } from '@kstreams/core'
import type { BrokerTimers } from './broker-timers.js'
import { ClassicGroup } from './classic-group.js'
import { deferred } from './deferred.js'
import type { Deferred } from './deferred.js'
import { EMPTY_ASSIGNMENT, GroupMember } from './group-member.js'
import { kafkaError } from './request-errors.js'

export interface GroupCoordinatorOptions {
  readonly timers: BrokerTimers
  /** group.initial.rebalance.delay.ms. */
  readonly initialRebalanceDelayMs: number
  /** How long a new member may wait in its first JoinGroup (Kafka: 5 minutes). */
  readonly newMemberJoinTimeoutMs: number
  /** group.min.session.timeout.ms and group.max.session.timeout.ms. */
  readonly minSessionTimeoutMs: number
  readonly maxSessionTimeoutMs: number
}

export class GroupCoordinator {
  readonly #o: GroupCoordinatorOptions
  readonly #timers: BrokerTimers
  readonly #groups = new Map<string, ClassicGroup>()

  constructor(options: GroupCoordinatorOptions) {
    this.#o = options
    this.#timers = options.timers
  }

  group(groupId: string): ClassicGroup | undefined {
    return this.#groups.get(groupId)
  }

  groupIds(): string[] {
    return [...this.#groups.keys()]
  }

  async joinGroup(groupId: string, clientId: string, request: JoinGroupRequest): Promise<JoinGroupResponse> {
    if (request.sessionTimeoutMs < this.#o.minSessionTimeoutMs || request.sessionTimeoutMs > this.#o.maxSessionTimeoutMs) {
      throw kafkaError(
        'INVALID_SESSION_TIMEOUT',
        `session timeout ${request.sessionTimeoutMs} ms is outside [${this.#o.minSessionTimeoutMs}, ${this.#o.maxSessionTimeoutMs}]`
      )
    }
    let group = this.#groups.get(groupId)
    if (group === undefined) {
      if (request.memberId !== '') throw kafkaError('UNKNOWN_MEMBER_ID', `group ${groupId} does not exist`)
      group = new ClassicGroup(groupId)
      this.#groups.set(groupId, group)
    }
    if (group.is('Dead')) throw kafkaError('COORDINATOR_NOT_AVAILABLE', `group ${groupId} is dead`)
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      throw kafkaError(
        'INCONSISTENT_GROUP_PROTOCOL',
        `group ${groupId} (protocol type ${group.protocolType ?? 'none'}) cannot take protocol type ${request.protocolType} with protocols ${request.protocols.map(p => p.name).join(', ')}`
      )
    }
    const answer = deferred<JoinGroupResponse>()
    const staticMemberId =
      request.memberId === '' && request.groupInstanceId !== undefined ? group.staticMemberId(request.groupInstanceId) : undefined
    if (staticMemberId !== undefined) this.#rejoinStaticMember(group, clientId, staticMemberId, request, answer)
    else if (request.memberId === '') this.#joinNewMember(group, clientId, request, answer)
    else this.#joinExistingMember(group, request, answer)
    return await answer.promise
  }

  async syncGroup(groupId: string, request: SyncGroupRequest): Promise<Buffer> {
    const group = this.#groups.get(groupId)
    if (group === undefined || group.is('Empty'))
      throw kafkaError('UNKNOWN_MEMBER_ID', `member ${request.memberId} is not in group ${groupId}`)
    if (group.is('Dead')) throw kafkaError('COORDINATOR_NOT_AVAILABLE', `group ${groupId} is dead`)
    const member = group.requireMember(request.memberId, request.groupInstanceId)
    this.#checkGeneration(group, request.generationId)
    if (
      (request.protocolType !== '' && group.protocolType !== undefined && request.protocolType !== group.protocolType) ||
      (request.protocolName !== '' && group.protocolName !== undefined && request.protocolName !== group.protocolName)
    ) {
      throw kafkaError(
        'INCONSISTENT_GROUP_PROTOCOL',
        `SyncGroup names ${request.protocolType}/${request.protocolName}, group ${groupId} uses ${group.protocolType ?? ''}/${group.protocolName ?? ''}`
      )
    }
    member.lastSeenMs = this.#timers.now()
    if (group.is('PreparingRebalance')) throw kafkaError('REBALANCE_IN_PROGRESS', `group ${groupId} is rebalancing`)
    if (group.is('Stable')) {
      this.#removePendingSync(group, member.memberId)
      return member.assignment
    }
    // CompletingRebalance: park until the leader's assignment arrives.
    const answer = deferred<Buffer>()
    member.awaitSync(answer)
    this.#removePendingSync(group, member.memberId)
    if (group.isLeader(member.memberId)) {
      const assignments = new Map(request.assignments.map(a => [a.memberId, a.assignment]))
      for (const m of group.members) m.assignment = assignments.get(m.memberId) ?? EMPTY_ASSIGNMENT
      this.#propagateAssignment(group)
      group.transitionTo('Stable')
    }
    return await answer.promise
  }

  heartbeat(groupId: string, generation: GroupGeneration): void {
    const group = this.#groups.get(groupId)
    if (group === undefined) throw kafkaError('UNKNOWN_MEMBER_ID', `group ${groupId} does not exist`)
    if (group.is('Dead')) throw kafkaError('COORDINATOR_NOT_AVAILABLE', `group ${groupId} is dead`)
    const member = group.requireMember(generation.memberId, generation.groupInstanceId)
    this.#checkGeneration(group, generation.generationId)
    if (group.is('Empty')) throw kafkaError('UNKNOWN_MEMBER_ID', `group ${groupId} is empty`)
    this.#rescheduleHeartbeat(group, member)
    if (group.is('PreparingRebalance')) throw kafkaError('REBALANCE_IN_PROGRESS', `group ${groupId} is rebalancing`)
  }

  /** LeaveGroup; a static member may be named by its group instance id alone (member id ''). */
  leaveGroup(groupId: string, leaving: { readonly memberId: string; readonly groupInstanceId?: string | undefined }): void {
    const group = this.#groups.get(groupId)
    if (group === undefined) throw kafkaError('UNKNOWN_MEMBER_ID', `group ${groupId} does not exist`)
    if (group.is('Dead')) throw kafkaError('COORDINATOR_NOT_AVAILABLE', `group ${groupId} is dead`)
    const byInstance =
      leaving.memberId === '' && leaving.groupInstanceId !== undefined ? group.staticMemberId(leaving.groupInstanceId) : undefined
    const member =
      byInstance !== undefined ? group.requireMember(byInstance) : group.requireMember(leaving.memberId, leaving.groupInstanceId)
    this.#removeMember(group, member)
    if (group.is('Stable') || group.is('CompletingRebalance')) this.#maybePrepareRebalanceOrCompleteJoin(group)
    else if (group.is('PreparingRebalance')) this.#maybeCompleteJoinPhase(group)
  }

  /** Removes a member as its session expiring would. */
  evictMember(groupId: string, memberId: string): void {
    const member = this.#groups.get(groupId)?.member(memberId)
    if (member === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `evictMember: no member ${memberId} in group ${groupId}`)
    this.#removeMemberAndUpdateGroup(this.#groups.get(groupId)!, member)
  }

  /**
   * The membership checks of OffsetCommit and TxnOffsetCommit; returns the group (a commit with
   * generation -1 creates an Empty group). A plain commit in Stable or PreparingRebalance keeps
   * the member's session alive.
   */
  validateOffsetCommit(groupId: string, generation: GroupGeneration, isTransactional: boolean): ClassicGroup {
    let group = this.#groups.get(groupId)
    if (group === undefined) {
      if (generation.generationId >= 0) throw kafkaError('ILLEGAL_GENERATION', `group ${groupId} does not exist`)
      group = new ClassicGroup(groupId)
      this.#groups.set(groupId, group)
    }
    group.validateOffsetCommit(generation.memberId, generation.groupInstanceId, generation.generationId, isTransactional)
    const member = group.member(generation.memberId)
    if (!isTransactional && member !== undefined && (group.is('Stable') || group.is('PreparingRebalance'))) {
      this.#rescheduleHeartbeat(group, member)
    }
    return group
  }

  /** Marks every group Dead (the coordinator is gone); timers are the caller's to cancel. */
  close(): void {
    for (const group of this.#groups.values()) {
      for (const m of group.members) {
        m.completeJoin(kafkaError('COORDINATOR_NOT_AVAILABLE', 'the coordinator shut down'))
        m.completeSync(kafkaError('COORDINATOR_NOT_AVAILABLE', 'the coordinator shut down'))
      }
      if (!group.is('Dead')) group.transitionTo('Dead')
    }
  }

  #joinNewMember(group: ClassicGroup, clientId: string, request: JoinGroupRequest, answer: Deferred<JoinGroupResponse>): void {
    const member = new GroupMember({
      // Kafka names a member after its group instance id, or else its client id.
      memberId: `${request.groupInstanceId ?? clientId}-${randomUUID()}`,
      clientId,
      groupInstanceId: request.groupInstanceId,
      protocolType: request.protocolType,
      protocols: request.protocols,
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      nowMs: this.#timers.now()
    })
    member.isNew = true
    if (group.is('PreparingRebalance') && group.previousState === 'Empty') group.newMemberAdded = true
    group.add(member)
    member.awaitJoin(answer)
    // A new member cannot heartbeat while it waits: it expires on the new-member join timeout instead.
    this.#scheduleHeartbeat(group, member, this.#o.newMemberJoinTimeoutMs)
    this.#maybePrepareRebalanceOrCompleteJoin(group)
  }

  /**
   * A known static member joins without its member id (it restarted): it takes over the old
   * member's place under a new id. In a Stable group whose protocol stays the same there is no
   * rebalance: it gets the current generation back, as a follower (the port has no skipAssignment).
   */
  #rejoinStaticMember(
    group: ClassicGroup,
    clientId: string,
    oldMemberId: string,
    request: JoinGroupRequest,
    answer: Deferred<JoinGroupResponse>
  ): void {
    const previousLeader = group.leaderId
    this.#timers.cancel(heartbeatKey(group.groupId, oldMemberId))
    const member = group.replaceStaticMember(request.groupInstanceId!, oldMemberId, {
      memberId: `${request.groupInstanceId!}-${randomUUID()}`,
      clientId,
      nowMs: this.#timers.now()
    })
    this.#rescheduleHeartbeat(group, member)
    group.updateProtocols(member, request.protocols)
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs
    member.sessionTimeoutMs = request.sessionTimeoutMs
    member.awaitJoin(answer)
    if (group.is('Stable') && group.selectProtocol() === group.protocolName) {
      member.completeJoin({
        generationId: group.generationId,
        protocolName: group.protocolName,
        leaderId: previousLeader ?? '',
        memberId: member.memberId,
        members: []
      })
    } else if (group.is('CompletingRebalance')) {
      this.#prepareRebalance(group)
    } else {
      this.#maybePrepareRebalanceOrCompleteJoin(group)
    }
  }

  #joinExistingMember(group: ClassicGroup, request: JoinGroupRequest, answer: Deferred<JoinGroupResponse>): void {
    let member: GroupMember
    try {
      member = group.requireMember(request.memberId, request.groupInstanceId)
    } catch (error) {
      answer.reject(error as Error)
      return
    }
    member.lastSeenMs = this.#timers.now()
    switch (group.state) {
      case 'PreparingRebalance':
        this.#updateMemberThenRebalanceOrCompleteJoin(group, member, request, answer)
        return
      case 'CompletingRebalance':
        // Same metadata: it missed the JoinGroup answer; give it again. Changed: rebalance again.
        if (member.matches(request.protocols)) answer.resolve(this.#joinResponse(group, member))
        else this.#updateMemberThenRebalanceOrCompleteJoin(group, member, request, answer)
        return
      case 'Stable':
        // The leader rejoining, or a member with new metadata, starts a rebalance; a follower
        // rejoining with the same metadata just gets the current generation back.
        if (group.isLeader(member.memberId) || !member.matches(request.protocols)) {
          this.#updateMemberThenRebalanceOrCompleteJoin(group, member, request, answer)
        } else {
          answer.resolve(this.#joinResponse(group, member))
        }
        return
      default:
        answer.reject(kafkaError('UNKNOWN_MEMBER_ID', `group ${group.groupId} is ${group.state}`))
    }
  }

  #updateMemberThenRebalanceOrCompleteJoin(
    group: ClassicGroup,
    member: GroupMember,
    request: JoinGroupRequest,
    answer: Deferred<JoinGroupResponse>
  ): void {
    group.updateProtocols(member, request.protocols)
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs
    member.sessionTimeoutMs = request.sessionTimeoutMs
    member.awaitJoin(answer)
    this.#maybePrepareRebalanceOrCompleteJoin(group)
  }

  #maybePrepareRebalanceOrCompleteJoin(group: ClassicGroup): void {
    if (group.canRebalance()) this.#prepareRebalance(group)
    else this.#maybeCompleteJoinPhase(group)
  }

  #prepareRebalance(group: ClassicGroup): void {
    if (group.is('CompletingRebalance')) {
      // Members waiting in SyncGroup must rejoin.
      for (const m of group.members) {
        m.assignment = EMPTY_ASSIGNMENT
        if (m.completeSync(kafkaError('REBALANCE_IN_PROGRESS', `group ${group.groupId} is rebalancing again`)))
          this.#rescheduleHeartbeat(group, m)
      }
    }
    group.clearPendingSync()
    this.#timers.cancel(syncKey(group.groupId))
    const initial = group.is('Empty')
    if (initial) {
      // A new group: give the other members time to join (group.initial.rebalance.delay.ms).
      const delayMs = this.#o.initialRebalanceDelayMs
      const remainingMs = Math.max(group.rebalanceTimeoutMs() - delayMs, 0)
      this.#timers.schedule(joinKey(group.groupId), delayMs, () => this.#tryCompleteInitialRebalance(group, delayMs, remainingMs))
    }
    group.transitionTo('PreparingRebalance')
    if (initial) return
    if (group.hasAllMembersJoined()) this.#completeJoin(group)
    else this.#timers.schedule(joinKey(group.groupId), group.rebalanceTimeoutMs(), () => this.#completeJoin(group))
  }

  #tryCompleteInitialRebalance(group: ClassicGroup, delayMs: number, remainingMs: number): void {
    if (group.newMemberAdded && remainingMs !== 0) {
      group.newMemberAdded = false
      const nextDelayMs = Math.min(this.#o.initialRebalanceDelayMs, remainingMs)
      const nextRemainingMs = Math.max(remainingMs - delayMs, 0)
      this.#timers.schedule(joinKey(group.groupId), nextDelayMs, () =>
        this.#tryCompleteInitialRebalance(group, nextDelayMs, nextRemainingMs)
      )
    } else {
      this.#completeJoin(group)
    }
  }

  /** Completes the join phase early once every member rejoined (never during the initial delay). */
  #maybeCompleteJoinPhase(group: ClassicGroup): void {
    if (group.is('PreparingRebalance') && group.previousState !== 'Empty' && group.hasAllMembersJoined()) this.#completeJoin(group)
  }

  /** The join barrier falls: drop members that did not rejoin, start the next generation, answer every JoinGroup. */
  #completeJoin(group: ClassicGroup): void {
    if (!group.is('PreparingRebalance')) return
    this.#timers.cancel(joinKey(group.groupId))
    for (const m of group.notYetRejoinedDynamic()) {
      group.remove(m.memberId)
      this.#timers.cancel(heartbeatKey(group.groupId, m.memberId))
      m.completeSync(kafkaError('UNKNOWN_MEMBER_ID', `member ${m.memberId} did not rejoin group ${group.groupId} in time`))
    }
    if (!group.maybeElectNewJoinedLeader() && group.members.length > 0) {
      this.#timers.schedule(joinKey(group.groupId), group.rebalanceTimeoutMs(), () => this.#completeJoin(group))
      return
    }
    group.initNextGeneration()
    if (group.is('Empty')) return
    for (const m of group.members) {
      m.completeJoin(this.#joinResponse(group, m))
      this.#rescheduleHeartbeat(group, m)
      m.isNew = false
      group.addPendingSync(m.memberId)
    }
    const generationId = group.generationId
    this.#timers.schedule(syncKey(group.groupId), group.rebalanceTimeoutMs(), () => this.#expirePendingSync(group, generationId))
  }

  #joinResponse(group: ClassicGroup, member: GroupMember): JoinGroupResponse {
    return {
      generationId: group.generationId,
      protocolName: group.protocolName ?? '',
      leaderId: group.leaderId ?? '',
      memberId: member.memberId,
      members: group.isLeader(member.memberId) ? group.joinedMembers() : []
    }
  }

  #propagateAssignment(group: ClassicGroup): void {
    for (const m of group.members) {
      if (m.completeSync(m.assignment)) this.#rescheduleHeartbeat(group, m)
    }
  }

  #removePendingSync(group: ClassicGroup, memberId: string): void {
    group.removePendingSync(memberId)
    if (group.pendingSyncMembers.length === 0) this.#timers.cancel(syncKey(group.groupId))
  }

  /** Members that did not send SyncGroup within the rebalance timeout are removed; the group rebalances. */
  #expirePendingSync(group: ClassicGroup, generationId: number): void {
    if (generationId !== group.generationId || !(group.is('CompletingRebalance') || group.is('Stable'))) return
    const pending = group.pendingSyncMembers
    if (pending.length === 0) return
    for (const memberId of pending) {
      group.remove(memberId)
      this.#timers.cancel(heartbeatKey(group.groupId, memberId))
    }
    this.#prepareRebalance(group)
  }

  #rescheduleHeartbeat(group: ClassicGroup, member: GroupMember): void {
    member.lastSeenMs = this.#timers.now()
    this.#scheduleHeartbeat(group, member, member.sessionTimeoutMs)
  }

  #scheduleHeartbeat(group: ClassicGroup, member: GroupMember, timeoutMs: number): void {
    this.#timers.schedule(heartbeatKey(group.groupId, member.memberId), timeoutMs, () => this.#expireHeartbeat(group, member))
  }

  #expireHeartbeat(group: ClassicGroup, member: GroupMember): void {
    if (group.is('Dead') || group.member(member.memberId) !== member || member.hasSatisfiedHeartbeat) return
    this.#removeMemberAndUpdateGroup(group, member)
  }

  #removeMemberAndUpdateGroup(group: ClassicGroup, member: GroupMember): void {
    this.#removeMember(group, member)
    if (group.is('Stable') || group.is('CompletingRebalance')) this.#maybePrepareRebalanceOrCompleteJoin(group)
    else if (group.is('PreparingRebalance') && group.hasAllMembersJoined()) this.#completeJoin(group)
  }

  #removeMember(group: ClassicGroup, member: GroupMember): void {
    this.#timers.cancel(heartbeatKey(group.groupId, member.memberId))
    member.completeJoin(kafkaError('UNKNOWN_MEMBER_ID', `member ${member.memberId} was removed from group ${group.groupId}`))
    member.completeSync(kafkaError('UNKNOWN_MEMBER_ID', `member ${member.memberId} was removed from group ${group.groupId}`))
    group.remove(member.memberId)
  }

  #checkGeneration(group: ClassicGroup, generationId: number): void {
    if (generationId !== group.generationId) {
      throw kafkaError(
        'ILLEGAL_GENERATION',
        `generation ${generationId} of group ${group.groupId} is not the current one (${group.generationId})`
      )
    }
  }
}

const joinKey = (groupId: string): string => `join|${groupId}`
const syncKey = (groupId: string): string => `sync|${groupId}`
const heartbeatKey = (groupId: string, memberId: string): string => `heartbeat|${groupId}|${memberId}`
