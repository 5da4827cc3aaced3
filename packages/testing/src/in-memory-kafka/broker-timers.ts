/**
 * The broker's timers, on an injected Scheduler: keyed timers that replace each other as Kafka's
 * coordinator timer does (one heartbeat expiry per member, one join and one sync deadline per
 * group), plain one-off timers and sleeps. close() cancels every one of them.
 * @internal
 */
import type { Scheduler } from './scheduler.js'

export class BrokerTimers {
  readonly #scheduler: Scheduler
  readonly #keyed = new Map<string, () => void>()
  readonly #oneOff = new Set<() => void>()
  #closed = false

  constructor(scheduler: Scheduler) {
    this.#scheduler = scheduler
  }

  now(): number {
    return this.#scheduler.milliseconds()
  }

  /** Schedules `task` under `key`, replacing (cancelling) whatever was scheduled under it. */
  schedule(key: string, delayMs: number, task: () => void): void {
    this.cancel(key)
    if (this.#closed) return
    const cancel = this.#scheduler.schedule(delayMs, () => {
      if (this.#keyed.get(key) !== cancel) return
      this.#keyed.delete(key)
      task()
    })
    this.#keyed.set(key, cancel)
  }

  cancel(key: string): void {
    const cancel = this.#keyed.get(key)
    if (cancel === undefined) return
    this.#keyed.delete(key)
    cancel()
  }

  isScheduled(key: string): boolean {
    return this.#keyed.has(key)
  }

  /** A one-off timer; the returned function cancels it. */
  after(delayMs: number, task: () => void): () => void {
    if (this.#closed) return () => {}
    let cancel: () => void = () => {}
    const wrapped = (): void => {
      this.#oneOff.delete(cancel)
      task()
    }
    const inner = this.#scheduler.schedule(delayMs, wrapped)
    cancel = () => {
      this.#oneOff.delete(cancel)
      inner()
    }
    this.#oneOff.add(cancel)
    return cancel
  }

  async sleep(ms: number): Promise<void> {
    await new Promise<void>(resolve => {
      this.after(ms, resolve)
    })
  }

  close(): void {
    this.#closed = true
    for (const cancel of [...this.#keyed.values(), ...this.#oneOff]) cancel()
    this.#keyed.clear()
    this.#oneOff.clear()
  }
}
