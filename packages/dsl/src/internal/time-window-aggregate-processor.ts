/**
 * What the time-window and sliding-window aggregation processors share (Kafka Streams'
 * AbstractKStreamTimeWindowAggregateProcessor): the timestamped window store, the stream time the
 * processor observed, late-record dropping (counted in the task's dropped-records metric), and
 * emitting. With EmitStrategy.onWindowUpdate every window update is forwarded as
 * `Change(new, old)` through a TimestampedTupleForwarder (on cache flush when the store caches);
 * with onWindowClose nothing is forwarded per update: an emit pass (throttled, see
 * EmitFinalTracker) forwards the windows whose start lies in the subclass's emit range, oldest
 * first, as `Change(value, null)` with their stored timestamp and the headers of the record that
 * closed them. @internal
 */
import { Windowed } from '@kstreams/core'
import type { Processor, ProcessorContext, Record, TimestampedWindowStore, Window } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import { Change } from '../change.js'
import type { EmitStrategy } from '../emit-strategy.js'
import { EmitFinalTracker } from './emit-final-tracker.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

export abstract class TimeWindowAggregateProcessor<K, V, VA> implements Processor<K, V, Windowed<K>, Change<VA>> {
  protected windowStore!: TimestampedWindowStore<K, VA>
  protected context!: ProcessorContext<Windowed<K>, Change<VA>>
  /** The greatest record timestamp this processor has seen, or -1. */
  protected observedStreamTime = -1
  readonly #storeName: string
  readonly #retentionMs: number
  readonly #emitOnClose: boolean
  readonly #sendOldValues: boolean
  readonly #tracker = new EmitFinalTracker()
  #forwarder: TimestampedTupleForwarder<Windowed<K>, VA> | undefined

  constructor(storeName: string, retentionMs: number, emitStrategy: EmitStrategy, sendOldValues: boolean) {
    this.#storeName = storeName
    this.#retentionMs = retentionMs
    this.#emitOnClose = emitStrategy.type === 'ON_WINDOW_CLOSE'
    this.#sendOldValues = sendOldValues
  }

  init(context: ProcessorContext<Windowed<K>, Change<VA>>): void {
    this.context = context
    this.windowStore = context.getStateStore<TimestampedWindowStore<K, VA>>(this.#storeName)
    if (this.#emitOnClose) this.#tracker.init(context, this.#storeName)
    else this.#forwarder = new TimestampedTupleForwarder<Windowed<K>, VA>(this.windowStore, context, this.#sendOldValues)
  }

  abstract process(record: Record<K, V>): void

  /** The inclusive bounds of the window starts an emit pass for `windowCloseTime` covers. */
  protected abstract emitRangeLowerBound(windowCloseTime: number): number
  protected abstract emitRangeUpperBound(windowCloseTime: number): number
  protected abstract shouldRangeFetch(emitRangeLowerBound: number, emitRangeUpperBound: number): boolean

  protected get lastEmitWindowCloseTime(): number {
    return this.#tracker.lastEmitWindowCloseTime
  }

  protected updateObservedStreamTime(timestamp: number): void {
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp)
  }

  /** Counts a dropped record (a null key, or a record for a closed window). */
  protected dropRecord(): void {
    recordDroppedRecord(this.context)
  }

  /** Forwards one window update (onWindowUpdate only). */
  protected maybeForwardUpdate(record: Record<K, V>, window: Window, oldAgg: VA | null, newAgg: VA, newTimestamp: number): void {
    if (this.#forwarder === undefined) return
    this.#forwarder.maybeForward(
      record
        .withKey(new Windowed(record.key, window))
        .withValue(new Change<VA>(newAgg, this.#sendOldValues ? oldAgg : null))
        .withTimestamp(newTimestamp)
    )
  }

  /** Emits the windows closed since the last pass (onWindowClose only). */
  protected maybeForwardFinalResult(record: Record<K, V>, windowCloseTime: number): void {
    if (!this.#emitOnClose) return
    // The store keeps windows starting at observedStreamTime - retention + 1 or later: a pass the
    // throttle would skip runs anyway if this record's put is about to drop unemitted windows.
    const wouldExpireUnemitted = this.observedStreamTime - this.#retentionMs + 1 > this.emitRangeLowerBound(windowCloseTime)
    if (!this.#tracker.shouldEmitFinal(this.context, windowCloseTime, wouldExpireUnemitted)) return
    const upper = this.emitRangeUpperBound(windowCloseTime)
    if (upper < 0) return
    const lower = this.emitRangeLowerBound(windowCloseTime)
    if (!this.shouldRangeFetch(lower, upper)) return
    const iterator = this.windowStore.fetchAll(lower, upper)
    try {
      for (const kv of iterator) {
        this.context.forward(
          record
            .withKey(kv.key)
            .withValue(new Change<VA>(kv.value.value, null))
            .withTimestamp(kv.value.timestamp)
            .withHeaders(record.headers)
        )
      }
    } finally {
      iterator.close()
    }
    this.#tracker.lastEmitWindowCloseTime = windowCloseTime
  }
}
