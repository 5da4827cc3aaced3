/**
 * The bookkeeping of EmitStrategy.onWindowClose shared by the windowed aggregations (Kafka
 * Streams' AbstractKStreamTimeWindowAggregateProcessor.shouldEmitFinal with its TimeTracker): a
 * pass that emits closed windows runs at most once per `windowedAggregationEmitIntervalMs` of
 * wall-clock time (0 in the TopologyTestDriver), and only when the window close time moved past
 * the one of the last pass. Unlike Kafka Streams, a pass is not skipped when the record about to
 * be stored would expire closed windows not emitted yet (Kafka's RocksDB store happens to keep
 * them a while longer, its in-memory store does not). @internal
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

  /**
   * Whether to run an emit pass now for the given close time (advances the throttle when it may).
   * `force` bypasses the wall-clock throttle: the processor passes it when skipping the pass would
   * let the store expire closed windows no pass has emitted yet (see TimeWindowAggregateProcessor).
   */
  shouldEmitFinal (context: ProcessorContext<unknown, unknown>, windowCloseTime: number, force = false): boolean {
    const now = context.currentSystemTimeMs()
    if (!force && now < this.#nextTimeToEmit) return false
    this.#nextTimeToEmit = now + this.#emitIntervalMs
    return this.lastEmitWindowCloseTime === -1 || this.lastEmitWindowCloseTime < windowCloseTime
  }
}
