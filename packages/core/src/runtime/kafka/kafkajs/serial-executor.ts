/**
 * Runs async tasks one at a time, in call order (a mutex without a lock object): the group
 * consumer's handlers, the producer's sends. A failed task does not stop the ones queued after it.
 */
export class SerialExecutor {
  #tail: Promise<unknown> = Promise.resolve()
  #running = 0

  /** Runs `task` after every task submitted before it has settled. */
  run<T> (task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(async () => {
      this.#running++
      try {
        return await task()
      } finally {
        this.#running--
      }
    })
    this.#tail = result.catch(() => undefined)
    return result
  }

  /** True while a task is executing (not merely queued). */
  get busy (): boolean {
    return this.#running > 0
  }

  /** Resolves once everything submitted so far has settled. */
  async idle (): Promise<void> {
    await this.#tail
  }
}
