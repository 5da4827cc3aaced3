/**
 * A wait that something else can cut short: `wait(ms)` resolves after `ms` or at the next
 * `wake()`, whichever comes first (Java's consumer wakeup, for a poll that must return because
 * a rebalance is needed or the consumer is closing). @internal
 */
export class Wakeup {
  #waiters = new Set<() => void>()

  async wait(ms: number): Promise<void> {
    if (ms <= 0) return
    await new Promise<void>(resolve => {
      const done = (): void => {
        clearTimeout(timer)
        this.#waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.#waiters.add(done)
    })
  }

  /** Ends every wait in progress. */
  wake(): void {
    for (const done of [...this.#waiters]) done()
  }
}
