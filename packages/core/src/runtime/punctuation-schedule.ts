/**
 * One scheduled punctuator: its node, interval and next due time. Owns the alignment rule of
 * Kafka Streams: the grid stays aligned to the first due time, with no catch-up.
 */
import type { Cancellable, Punctuator } from '../processor/api.js'
import type { ProcessorNode } from './processor-node.js'

export class PunctuationSchedule implements Cancellable {
  readonly node: ProcessorNode
  readonly intervalMs: number
  readonly punctuator: Punctuator
  #dueMs: number
  #cancelled = false

  constructor(node: ProcessorNode, firstDueMs: number, intervalMs: number, punctuator: Punctuator) {
    this.node = node
    this.#dueMs = firstDueMs
    this.intervalMs = intervalMs
    this.punctuator = punctuator
  }

  get dueMs(): number {
    return this.#dueMs
  }
  get cancelled(): boolean {
    return this.#cancelled
  }

  cancel(): void {
    this.#cancelled = true
  }

  /** Moves to the next grid point after `nowMs` (fires at most once per check). */
  advance(nowMs: number): void {
    let next = this.#dueMs + this.intervalMs
    if (nowMs >= next) {
      next = this.#dueMs + (Math.floor((nowMs - this.#dueMs) / this.intervalMs) + 1) * this.intervalMs
    }
    this.#dueMs = next
  }
}
