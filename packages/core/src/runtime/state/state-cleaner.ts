/**
 * The state cleaner of a KafkaStreams instance (Kafka Streams' state-cleaner thread): every
 * `cleanupDelayMs` (`stateCleanupDelayMs`, Kafka's `state.cleanup.delay.ms`) it deletes the task
 * directories that no stream thread of the instance holds and that have not changed for that long
 * (StateDirectory.cleanRemovedTasks), so a task that returns much later restores from its
 * changelog instead of starting from stale local state. Runs while the instance holds the app
 * lock: stop() before the lock is let go. @internal
 */
import type { Clock } from '../../clock.js'
import type { Logger } from '../../logger.js'
import type { StateDirectory } from './state-directory.js'

export interface StateCleanerOptions {
  readonly stateDirectory: StateDirectory
  readonly cleanupDelayMs: number
  readonly clock: Clock
  readonly logger: Logger
}

export class StateCleaner {
  readonly #o: StateCleanerOptions
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined

  constructor(options: StateCleanerOptions) {
    this.#o = options
  }

  /** Cleans every cleanupDelayMs from now on (the first time one delay from now, as Kafka). */
  start(): void {
    if (this.#timer !== undefined) return
    this.#timer = setInterval(() => {
      this.#running ??= this.#clean().finally(() => {
        this.#running = undefined
      })
    }, this.#o.cleanupDelayMs)
    this.#timer.unref()
  }

  /** Stops cleaning; resolves once a clean in progress has ended. Idempotent. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#running
  }

  async #clean(): Promise<void> {
    const { stateDirectory, cleanupDelayMs, clock, logger } = this.#o
    try {
      const removed = await stateDirectory.cleanRemovedTasks(cleanupDelayMs, clock.milliseconds())
      for (const id of removed)
        logger.info(
          `Deleted the state directory of task ${id.toString()}: no thread of this instance has had the task for ${cleanupDelayMs} ms (stateCleanupDelayMs)`
        )
    } catch (err) {
      logger.warn(`The state cleaner could not clean ${stateDirectory.appDir}: ${String(err)}`)
    }
  }
}
