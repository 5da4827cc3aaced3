/**
 * One member of a classic group as the coordinator keeps it (Kafka's ClassicGroupMember): its
 * protocols with their metadata, timeouts, current assignment, and the JoinGroup or SyncGroup
 * request it has parked at the coordinator, if any.
 * @internal
 */
import { IllegalStateError } from '@kstreams/core'
import type { JoinGroupResponse, KafkaRequestError } from '@kstreams/core'
import type { Deferred } from './deferred.js'
import { kafkaError } from './request-errors.js'

export interface MemberProtocol {
  readonly name: string
  readonly metadata: Buffer
}

export const EMPTY_ASSIGNMENT = Buffer.alloc(0)

export class GroupMember {
  readonly memberId: string
  readonly clientId: string
  readonly groupInstanceId: string | undefined
  readonly protocolType: string
  protocols: readonly MemberProtocol[]
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  assignment: Buffer = EMPTY_ASSIGNMENT
  /** Joined but not yet through a completed join phase (expires on the new-member timeout even while it waits). */
  isNew = false
  /** When the coordinator last heard from the member (join, sync, heartbeat, commit). */
  lastSeenMs: number
  #join: Deferred<JoinGroupResponse> | undefined
  #sync: Deferred<Buffer> | undefined

  constructor(options: {
    memberId: string
    clientId: string
    groupInstanceId: string | undefined
    protocolType: string
    protocols: readonly MemberProtocol[]
    sessionTimeoutMs: number
    rebalanceTimeoutMs: number
    nowMs: number
  }) {
    this.memberId = options.memberId
    this.clientId = options.clientId
    this.groupInstanceId = options.groupInstanceId
    this.protocolType = options.protocolType
    this.protocols = options.protocols
    this.sessionTimeoutMs = options.sessionTimeoutMs
    this.rebalanceTimeoutMs = options.rebalanceTimeoutMs
    this.lastSeenMs = options.nowMs
  }

  get isAwaitingJoin(): boolean {
    return this.#join !== undefined
  }

  get isAwaitingSync(): boolean {
    return this.#sync !== undefined
  }

  /** Kafka's hasSatisfiedHeartbeat: an existing member parked in a rebalance needs no heartbeat. */
  get hasSatisfiedHeartbeat(): boolean {
    return !this.isNew && (this.isAwaitingJoin || this.isAwaitingSync)
  }

  /** Parks a JoinGroup; a JoinGroup it replaces is answered REQUEST_TIMED_OUT (its client gave up on it). */
  awaitJoin(join: Deferred<JoinGroupResponse> | undefined): void {
    this.#join?.reject(kafkaError('REQUEST_TIMED_OUT', `JoinGroup of ${this.memberId} superseded by a newer one`))
    this.#join = join
  }

  awaitSync(sync: Deferred<Buffer>): void {
    this.#sync?.reject(kafkaError('REQUEST_TIMED_OUT', `SyncGroup of ${this.memberId} superseded by a newer one`))
    this.#sync = sync
  }

  /** Answers the parked JoinGroup; false when there is none. */
  completeJoin(result: JoinGroupResponse | KafkaRequestError): boolean {
    const join = this.#join
    if (join === undefined) return false
    this.#join = undefined
    if (result instanceof Error) join.reject(result)
    else join.resolve(result)
    return true
  }

  /** Answers the parked SyncGroup; false when there is none. */
  completeSync(result: Buffer | KafkaRequestError): boolean {
    const sync = this.#sync
    if (sync === undefined) return false
    this.#sync = undefined
    if (result instanceof Error) sync.reject(result)
    else sync.resolve(result)
    return true
  }

  /** Same protocols, in the same order, with the same metadata bytes. */
  matches(protocols: readonly MemberProtocol[]): boolean {
    return (
      protocols.length === this.protocols.length &&
      protocols.every((p, i) => p.name === this.protocols[i]!.name && p.metadata.equals(this.protocols[i]!.metadata))
    )
  }

  /** The member's most preferred protocol among `candidates`. */
  vote(candidates: ReadonlySet<string>): string {
    const choice = this.protocols.find(p => candidates.has(p.name))
    if (choice === undefined) throw new IllegalStateError(`member ${this.memberId} supports none of ${[...candidates].join(', ')}`)
    return choice.name
  }

  metadata(protocolName: string): Buffer {
    return this.protocols.find(p => p.name === protocolName)?.metadata ?? EMPTY_ASSIGNMENT
  }
}
