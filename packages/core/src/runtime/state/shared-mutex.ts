/**
 * A spin lock in one word of shared memory, for threads of one process (the task-lock table of an
 * instance and its worker threads). The word is 0 when free, else the owner's thread id + 1, so
 * a thread that ended while holding it (Worker.terminate() skips `finally`, a worker out of
 * memory is terminated wherever it is) can be told apart: whoever learns that the thread ended
 * (the thread that started it, on the worker's 'exit') calls `ended(thread)`, which frees the
 * word if that thread still holds it. What a critical section writes must therefore be safe to
 * leave half done.
 *
 * The thread that learns of ended threads must not wait for one forever: it would never see the
 * 'exit' that frees the lock. So it waits at most `maxWaitMs`, then gives up with a retriable
 * STATE_DIR_LOCKED; the others wait until the lock is free.
 * @internal
 */
import { threadId } from 'node:worker_threads'
import { StreamsError } from '../../errors.js'

const FREE = 0

export class SharedMutex {
  readonly #ints: Int32Array
  readonly #index: number
  readonly #maxWaitMs: number
  readonly #what: string

  /**
   * @param ints the shared memory; the lock is the word at `index`
   * @param maxWaitMs how long `run` waits for another thread before it gives up; Infinity: until the lock is free
   * @param what what the lock guards, for the error
   */
  constructor(ints: Int32Array, index: number, maxWaitMs: number, what: string) {
    this.#ints = ints
    this.#index = index
    this.#maxWaitMs = maxWaitMs
    this.#what = what
  }

  /** Runs `body` holding the lock. */
  run<T>(body: () => T): T {
    const me = threadId + 1
    this.#acquire(me)
    try {
      return body()
    } finally {
      Atomics.compareExchange(this.#ints, this.#index, me, FREE)
      Atomics.notify(this.#ints, this.#index, 1)
    }
  }

  /** Frees the lock if thread `thread`, which has ended, still holds it; true when it did. */
  ended(thread: number): boolean {
    if (Atomics.compareExchange(this.#ints, this.#index, thread + 1, FREE) !== thread + 1) return false
    Atomics.notify(this.#ints, this.#index)
    return true
  }

  #acquire(me: number): void {
    let deadline: number | undefined
    for (;;) {
      const owner = Atomics.compareExchange(this.#ints, this.#index, FREE, me)
      if (owner === FREE) return
      if (this.#maxWaitMs !== Infinity) {
        deadline ??= Date.now() + this.#maxWaitMs
        if (Date.now() >= deadline)
          throw new StreamsError(
            'STATE_DIR_LOCKED',
            `${this.#what} has been held by thread ${owner - 1} for more than ${this.#maxWaitMs} ms (a worker thread that ended while holding it is let go once its exit is seen)`,
            { retriable: true }
          )
      }
      Atomics.wait(this.#ints, this.#index, owner, 1)
    }
  }
}
