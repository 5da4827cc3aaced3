/**
 * One classic consumer group's metadata (Kafka's ClassicGroup): its state as a transition table
 * (Empty, PreparingRebalance, CompletingRebalance, Stable, Dead), generation, protocol type and
 * chosen protocol, leader, members and the members that still owe a SyncGroup. The protocol rules
 * that move it live in GroupCoordinator.
 * @internal
 */
import { IllegalStateError } from '@kstreams/core'
import type { JoinedMember } from '@kstreams/core'
import { GroupMember } from './group-member.js'
import type { MemberProtocol } from './group-member.js'
import { kafkaError } from './request-errors.js'

/** The states of a group in Kafka's classic group protocol (ClassicGroupState). */
export type ClassicGroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead'

/** The states a group may enter each state from (ClassicGroupState.validPreviousStates). */
const VALID_PREVIOUS: Record<ClassicGroupState, readonly ClassicGroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead']
}

export class ClassicGroup {
  readonly groupId: string
  #state: ClassicGroupState = 'Empty'
  #previousState: ClassicGroupState = 'Dead'
  #generationId = 0
  #protocolType: string | undefined
  #protocolName: string | undefined
  #leaderId: string | undefined
  readonly #members = new Map<string, GroupMember>()
  /** How many members support each protocol name. */
  readonly #supported = new Map<string, number>()
  readonly #pendingSync = new Set<string>()
  /** Static members: group.instance.id -> member id. */
  readonly #staticMembers = new Map<string, string>()
  /** A new member joined during the initial rebalance (extends the initial delay). */
  newMemberAdded = false

  constructor(groupId: string) {
    this.groupId = groupId
  }

