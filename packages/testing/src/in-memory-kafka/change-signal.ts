/**
 * Wakes the requests that wait for the broker's state to change: fetch long-polls (new records, a
 * transaction ended, a leader moved, records deleted) and OffsetFetch with requireStable (a
 * transaction ended). Waiters re-check their condition after each notify.
 * @internal
 */
import type { BrokerTimers } from './broker-timers.js'

export class ChangeSignal {
  readonly #timers: BrokerTimers
  readonly #waiters = new Set<() => void>()

  constructor(timers: BrokerTimers) {
    this.#timers = timers
  }

  /** Resolves at the next notify(), or after `timeoutMs` when given. */
  async wait(timeoutMs?: number): Promise<void> {
    await new Promise<void>(resolve => {
      let cancel = (): void => {}
      const wake = (): void => {
        this.#waiters.delete(wake)
        cancel()
        resolve()
      }
      this.#waiters.add(wake)
      if (timeoutMs !== undefined) cancel = this.#timers.after(Math.max(0, timeoutMs), wake)
    })
  }

  notify(): void {
    for (const wake of [...this.#waiters]) wake()
  }
}
