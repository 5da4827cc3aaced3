/**
 * One client (a KafkaStreams process, all its threads together) as the task assignor sees it:
 * capacity, what it owned before, its lag per stateful task, and the tasks it is being given
 * (Kafka Streams' ClientState). @internal
 */
import { LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from './subscription-info.js'
import type { Bin } from './balanced-fill.js'

export interface ClientInput {
  /** Number of stream threads (group members) of the process; at least 1. */
  readonly capacity: number
  readonly previousActive: ReadonlySet<string>
  readonly previousStandby: ReadonlySet<string>
  /**
   * Lag per stateful task: LATEST_OFFSET when it runs as active there, UNKNOWN_OFFSET_SUM when
   * unknown, else the number of changelog records it is behind. A missing task counts as unknown.
   */
  readonly lags: ReadonlyMap<string, number>
}

export class ClientState implements Bin {
  readonly active = new Set<string>()
  /** Standby tasks, warm-ups included. */
  readonly standby = new Set<string>()
  /** The standby tasks that are warm-up replicas (extra copies catching up before a move). */
  readonly warmups = new Set<string>()

  constructor(
    readonly id: string,
    readonly input: ClientInput
  ) {}

  get capacity(): number {
    return this.input.capacity
  }

  hasTask(task: string): boolean {
    return this.active.has(task) || this.standby.has(task)
  }

  /** Running active here, or a known lag within `acceptableRecoveryLag`. */
  isCaughtUp(task: string, acceptableRecoveryLag: number): boolean {
    const lag = this.input.lags.get(task)
    if (lag === undefined || lag === UNKNOWN_OFFSET_SUM) return false
    return lag === LATEST_OFFSET || (lag >= 0 && lag <= acceptableRecoveryLag)
  }

  /** Sort key, lower = more caught up: -1 running active, the lag when known, Infinity when unknown. */
  lagRank(task: string): number {
    const lag = this.input.lags.get(task)
    if (lag === undefined || lag === UNKNOWN_OFFSET_SUM || (lag < 0 && lag !== LATEST_OFFSET)) return Number.POSITIVE_INFINITY
    return lag === LATEST_OFFSET ? -1 : lag
  }

  activeLoad(): number {
    return this.active.size / this.capacity
  }

  totalLoad(): number {
    return (this.active.size + this.standby.size) / this.capacity
  }
}
