/**
 * Runs async tasks one at a time, in call order (a mutex without a lock object): the producer's
 * sends and transaction steps, the admin's calls. A failed task does not stop the ones queued after it.
 */
export class SerialExecutor {
  #tail: Promise<unknown> = Promise.resolve()

  /** Runs `task` after every task submitted before it has settled. */
  run<T> (task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task)
    this.#tail = result.catch(() => undefined)
    return result
  }

  /** Resolves once everything submitted so far has settled. */
  async idle (): Promise<void> {
    await this.#tail
  }
}
