/**
 * The processor of time-windowed aggregations (Kafka Streams' KStreamWindowAggregate): each
 * record (a null key is dropped and counted; a null value is aggregated) updates every window of
 * Windows.windowsFor(its timestamp) (TimeWindows, UnlimitedWindows or custom ones) that is still
 * open (window end > observed stream time - grace); for a closed one it is counted as dropped. A new window starts from the initializer
 * with the record's timestamp, an existing one keeps max(its timestamp, the record's).
 * onWindowClose passes emit the windows with start in (last close time - size, close time - size].
 * @internal
 */
import { StreamsError, ValueAndTimestamp } from '@kstreams/core'
import type { Record, Windowed } from '@kstreams/core'
import type { EmitStrategy } from '../emit-strategy.js'
import type { Aggregator, Initializer } from '../functions.js'
import { TimeWindows } from '../time-windows.js'
import type { Windows } from '../windows.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { TimeWindowAggregateProcessor } from './time-window-aggregate-processor.js'
import { windowedAggregateSupplier } from './windowed-aggregate-supplier.js'
import { withWindowCloseDelay } from './suppress/ktable-suppress.js'

export function windowAggregateSupplier<K, V, VA>(
  windows: Windows,
  storeName: string,
  emitStrategy: EmitStrategy,
  initializer: Initializer<VA>,
  aggregator: Aggregator<K, V, VA>,
  retentionMs: number
): KTableProcessorSupplier<K, V, Windowed<K>, VA> {
  // Only TimeWindows close in a way emit-on-close can follow (Kafka Streams' KStreamWindowAggregate).
  if (emitStrategy.type === 'ON_WINDOW_CLOSE' && !(windows instanceof TimeWindows)) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      'ON_WINDOW_CLOSE strategy is only supported for TimeWindows and SlidingWindows for TimeWindowedKStream'
    )
  }
  // A suppression until the window closes waits for the grace period after the window end.
  return withWindowCloseDelay(
    windowedAggregateSupplier<K, V, VA>(
      storeName,
      'window',
      sendOldValues => new WindowAggregateProcessor(windows, storeName, retentionMs, emitStrategy, sendOldValues, initializer, aggregator)
    ),
    windows.gracePeriodMs()
  )
}

class WindowAggregateProcessor<K, V, VA> extends TimeWindowAggregateProcessor<K, V, VA> {
  readonly #windows: Windows
  readonly #initializer: Initializer<VA>
  readonly #aggregator: Aggregator<K, V, VA>

  constructor(
    windows: Windows,
    storeName: string,
    retentionMs: number,
    emitStrategy: EmitStrategy,
    sendOldValues: boolean,
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>
  ) {
    super(storeName, retentionMs, emitStrategy, sendOldValues)
    this.#windows = windows
    this.#initializer = initializer
    this.#aggregator = aggregator
  }

  process(record: Record<K, V>): void {
    if (record.key === null || record.key === undefined) {
      this.dropRecord()
      return
    }
    const timestamp = record.timestamp
    this.updateObservedStreamTime(timestamp)
    const windowCloseTime = this.observedStreamTime - this.#windows.gracePeriodMs()
    // Closed windows are emitted before this record's put advances the store's stream time: an
    // in-memory store drops a window as soon as it closes (its retention is size + grace). The
    // output is Kafka Streams' (emitting after the put): this record's windows are open.
    this.maybeForwardFinalResult(record, windowCloseTime)
    for (const [windowStart, window] of this.#windows.windowsFor(timestamp)) {
      if (window.end <= windowCloseTime) {
        this.dropRecord()
        continue
      }
      const old = this.windowStore.fetch(record.key, windowStart)
      const oldAgg = old === null ? this.#initializer() : old.value
      const newTimestamp = old === null ? timestamp : Math.max(timestamp, old.timestamp)
      const newAgg = this.#aggregator(record.key, record.value, oldAgg)
      this.windowStore.put(record.key, ValueAndTimestamp.make(newAgg, newTimestamp), windowStart)
      this.maybeForwardUpdate(record, window, oldAgg, newAgg, newTimestamp)
    }
  }

  protected emitRangeLowerBound(): number {
    // Window ends are exclusive: the windows of the last pass end at or before its close time.
    return this.lastEmitWindowCloseTime === -1 ? 0 : Math.max(0, this.lastEmitWindowCloseTime - this.#windows.size()) + 1
  }

  protected emitRangeUpperBound(windowCloseTime: number): number {
    return windowCloseTime - this.#windows.size()
  }

  /** Skips the store when no window start lies between the two bounds. */
  protected shouldRangeFetch(lower: number, upper: number): boolean {
    if (this.lastEmitWindowCloseTime === -1) return true
    return !sameStarts(this.#windows.windowsFor(upper), this.#windows.windowsFor(lower - 1))
  }
}

function sameStarts(a: Map<number, unknown>, b: Map<number, unknown>): boolean {
  if (a.size !== b.size) return false
  for (const start of a.keys()) if (!b.has(start)) return false
  return true
}
