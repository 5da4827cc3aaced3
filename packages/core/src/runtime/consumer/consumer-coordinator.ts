/**
 * One member of a consumer group on Kafka's classic protocol, as Java's ConsumerCoordinator runs
 * it for Kafka Streams (eager rebalancing, a client-side assignor with userData). The source of
 * truth for the member's state, generation and owned partitions:
 *
 * - ensureActiveGroup() (called from the consumer's poll) rejoins when needed: first the
 *   rebalance listener's onPartitionsRevoked (still in the old generation, so commits succeed) or,
 *   when the membership is gone, onPartitionsLost (no commit); then JoinGroup with fresh
 *   subscription userData; the leader runs the assignor on every member's subscription; SyncGroup
 *   gives each member its own assignment; onPartitionsAssigned.
 * - Heartbeats run on their own timer from JoinGroup to the next rebalance, whatever the thread
 *   is doing. REBALANCE_IN_PROGRESS asks for a rejoin; UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION
 *   mean the membership is lost. A member that does not poll for maxPollIntervalMs leaves.
 * - After a gap longer than the session timeout (a stopped process, a blocked event loop), the
 *   membership is confirmed with a heartbeat before anything is processed or committed.
 * - commitOffsets() commits in the current generation; a commit the group rejects because the
 *   generation moved on is TASK_MIGRATED; transient errors are retried until defaultApiTimeoutMs.
 * @internal
 */
import { StreamsError } from '../../errors.js'
import type { Clock } from '../../clock.js'
import type { Logger } from '../../logger.js'
import { Lifecycle } from '../lifecycle.js'
import { isKafkaError } from '../kafka/kafka-request-error.js'
import type {
  CommittedOffset,
  GroupCoordinatorPort,
  GroupGeneration,
  JoinGroupResponse,
  TopicPartition,
  TopicPartitionOffset
} from '../kafka/ports.js'
import type { GroupAssignor, MemberAssignment, RebalanceListener } from './consumer-api.js'
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from './consumer-protocol.js'
import { Wakeup } from './wakeup.js'
import { backoffDelay, isRetriable, retrying } from '../retrying.js'

export type MemberState = 'UNJOINED' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE' | 'STABLE' | 'CLOSED'

const TRANSITIONS: Record<MemberState, readonly MemberState[]> = {
  UNJOINED: ['PREPARING_REBALANCE', 'CLOSED'],
  PREPARING_REBALANCE: ['COMPLETING_REBALANCE', 'UNJOINED', 'CLOSED'],
  COMPLETING_REBALANCE: ['STABLE', 'UNJOINED', 'CLOSED'],
  STABLE: ['PREPARING_REBALANCE', 'UNJOINED', 'CLOSED'],
  CLOSED: []
}

export const NO_GENERATION: GroupGeneration = Object.freeze({ generationId: -1, memberId: '' })