  get state(): ClassicGroupState {
    return this.#state
  }
  get previousState(): ClassicGroupState {
    return this.#previousState
  }
  get generationId(): number {
    return this.#generationId
  }
  get protocolType(): string | undefined {
    return this.#protocolType
  }
  get protocolName(): string | undefined {
    return this.#protocolName
  }
  get leaderId(): string | undefined {
    return this.#leaderId
  }
  get members(): readonly GroupMember[] {
    return [...this.#members.values()]
  }
  get pendingSyncMembers(): readonly string[] {
    return [...this.#pendingSync]
  }

  is(state: ClassicGroupState): boolean {
    return this.#state === state
  }

  transitionTo(state: ClassicGroupState): void {
    if (!VALID_PREVIOUS[state].includes(this.#state)) {
      throw new IllegalStateError(`group ${this.groupId} cannot move from ${this.#state} to ${state}`)
    }
    this.#previousState = this.#state
    this.#state = state
  }

  /** Whether a rebalance can start from the current state. */
  canRebalance(): boolean {
    return VALID_PREVIOUS.PreparingRebalance.includes(this.#state)
  }

  member(memberId: string): GroupMember | undefined {
    return this.#members.get(memberId)
  }

  /**
   * Kafka's validateMember: the member, or UNKNOWN_MEMBER_ID; with a group instance id, also
   * FENCED_INSTANCE_ID when the instance id now belongs to another member id.
   */
  requireMember(memberId: string, groupInstanceId?: string): GroupMember {
    if (groupInstanceId !== undefined) {
      const current = this.#staticMembers.get(groupInstanceId)
      if (current === undefined) throw kafkaError('UNKNOWN_MEMBER_ID', `no static member ${groupInstanceId} in group ${this.groupId}`)
      if (current !== memberId)
        throw kafkaError(
          'FENCED_INSTANCE_ID',
          `static member ${groupInstanceId} of group ${this.groupId} is ${current} now, not ${memberId}`
        )
    }
    const member = this.#members.get(memberId)
    if (member === undefined)
      throw kafkaError('UNKNOWN_MEMBER_ID', `${memberId === '' ? 'no member id' : `member ${memberId}`} in group ${this.groupId}`)
    return member
  }

  staticMemberId(groupInstanceId: string): string | undefined {
    return this.#staticMembers.get(groupInstanceId)
  }

  /**
   * A static member rejoined without its member id (a restart): it gets `newMemberId` and keeps
   * its assignment and leadership; requests of the old member id are fenced.
   */
  replaceStaticMember(
    groupInstanceId: string,
    oldMemberId: string,
    replacement: { memberId: string; clientId: string; nowMs: number }
  ): GroupMember {
    const old = this.#members.get(oldMemberId)
    if (old === undefined) throw new IllegalStateError(`group ${this.groupId}: no member ${oldMemberId} to replace`)
    const newMemberId = replacement.memberId
    const fenced = kafkaError('FENCED_INSTANCE_ID', `static member ${groupInstanceId} of group ${this.groupId} rejoined as ${newMemberId}`)
    old.completeJoin(fenced)
    old.completeSync(fenced)
    const member = new GroupMember({
      memberId: newMemberId,
      clientId: replacement.clientId,
      groupInstanceId,
      protocolType: old.protocolType,
      protocols: old.protocols,
      sessionTimeoutMs: old.sessionTimeoutMs,
      rebalanceTimeoutMs: old.rebalanceTimeoutMs,
      nowMs: replacement.nowMs
    })
    member.assignment = old.assignment
    this.#members.delete(oldMemberId)
    this.#members.set(newMemberId, member)
    this.#staticMembers.set(groupInstanceId, newMemberId)
    if (this.#leaderId === oldMemberId) this.#leaderId = newMemberId
    if (this.#pendingSync.delete(oldMemberId)) this.#pendingSync.add(newMemberId)
    return member
  }

  isLeader(memberId: string): boolean {
    return this.#leaderId === memberId
  }

  add(member: GroupMember): void {
    if (this.#members.size === 0) this.#protocolType = member.protocolType
    this.#leaderId ??= member.memberId
    this.#members.set(member.memberId, member)
    if (member.groupInstanceId !== undefined) this.#staticMembers.set(member.groupInstanceId, member.memberId)
    this.#count(member.protocols, 1)
  }

  /** Removes a member; a removed leader is succeeded by the first remaining member. */
  remove(memberId: string): void {
    const member = this.#members.get(memberId)
    if (member !== undefined) {
      this.#members.delete(memberId)
      this.#count(member.protocols, -1)
      if (member.groupInstanceId !== undefined && this.#staticMembers.get(member.groupInstanceId) === memberId)
        this.#staticMembers.delete(member.groupInstanceId)
    }
    if (this.#leaderId === memberId) this.#leaderId = this.#members.keys().next().value
    this.#pendingSync.delete(memberId)
  }

  updateProtocols(member: GroupMember, protocols: readonly MemberProtocol[]): void {
    this.#count(member.protocols, -1)
    member.protocols = protocols
    this.#count(protocols, 1)
  }

  /** Kafka's supportsProtocols: the type matches and at least one protocol is supported by every member. */
  supportsProtocols(protocolType: string, protocols: readonly MemberProtocol[]): boolean {
    if (this.#state === 'Empty') return protocolType !== '' && protocols.length > 0
    return this.#protocolType === protocolType && protocols.some(p => this.#supported.get(p.name) === this.#members.size)
  }

  hasAllMembersJoined(): boolean {
    return this.members.every(m => m.isAwaitingJoin)
  }

  /** Dynamic members that have not rejoined (static members keep their place across a missed rebalance). */
  notYetRejoinedDynamic(): GroupMember[] {
    return this.members.filter(m => !m.isAwaitingJoin && m.groupInstanceId === undefined)
  }

  /** Keeps the leader if it rejoined, else makes the first rejoined member leader; false when none rejoined. */
  maybeElectNewJoinedLeader(): boolean {
    if (this.#leaderId === undefined) return false
    if (this.#members.get(this.#leaderId)?.isAwaitingJoin === true) return true
    const joined = this.members.find(m => m.isAwaitingJoin)
    if (joined === undefined) return false
    this.#leaderId = joined.memberId
    return true
  }

  /** The group's rebalance timeout: the largest of its members'. */
  rebalanceTimeoutMs(): number {
    return this.members.reduce((max, m) => Math.max(max, m.rebalanceTimeoutMs), 0)
  }

  /** Next generation: CompletingRebalance with a protocol chosen by vote, or Empty without members. */
  initNextGeneration(): void {
    this.#generationId++
    if (this.#members.size > 0) {
      this.#protocolName = this.selectProtocol()
      this.transitionTo('CompletingRebalance')
    } else {
      this.#protocolName = undefined
      this.transitionTo('Empty')
    }
    this.#pendingSync.clear()
  }

  /** Every member with its metadata for the chosen protocol (the leader's JoinGroup answer). */
  joinedMembers(): JoinedMember[] {
    const protocol = this.#protocolName ?? ''
    return this.members.map(m => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata: m.metadata(protocol) }))
  }

  addPendingSync(memberId: string): void {
    this.#pendingSync.add(memberId)
  }

  removePendingSync(memberId: string): void {
    this.#pendingSync.delete(memberId)
  }

  clearPendingSync(): void {
    this.#pendingSync.clear()
  }

  /**
   * Kafka's validateOffsetCommit: a member of the current generation may commit (not while
   * CompletingRebalance, unless transactional); generation -1 without a member id only to an Empty group.
   */
  validateOffsetCommit(memberId: string, groupInstanceId: string | undefined, generationId: number, isTransactional: boolean): void {
    if (this.#state === 'Dead') throw kafkaError('COORDINATOR_NOT_AVAILABLE', `group ${this.groupId} is dead`)
    if (generationId < 0 && this.#state === 'Empty') return
    if (generationId >= 0 || memberId !== '' || groupInstanceId !== undefined) {
      this.requireMember(memberId, groupInstanceId)
      if (generationId !== this.#generationId) {
        throw kafkaError(
          'ILLEGAL_GENERATION',
          `generation ${generationId} of group ${this.groupId} is not the current one (${this.#generationId})`
        )
      }
    } else if (!isTransactional && this.#state !== 'Empty') {
      throw kafkaError('UNKNOWN_MEMBER_ID', `group ${this.groupId} is not empty: a commit needs a member id and generation`)
    }
    if (!isTransactional && this.#state === 'CompletingRebalance') {
      throw kafkaError('REBALANCE_IN_PROGRESS', `group ${this.groupId} is completing a rebalance`)
    }
  }

  /** Each member votes for its most preferred protocol among those every member supports; most votes wins. */
  selectProtocol(): string {
    const candidates = new Set([...this.#supported].filter(([, n]) => n === this.#members.size).map(([name]) => name))
    const votes = new Map<string, number>()
    for (const m of this.#members.values()) {
      const choice = m.vote(candidates)
      votes.set(choice, (votes.get(choice) ?? 0) + 1)
    }
    let best: [string, number] | undefined
    for (const entry of votes) if (best === undefined || entry[1] > best[1]) best = entry
    return best![0]
  }

  #count(protocols: readonly MemberProtocol[], delta: number): void {
    for (const p of protocols) this.#supported.set(p.name, (this.#supported.get(p.name) ?? 0) + delta)
  }
}
