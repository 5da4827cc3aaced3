/**
 * Test doubles for the group consumer tests: a round-robin GroupAssignor whose userData the test
 * controls and observes, and GroupConsumerHandlers that record every call in order (and can be
 * told to do something inside a call).
 */
import type {
  FetchedBatch, GroupAssignor, GroupConsumerHandlers, GroupMemberSubscription, MemberAssignment, TopicPartition
} from '../../../../src/runtime/kafka/ports.js'

export interface RoundRobinOptions {
  readonly name?: string
  readonly subscriptionUserData?: (topics: readonly string[]) => Buffer
  readonly assignmentUserData?: (memberId: string, members: readonly GroupMemberSubscription[]) => Buffer
}

/** Partition p of every topic goes to member p % n (members sorted by id). Records what it saw. */
export class RoundRobinAssignor implements GroupAssignor {
  readonly name: string
  readonly seen: Array<{ members: GroupMemberSubscription[], partitionCounts: Map<string, number> }> = []
  readonly #options: RoundRobinOptions

  constructor (options: RoundRobinOptions = {}) {
    this.name = options.name ?? 'test-round-robin'
    this.#options = options
  }

  subscriptionUserData (topics: readonly string[]): Buffer {
    return this.#options.subscriptionUserData?.(topics) ?? Buffer.alloc(0)
  }

  async assign (members: readonly GroupMemberSubscription[], partitionCounts: ReadonlyMap<string, number>): Promise<Map<string, MemberAssignment>> {
    this.seen.push({ members: [...members], partitionCounts: new Map(partitionCounts) })
    const sorted = [...members].sort((a, b) => a.memberId.localeCompare(b.memberId))
    const plan = new Map<string, TopicPartition[]>(sorted.map(m => [m.memberId, []]))
    for (const [topic, count] of [...partitionCounts].sort()) {
      for (let p = 0; p < count; p++) plan.get(sorted[p % sorted.length]!.memberId)!.push({ topic, partition: p })
    }
    return new Map([...plan].map(([memberId, partitions]) => [memberId, {
      partitions,
      userData: this.#options.assignmentUserData?.(memberId, members) ?? Buffer.alloc(0)
    }]))
  }
}

export type HandlerEvent =
  | { type: 'revoked', partitions: TopicPartition[], at: number, end: number }
  | { type: 'assigned', assignment: MemberAssignment, at: number }
  | { type: 'batch', batch: FetchedBatch, at: number }
  | { type: 'idle', at: number }
  | { type: 'fatal', error: Error, at: number }

export interface RecordingHooks {
  onRevoked?: (partitions: readonly TopicPartition[]) => Promise<void>
  onAssigned?: (assignment: MemberAssignment) => Promise<void>
  onBatch?: (batch: FetchedBatch) => Promise<void>
  onIdle?: () => Promise<void>
}

/** Records every handler call; `active` counts calls in progress (to catch overlaps). */
export class RecordingHandlers implements GroupConsumerHandlers {
  readonly events: HandlerEvent[] = []
  hooks: RecordingHooks = {}
  active = 0
  maxActive = 0

  async onPartitionsRevoked (revoked: readonly TopicPartition[]): Promise<void> {
    const at = Date.now()
    await this.#track(async () => { await this.hooks.onRevoked?.(revoked) })
    this.events.push({ type: 'revoked', partitions: [...revoked], at, end: Date.now() })
  }

  async onPartitionsAssigned (assignment: MemberAssignment): Promise<void> {
    this.events.push({ type: 'assigned', assignment, at: Date.now() })
    await this.#track(async () => { await this.hooks.onAssigned?.(assignment) })
  }

  async onBatch (batch: FetchedBatch): Promise<void> {
    this.events.push({ type: 'batch', batch, at: Date.now() })
    await this.#track(async () => { await this.hooks.onBatch?.(batch) })
  }

  async onIdle (): Promise<void> {
    this.events.push({ type: 'idle', at: Date.now() })
    await this.#track(async () => { await this.hooks.onIdle?.() })
  }

  onFatal (error: Error): void {
    this.events.push({ type: 'fatal', error, at: Date.now() })
  }

  batches (): FetchedBatch[] {
    return this.events.flatMap(e => e.type === 'batch' ? [e.batch] : [])
  }

  values (): string[] {
    return this.batches().flatMap(b => b.records.map(r => r.value?.toString() ?? 'null'))
  }

  assignments (): MemberAssignment[] {
    return this.events.flatMap(e => e.type === 'assigned' ? [e.assignment] : [])
  }

  lastAssignment (): MemberAssignment | undefined {
    return this.assignments().at(-1)
  }

  /** The events in order, one short line each: what a failed wait prints. */
  summary (): string {
    return this.events.map(e => {
      switch (e.type) {
        case 'batch': return `batch ${e.batch.partition}@${e.batch.nextOffset}[${e.batch.records.map(r => r.value?.toString() ?? 'null').join(',')}]`
        case 'assigned': return `assigned ${partitionKeys(e.assignment.partitions).join(',')}`
        case 'revoked': return `revoked ${partitionKeys(e.partitions).join(',')}`
        case 'fatal': return `fatal ${e.error.message}`
        default: return e.type
      }
    }).join(' ')
  }

  count (type: HandlerEvent['type']): number {
    return this.events.filter(e => e.type === type).length
  }

  async #track (fn: () => Promise<void>): Promise<void> {
    this.active++
    this.maxActive = Math.max(this.maxActive, this.active)
    try {
      await fn()
    } finally {
      this.active--
    }
  }
}

export function noopAssignor (): GroupAssignor {
  return new RoundRobinAssignor()
}

export function noopHandlers (): GroupConsumerHandlers {
  return new RecordingHandlers()
}

export const partitionKeys = (partitions: readonly TopicPartition[]): string[] =>
  partitions.map(p => `${p.topic}-${p.partition}`).sort()