/** Errors after which the member is gone from the group (its partitions belong to others now). */
const MEMBERSHIP_LOST = ['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'FENCED_INSTANCE_ID'] as const

export interface ConsumerCoordinatorOptions {
  readonly port: GroupCoordinatorPort
  readonly groupId: string
  /** Names this member in logs (the consumer's client id). */
  readonly clientId: string
  readonly assignor: GroupAssignor
  readonly listener: RebalanceListener
  /** The topics to subscribe to, resolved at every join (a pattern is matched against the cluster's topics then). */
  readonly subscription: () => Promise<readonly string[]>
  /** Partition counts of existing topics, for the leader's assignor. */
  readonly partitionCounts: (topics: readonly string[]) => Promise<ReadonlyMap<string, number>>
  /** Told after SyncGroup, before the listener's onPartitionsAssigned (the consumer sets up fetching). */
  readonly onAssignment: (assignment: MemberAssignment) => void
  /** Told after the listener gave up the old partitions (the consumer stops fetching them). */
  readonly onAssignmentCleared: () => void
  /** Told when the member needs a rejoin or lost its membership, so a poll in progress returns. */
  readonly onRejoinNeeded: () => void
  readonly sessionTimeoutMs: number
  /** JoinGroup's rebalance timeout, also the poll timeout (max.poll.interval.ms). */
  readonly maxPollIntervalMs: number
  readonly heartbeatIntervalMs: number
  readonly retryBackoffMs: number
  readonly defaultApiTimeoutMs: number
  readonly clock: Clock
  readonly logger: Logger
}

export class ConsumerCoordinator {
  readonly #o: ConsumerCoordinatorOptions
  readonly #lifecycle: Lifecycle<MemberState>
  readonly #sleep = new Wakeup()
  #generation: GroupGeneration = NO_GENERATION
  #owned: TopicPartition[] = []
  /** Why the member must (re)join; undefined when it need not. */
  #rejoinReason: string | undefined = 'the member joins for the first time'
  /** The listener already gave up the partitions of the pending rejoin. */
  #joinPrepared = false
  /**
   * When the request was sent that the coordinator last answered for this membership: a lower
   * bound of when it last heard from the member, so the session cannot expire before this plus
   * the session timeout.
   */
  #heardFrom: number
  #lastPoll: number
  #heartbeatTimer: NodeJS.Timeout | undefined
  #heartbeatInFlight: Promise<void> | undefined
  /** Rejects when interrupt() is called: a pending JoinGroup or SyncGroup is abandoned. */
  readonly #interrupted: Promise<never>
  #rejectInterrupted: (error: Error) => void = () => {}
  #interruptCalled = false

  constructor(options: ConsumerCoordinatorOptions) {
    this.#o = options
    this.#lifecycle = new Lifecycle(`group member ${options.clientId}`, 'UNJOINED', TRANSITIONS)
    this.#heardFrom = options.clock.milliseconds()
    this.#lastPoll = this.#heardFrom
    this.#interrupted = new Promise<never>((_resolve, reject) => {
      this.#rejectInterrupted = reject
    })
    this.#interrupted.catch(() => undefined)
  }

  get state(): MemberState {
    return this.#lifecycle.state
  }
  #isClosed(): boolean {
    return this.#lifecycle.state === 'CLOSED'
  }
  get generation(): GroupGeneration {
    return this.#generation
  }
  get memberId(): string {
    return this.#generation.memberId
  }
  /** The partitions of the current assignment. */
  get owned(): readonly TopicPartition[] {
    return this.#owned
  }
  get rejoinNeeded(): boolean {
    return this.#rejoinReason !== undefined || this.state !== 'STABLE'
  }

  /** Asks for a rejoin at the next poll (Java's enforceRebalance(), a probing rebalance). */
  requestRejoin(reason: string): void {
    if (this.state === 'CLOSED') return
    this.#rejoinReason ??= reason
    this.#o.onRejoinNeeded()
  }

  /**
   * Makes sure the member is in the group with an assignment, rejoining (listener calls
   * included) when needed. Retries what can be retried until it succeeds or the member closes;
   * rejects with what cannot (and with what the listener threw).
   */
  async ensureActiveGroup(): Promise<void> {
    this.#lastPoll = this.#o.clock.milliseconds()
    await this.#confirmMembershipIfStale()
    let attempts = 0
    while (this.rejoinNeeded && this.state !== 'CLOSED' && !this.#interruptCalled) {
      if (!this.#joinPrepared) {
        await this.#onJoinPrepare()
        this.#joinPrepared = true
      }
      let assignment: MemberAssignment
      try {
        assignment = await this.#joinAndSync()
      } catch (error) {
        if (this.#isClosed() || this.#interruptCalled) return
        // What a member cannot recover from by rejoining (authorization, an inconsistent protocol, ...) is thrown.
        if (!isRetriableJoinError(error)) throw error
        this.#o.logger.info(`Group member ${this.#o.clientId} of ${this.#o.groupId}: rejoining after ${errorText(error)}`)
        await this.#sleep.wait(backoffDelay(this.#o.retryBackoffMs, attempts++))
        continue
      }
      this.#joinPrepared = false
      // Outside the retries: what the listener throws is the caller's (a retriable error of its own is no JoinGroup error).
      await this.#o.listener.onPartitionsAssigned(assignment)
      return
    }
  }

  /** Gives up the owned partitions: revoked while the generation is valid, lost when it is gone. */
  async #onJoinPrepare(): Promise<void> {
    const owned = this.#owned
    if (owned.length > 0) {
      if (this.#generation.generationId < 0) {
        this.#o.logger.info(
          `Group member ${this.#o.clientId} of ${this.#o.groupId}: partitions lost (${this.#rejoinReason ?? 'membership gone'})`
        )
        await this.#o.listener.onPartitionsLost(owned)
      } else {
        await this.#o.listener.onPartitionsRevoked(owned)
      }
    }
    this.#owned = []
    this.#o.onAssignmentCleared()
  }

  /** JoinGroup and SyncGroup; returns the new assignment (the listener is told by the caller). */
  async #joinAndSync(): Promise<MemberAssignment> {
    const topics = await this.#o.subscription()
    const reason = this.#rejoinReason
    this.#rejoinReason = undefined
    this.#stopHeartbeats()
    this.#lifecycle.transition('PREPARING_REBALANCE')
    let joined: JoinGroupResponse
    const joinSent = this.#o.clock.milliseconds()
    try {
      joined = await this.#orInterrupt(
        this.#o.port.joinGroup({
          memberId: this.#generation.memberId,
          sessionTimeoutMs: this.#o.sessionTimeoutMs,
          rebalanceTimeoutMs: this.#o.maxPollIntervalMs,
          protocolType: 'consumer',
          protocols: [
            {
              name: this.#o.assignor.name,
              metadata: encodeSubscription({ topics, userData: this.#o.assignor.subscriptionUserData(topics) })
            }
          ],
          reason
        })
      )
    } catch (error) {
      this.#onRebalanceError(error, 'JoinGroup', reason)
      throw error
    }
    this.#generation = { generationId: joined.generationId, memberId: joined.memberId }
    this.#lifecycle.transition('COMPLETING_REBALANCE')
    this.#heardFrom = joinSent
    this.#startHeartbeats()
    let bytes: Buffer
    let syncSent = joinSent
    try {
      const assignments = joined.leaderId === joined.memberId ? await this.#orInterrupt(this.#assign(joined)) : []
      syncSent = this.#o.clock.milliseconds()
      bytes = await this.#orInterrupt(
        this.#o.port.syncGroup({
          generationId: joined.generationId,
          memberId: joined.memberId,
          protocolType: 'consumer',
          protocolName: joined.protocolName,
          assignments
        })
      )
      if (this.state !== 'COMPLETING_REBALANCE') {
        // A heartbeat found the membership gone while the assignment was on its way.
        throw new StreamsError('KAFKA', `Group member ${this.#o.clientId}: membership lost during SyncGroup`, { retriable: true })
      }
    } catch (error) {
      this.#onRebalanceError(error, 'SyncGroup', reason)
      throw error
    }
    const assignment = decodeAssignment(bytes)
    this.#lifecycle.transition('STABLE')
    this.#heardFrom = Math.max(this.#heardFrom, syncSent)
    this.#owned = [...assignment.partitions]
    this.#o.logger.info(
      `Group member ${this.#o.clientId} joined ${this.#o.groupId} in generation ${joined.generationId}${joined.leaderId === joined.memberId ? ' as leader' : ''} with ${assignment.partitions.length} partition(s)`
    )
    this.#o.onAssignment(assignment)
    return assignment
  }

  /** Leader only: every member's subscription through the assignor. */
  async #assign(joined: JoinGroupResponse): Promise<Array<{ memberId: string; assignment: Buffer }>> {
    const members = joined.members.map(m => ({ memberId: m.memberId, ...decodeSubscription(m.metadata) }))
    const topics = new Set(members.flatMap(m => m.topics))
    const counts = await this.#o.partitionCounts([...topics])
    const plan = await this.#o.assignor.assign(members, counts)
    return members.map(m => ({ memberId: m.memberId, assignment: encodeAssignment(plan.get(m.memberId)) }))
  }

  /** A failed JoinGroup or SyncGroup: forget what the coordinator no longer knows, and rejoin. */
  #onRebalanceError(error: unknown, what: string, reason: string | undefined): void {
    if (this.state === 'CLOSED') return
    this.#stopHeartbeats()
    if (this.state !== 'UNJOINED') this.#lifecycle.transition('UNJOINED')
    this.#rejoinReason ??= reason ?? `${what} failed`
    if (isKafkaError(error, 'UNKNOWN_MEMBER_ID', 'FENCED_INSTANCE_ID')) this.#generation = NO_GENERATION
    else if (isKafkaError(error, 'ILLEGAL_GENERATION')) this.#generation = { generationId: -1, memberId: this.#generation.memberId }
  }

  /** The membership is gone: the next poll calls onPartitionsLost and rejoins. */
  #membershipLost(reason: string, resetMemberId: boolean): void {
    if (this.state === 'CLOSED') return
    this.#o.logger.warn(`Group member ${this.#o.clientId} of ${this.#o.groupId} lost its membership: ${reason}`)
    this.#generation = { generationId: -1, memberId: resetMemberId ? '' : this.#generation.memberId }
    this.#stopHeartbeats()
    if (this.state !== 'UNJOINED') this.#lifecycle.transition('UNJOINED')
    this.#rejoinReason ??= reason
    this.#o.onRejoinNeeded()
  }

  /** Whether an error from a group request means the membership is lost; if so, marks it lost. */
  #checkLost(error: unknown, generation: GroupGeneration, what: string): boolean {
    if (!isKafkaError(error, ...MEMBERSHIP_LOST)) return false
    if (generation === this.#generation)
      this.#membershipLost(`${what} answered ${error.errorName}`, error.errorName !== 'ILLEGAL_GENERATION')
    return true
  }

  #startHeartbeats(): void {
    this.#stopHeartbeats()
    const tick = (): void => {
      this.#heartbeatTimer = undefined
      void this.#heartbeat().finally(() => {
        if (this.#heartbeatTimer === undefined && (this.state === 'STABLE' || this.state === 'COMPLETING_REBALANCE')) {
          this.#heartbeatTimer = setTimeout(tick, this.#o.heartbeatIntervalMs)
          this.#heartbeatTimer.unref()
        }
      })
    }
    this.#heartbeatTimer = setTimeout(tick, this.#o.heartbeatIntervalMs)
    this.#heartbeatTimer.unref()
  }

  #stopHeartbeats(): void {
    if (this.#heartbeatTimer !== undefined) clearTimeout(this.#heartbeatTimer)
    this.#heartbeatTimer = undefined
  }

  /** One heartbeat (at most one in flight); also leaves the group when the member stopped polling. */
  async #heartbeat(): Promise<void> {
    if (this.state !== 'STABLE' && this.state !== 'COMPLETING_REBALANCE') return
    const now = this.#o.clock.milliseconds()
    if (this.state === 'STABLE' && now - this.#lastPoll > this.#o.maxPollIntervalMs) {
      await this.#leavePollTimeout()
      return
    }
    this.#heartbeatInFlight ??= this.#sendHeartbeat().finally(() => {
      this.#heartbeatInFlight = undefined
    })
    await this.#heartbeatInFlight
  }

  async #sendHeartbeat(): Promise<void> {
    const generation = this.#generation
    const sent = this.#o.clock.milliseconds()
    try {
      await this.#o.port.heartbeat(generation)
      if (generation === this.#generation) this.#heardFrom = Math.max(this.#heardFrom, sent)
    } catch (error) {
      if (generation !== this.#generation || this.state === 'CLOSED') return
      if (this.#checkLost(error, generation, 'Heartbeat')) return
      if (isKafkaError(error, 'REBALANCE_IN_PROGRESS')) {
        // The group is rebalancing: the member is still in its generation, so it rejoins the normal way.
        this.#heardFrom = Math.max(this.#heardFrom, sent)
        if (this.state === 'STABLE') this.requestRejoin('the group is rebalancing')
        return
      }
      this.#o.logger.debug(`Group member ${this.#o.clientId}: heartbeat failed (${errorText(error)})`)
    }
  }

  async #leavePollTimeout(): Promise<void> {
    const generation = this.#generation
    this.#o.logger.warn(
      `Group member ${this.#o.clientId} of ${this.#o.groupId} did not poll for ${this.#o.maxPollIntervalMs} ms (maxPollIntervalMs): leaving the group`
    )
    this.#membershipLost('the poll timeout expired', true)
    await this.#o.port.leaveGroup({ memberId: generation.memberId, reason: 'consumer poll timeout has expired' }).catch(() => undefined)
  }

  /**
   * Whether the coordinator may have evicted the member: it has not heard from it for half the
   * session timeout (a stopped process, a blocked event loop, an unreachable coordinator). Then
   * a heartbeat asks before anything more is processed, sent or committed in this generation.
   * Past the whole session timeout the member waits until the coordinator answers either way:
   * going on could write what the group's new owner of its tasks also writes.
   */
  async #confirmMembershipIfStale(): Promise<void> {
    const session = this.#o.sessionTimeoutMs
    for (let attempt = 0; this.state === 'STABLE' && !this.#interruptCalled; attempt++) {
      if (this.#o.clock.milliseconds() - this.#heardFrom <= session / 2) return
      this.#heartbeatInFlight ??= this.#sendHeartbeat().finally(() => {
        this.#heartbeatInFlight = undefined
      })
      await this.#heartbeatInFlight
      if (this.#o.clock.milliseconds() - this.#heardFrom <= session) return
      await this.#sleep.wait(backoffDelay(this.#o.retryBackoffMs, attempt))
    }
  }

  /**
   * Whether the member still holds a generation; after a gap without a successful heartbeat
   * longer than the session timeout it asks the coordinator first (it may have been evicted).
   */
  async confirmMembership(): Promise<boolean> {
    await this.#confirmMembershipIfStale()
    return this.#generation.generationId >= 0
  }

  /**
   * OffsetCommit in the current generation. TASK_MIGRATED when the group says the generation is
   * gone or rebalancing; transient errors are retried until defaultApiTimeoutMs, then the last
   * one is thrown (retriable).
   */
  async commitOffsets(offsets: ReadonlyArray<TopicPartitionOffset & { metadata?: string | undefined }>): Promise<void> {
    await this.#confirmMembershipIfStale()
    const generation = this.#generation
    if (this.state !== 'STABLE' || generation.generationId < 0) {
      throw new StreamsError(
        'TASK_MIGRATED',
        `Offset commit of group ${this.#o.groupId}: the member is not in a stable generation (${this.state})`
      )
    }
    await this.#retrying(`Offset commit of group ${this.#o.groupId}`, async () => {
      try {
        await this.#o.port.commitOffsets(generation, offsets)
      } catch (error) {
        if (this.#checkLost(error, generation, 'OffsetCommit') || isKafkaError(error, 'REBALANCE_IN_PROGRESS')) {
          if (isKafkaError(error, 'REBALANCE_IN_PROGRESS')) this.requestRejoin('the group is rebalancing')
          throw new StreamsError(
            'TASK_MIGRATED',
            `Offset commit of group ${this.#o.groupId} failed: the group moved on (${errorText(error)})`,
            { cause: error }
          )
        }
        throw error
      }
    })
  }

  /** OffsetFetch, retrying transient errors until defaultApiTimeoutMs. */
  async fetchCommittedOffsets(partitions: readonly TopicPartition[], requireStable = false): Promise<Map<string, CommittedOffset>> {
    if (partitions.length === 0) return new Map()
    return await this.#retrying(
      `Fetching committed offsets of group ${this.#o.groupId}`,
      async () => await this.#o.port.fetchCommittedOffsets(partitions, { requireStable })
    )
  }

  async #retrying<T>(what: string, request: () => Promise<T>): Promise<T> {
    return await retrying(request, {
      timeoutMs: this.#o.defaultApiTimeoutMs,
      backoffMs: this.#o.retryBackoffMs,
      clock: this.#o.clock,
      stopped: () => this.state === 'CLOSED',
      sleep: async ms => {
        await this.#sleep.wait(ms)
      },
      onRetry: error => {
        this.#o.logger.debug(`${what}: ${errorText(error)}; retrying`)
      }
    })
  }

  /**
   * Makes a rebalance in progress give up (a pending JoinGroup or SyncGroup is abandoned, a
   * backoff ends) and every later ensureActiveGroup() return at once: the thread is shutting down.
   */
  interrupt(): void {
    if (this.#interruptCalled) return
    this.#interruptCalled = true
    this.#rejectInterrupted(new StreamsError('ILLEGAL_STATE', `Group member ${this.#o.clientId} is shutting down`))
    this.#sleep.wake()
  }

  async #orInterrupt<T>(work: Promise<T>): Promise<T> {
    return await Promise.race([work, this.#interrupted])
  }

  /** Stops heartbeating and, when `leaveGroup`, sends LeaveGroup. The listener is not called. */
  async close(leaveGroup: boolean): Promise<void> {
    if (this.state === 'CLOSED') return
    const { memberId } = this.#generation
    this.#lifecycle.transition('CLOSED')
    this.#stopHeartbeats()
    this.#sleep.wake()
    await this.#heartbeatInFlight?.catch(() => undefined)
    if (leaveGroup && memberId !== '') {
      await this.#o.port.leaveGroup({ memberId, reason: 'the consumer is being closed' }).catch((error: unknown) => {
        this.#o.logger.debug(`Group member ${this.#o.clientId}: LeaveGroup failed (${errorText(error)})`)
      })
    }
    await this.#o.port.close()
  }
}

/** JoinGroup/SyncGroup errors after which the member simply tries again (after a backoff). */
function isRetriableJoinError(error: unknown): boolean {
  if (isKafkaError(error, 'UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS', 'MEMBER_ID_REQUIRED')) return true
  return isRetriable(error)
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
