/**
 * Calls a group member's handlers one at a time (onPartitionsRevoked, onPartitionsAssigned,
 * onBatch, onIdle never overlap) and is the source of truth for what the adapter considers
 * assigned and paused. Owns the idle timer: onIdle runs when no handler has run for
 * `idleIntervalMs`, never during a rebalance. The first handler error is fatal: no handler runs
 * after it, and `onFailure` is told once.
 */
import type { Clock } from '../../../clock.js'
import { tpKey, type FetchedBatch, type GroupConsumerHandlers, type MemberAssignment, type TopicPartition } from '../ports.js'
import { SerialExecutor } from './serial-executor.js'

export interface GroupHandlerDispatcherOptions {
  readonly handlers: GroupConsumerHandlers
  readonly idleIntervalMs: number
  readonly clock: Clock
  /** Told once, on the first handler error. */
  readonly onFailure: (error: unknown) => void
}

export class GroupHandlerDispatcher {
  readonly #handlers: GroupConsumerHandlers
  readonly #idleIntervalMs: number
  readonly #clock: Clock
  readonly #onFailure: (error: unknown) => void
  readonly #executor = new SerialExecutor()
  readonly #assigned = new Map<string, TopicPartition>()
  readonly #paused = new Map<string, TopicPartition>()
  /** True until the first assignment and from a revocation until the next assignment. */
  #rebalancing = true
  #closed = false
  #failed = false
  #idleTimer: NodeJS.Timeout | undefined
  #lastActivity: number

  constructor (options: GroupHandlerDispatcherOptions) {
    this.#handlers = options.handlers
    this.#idleIntervalMs = options.idleIntervalMs
    this.#clock = options.clock
    this.#onFailure = options.onFailure
    this.#lastActivity = options.clock.milliseconds()
  }

  get failed (): boolean {
    return this.#failed
  }

  get active (): boolean {
    return !this.#closed && !this.#failed
  }

  assignment (): TopicPartition[] {
    return [...this.#assigned.values()]
  }

  isAssigned (tp: TopicPartition): boolean {
    return this.#assigned.has(tpKey(tp.topic, tp.partition))
  }

  isPaused (tp: TopicPartition): boolean {
    return this.#paused.has(tpKey(tp.topic, tp.partition))
  }

  markPaused (tp: TopicPartition, paused: boolean): void {
    const key = tpKey(tp.topic, tp.partition)
    if (paused) this.#paused.set(key, { topic: tp.topic, partition: tp.partition })
    else this.#paused.delete(key)
  }

  /**
   * Eager revocation: everything assigned is given up. Returns the partitions that were paused;
   * the caller resumes them in the client, since pause state belongs to an assignment.
   */
  async revoked (partitions: readonly TopicPartition[]): Promise<TopicPartition[]> {
    this.#rebalancing = true
    this.#stopIdleTimer()
    return await this.#executor.run(async () => {
      if (this.active) await this.#call(async () => { await this.#handlers.onPartitionsRevoked(partitions) })
      const paused = [...this.#paused.values()]
      this.#assigned.clear()
      this.#paused.clear()
      return paused
    })
  }

  /** The member lost its partitions without a clean revocation (crash and re-join). */
  async lost (): Promise<TopicPartition[]> {
    return await this.revoked(this.assignment())
  }

  async assigned (assignment: MemberAssignment): Promise<void> {
    await this.#executor.run(async () => {
      this.#assigned.clear()
      for (const tp of assignment.partitions) this.#assigned.set(tpKey(tp.topic, tp.partition), tp)
      if (this.active) await this.#call(async () => { await this.#handlers.onPartitionsAssigned(assignment) })
      this.#lastActivity = this.#clock.milliseconds()
    })
    this.#rebalancing = false
    this.#scheduleIdle()
  }

  /**
   * Hands a fetched batch to onBatch unless its partition is no longer assigned, is paused, or
   * `isCurrent()` says the batch went stale while waiting. Resolves true when it was delivered.
   */
  async batch (tp: TopicPartition, isCurrent: () => boolean, build: () => FetchedBatch): Promise<boolean> {
    return await this.#executor.run(async () => {
      if (!this.active || this.#rebalancing || !isCurrent() || !this.isAssigned(tp) || this.isPaused(tp)) return false
      const ok = await this.#call(async () => { await this.#handlers.onBatch(build()) })
      this.#lastActivity = this.#clock.milliseconds()
      return ok
    })
  }

  /** Reports a failure outside the handlers (e.g. the client crashed for good). */
  fail (error: unknown): void {
    if (this.#failed || this.#closed) return
    this.#failed = true
    this.#stopIdleTimer()
    this.#onFailure(error)
  }

  /** No handler starts after this; resolves when the running one (if any) has finished. */
  async close (): Promise<void> {
    this.#closed = true
    this.#stopIdleTimer()
    await this.#executor.idle()
  }

  /** Resolves when every handler call submitted so far has finished. */
  async drain (): Promise<void> {
    await this.#executor.idle()
  }

  async #call (fn: () => Promise<void>): Promise<boolean> {
    try {
      await fn()
      return true
    } catch (error) {
      this.fail(error)
      return false
    }
  }

  #scheduleIdle (): void {
    this.#stopIdleTimer()
    if (!this.active || this.#rebalancing) return
    const due = this.#lastActivity + this.#idleIntervalMs - this.#clock.milliseconds()
    this.#idleTimer = setTimeout(() => { void this.#runIdle() }, Math.max(0, due))
  }

  #stopIdleTimer (): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer)
    this.#idleTimer = undefined
  }

  async #runIdle (): Promise<void> {
    this.#idleTimer = undefined
    await this.#executor.run(async () => {
      if (!this.active || this.#rebalancing) return
      if (this.#clock.milliseconds() - this.#lastActivity < this.#idleIntervalMs) return
      await this.#call(async () => { await this.#handlers.onIdle() })
      this.#lastActivity = this.#clock.milliseconds()
    })
    if (this.#idleTimer === undefined) this.#scheduleIdle()
  }
}
