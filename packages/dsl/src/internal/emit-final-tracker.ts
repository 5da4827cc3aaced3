/**
 * The bookkeeping of EmitStrategy.onWindowClose shared by the windowed aggregations (Kafka
 * Streams' AbstractKStreamTimeWindowAggregateProcessor.shouldEmitFinal with its TimeTracker): a
 * pass that emits closed windows runs at most once per `windowedAggregationEmitIntervalMs` of
 * wall-clock time (0 in the TopologyTestDriver), and only when the window close time moved past
 * the one of the last pass. @internal
 */
import type { ProcessorContext } from '@kstreams/core'

export class EmitFinalTracker {
  /** The window close time of the last pass, or -1 (no pass yet). */
  lastEmitWindowCloseTime = -1
  #nextTimeToEmit = 0
  #emitIntervalMs = 1000

  init (context: ProcessorContext<unknown, unknown>): void {
    this.#emitIntervalMs = context.appConfigs.windowedAggregationEmitIntervalMs
  }

  /** Whether to run an emit pass now for the given close time (advances the throttle when it may). */
  shouldEmitFinal (context: ProcessorContext<unknown, unknown>, windowCloseTime: number): boolean {
    const now = context.currentSystemTimeMs()
    if (now < this.#nextTimeToEmit) return false
    this.#nextTimeToEmit = now + this.#emitIntervalMs
    return this.lastEmitWindowCloseTime === -1 || this.lastEmitWindowCloseTime < windowCloseTime
  }
}
