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
import { processorMetadata, type ProcessorMetadata } from '@kstreams/core/internal'

export class EmitFinalTracker {
  #lastEmitWindowCloseTime = -1
  #nextTimeToEmit = 0
  #emitIntervalMs = 1000
  #metadata: ProcessorMetadata | undefined
  #metadataKey = ''
  #loaded = false

  /**
   * `storeName` keys the last emitted close time in the task's processor metadata (KIP-825), which
   * is committed with the offsets: a restarted task does not emit the same windows again.
   */
  init(context: ProcessorContext<unknown, unknown>, storeName: string): void {
    this.#emitIntervalMs = context.appConfigs.windowedAggregationEmitIntervalMs
    this.#metadata = processorMetadata(context)
    this.#metadataKey = storeName
  }

  /** The window close time of the last pass, or -1 (no pass yet); read from the committed metadata first. */
  get lastEmitWindowCloseTime(): number {
    if (!this.#loaded) {
      // Lazily: the runtime seeds the metadata from the committed offsets when the task starts.
      this.#loaded = true
      const committed = this.#metadata?.get(this.#metadataKey)
      if (committed !== undefined) this.#lastEmitWindowCloseTime = Math.max(this.#lastEmitWindowCloseTime, committed)
    }
    return this.#lastEmitWindowCloseTime
  }

  set lastEmitWindowCloseTime(closeTime: number) {
    this.#loaded = true
    this.#lastEmitWindowCloseTime = closeTime
    this.#metadata?.set(this.#metadataKey, closeTime)
  }

  /**
   * Whether to run an emit pass now for the given close time (advances the throttle when it may).
   * `force` bypasses the wall-clock throttle: the processor passes it when skipping the pass would
   * let the store expire closed windows no pass has emitted yet (see TimeWindowAggregateProcessor).
   */
  shouldEmitFinal(context: ProcessorContext<unknown, unknown>, windowCloseTime: number, force = false): boolean {
    const now = context.currentSystemTimeMs()
    if (!force && now < this.#nextTimeToEmit) return false
    this.#nextTimeToEmit = now + this.#emitIntervalMs
    return this.lastEmitWindowCloseTime === -1 || this.lastEmitWindowCloseTime < windowCloseTime
  }
}
