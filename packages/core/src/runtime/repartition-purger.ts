/**
 * Deletes the records of repartition topics that a stream thread's tasks have committed (Kafka
 * Streams' TaskManager.maybePurgeCommittedRecords): after a commit, at most every
 * `repartitionPurgeIntervalMs`, one DeleteRecords up to the committed offsets of the repartition
 * partitions the thread reads, unless the previous one is still running. A purge that fails is
 * logged and tried again at the next interval: the records stay, nothing is lost. @internal
 */
import type { Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import type { AdminPort, TopicPartitionOffset } from './kafka/ports.js'

export interface RepartitionPurgerOptions {
  readonly admin: Pick<AdminPort, 'deleteRecords'>
  /** The full names of the topology's repartition topics. */
  readonly repartitionTopics: ReadonlySet<string>
  /** `repartitionPurgeIntervalMs`. */
  readonly intervalMs: number
  readonly clock: Clock
  readonly logger: Logger
}

export class RepartitionPurger {
  readonly #o: RepartitionPurgerOptions
  #lastPurge: number
  #inFlight: Promise<void> | undefined
  /** What the last purge deleted up to, by `topic-partition`: unchanged partitions are not asked again. */
  readonly #purged = new Map<string, number>()

  constructor(options: RepartitionPurgerOptions) {
    this.#o = options
    this.#lastPurge = options.clock.milliseconds()
  }

  /**
   * Starts a purge when the interval has passed since the last one and none is running.
   * `committed`: the thread's committed offsets (the next offsets to read) of its input partitions.
   */
  maybePurge(committed: Iterable<TopicPartitionOffset>): void {
    if (this.#o.repartitionTopics.size === 0 || this.#inFlight !== undefined) return
    const now = this.#o.clock.milliseconds()
    if (now - this.#lastPurge < this.#o.intervalMs) return
    this.#lastPurge = now
    const offsets = [...committed].filter(
      o => this.#o.repartitionTopics.has(o.topic) && this.#purged.get(`${o.topic}-${o.partition}`) !== o.offset
    )
    if (offsets.length === 0) return
    this.#inFlight = this.#o.admin
      .deleteRecords(offsets)
      .then(
        () => {
          for (const o of offsets) this.#purged.set(`${o.topic}-${o.partition}`, o.offset)
          this.#o.logger.debug({ partitions: offsets.length }, 'Purged the committed records of repartition topics')
        },
        (error: unknown) => {
          this.#o.logger.warn(
            `Purging the committed records of repartition topics failed (${String(error)}); trying again at the next interval`
          )
        }
      )
      .finally(() => {
        this.#inFlight = undefined
      })
  }

  /** Waits for a purge in flight (closing). */
  async close(): Promise<void> {
    await this.#inFlight
  }
}
