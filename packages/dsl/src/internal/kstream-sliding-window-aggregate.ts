/**
 * The processor of sliding-window aggregations (Kafka Streams' KStreamSlidingWindowAggregate).
 * Windows [start, start + d] exist only where records are. For a record at t (null key or value:
 * dropped and counted; t + d before the close time: dropped and counted) it reads the key's
 * windows starting in [t - 2d, t + 1], newest first, and:
 * - adds itself to every existing window containing t (its left window [t - d, t] included);
 * - creates its left window from the aggregate of the window just before it (when the previous
 *   record lies within d), else from the initializer;
 * - creates its right window [t + 1, t + 1 + d] holding the records after it, when there are any;
 * - creates the right window of the previous record when it now holds this record.
 * Records before d all go into the window [0, d] (processEarly). A window is only updated while
 * its end is at or after the close time (stream time - grace); each closed one counts as dropped.
 * onWindowClose passes emit the windows with start in [last close time - d, close time - d - 1].
 * @internal
 */
import { TimeWindow, ValueAndTimestamp } from '@kstreams/core'
import type { KeyValue, Record, Window, Windowed } from '@kstreams/core'
import { IllegalStateError } from '@kstreams/core'
import type { EmitStrategy } from '../emit-strategy.js'
import type { Aggregator, Initializer } from '../functions.js'
import type { SlidingWindows } from '../sliding-windows.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { TimeWindowAggregateProcessor } from './time-window-aggregate-processor.js'
import { windowedAggregateSupplier } from './windowed-aggregate-supplier.js'
import { withWindowCloseDelay } from './suppress/ktable-suppress.js'

type Agg<VA> = ValueAndTimestamp<VA> | null

export function slidingWindowAggregateSupplier<K, V, VA>(
  windows: SlidingWindows,
  storeName: string,
  emitStrategy: EmitStrategy,
  initializer: Initializer<VA>,
  aggregator: Aggregator<K, V, VA>,
  retentionMs: number
): KTableProcessorSupplier<K, V, Windowed<K>, VA> {
  return withWindowCloseDelay(
    windowedAggregateSupplier<K, V, VA>(
      storeName,
      'window',
      sendOldValues =>
        new SlidingWindowAggregateProcessor(windows, storeName, retentionMs, emitStrategy, sendOldValues, initializer, aggregator)
    ),
    windows.gracePeriodMs()
  )
}

class SlidingWindowAggregateProcessor<K, V, VA> extends TimeWindowAggregateProcessor<K, V, VA> {
  readonly #d: number
  readonly #grace: number
  readonly #initializer: Initializer<VA>
  readonly #aggregator: Aggregator<K, V, VA>

  constructor(
    windows: SlidingWindows,
    storeName: string,
    retentionMs: number,
    emitStrategy: EmitStrategy,
    sendOldValues: boolean,
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>
  ) {
    super(storeName, retentionMs, emitStrategy, sendOldValues)
    this.#d = windows.timeDifferenceMs()
    this.#grace = windows.gracePeriodMs()
    this.#initializer = initializer
    this.#aggregator = aggregator
  }

  process(record: Record<K, V>): void {
    if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) {
      this.dropRecord()
      return
    }
    this.updateObservedStreamTime(record.timestamp)
    const windowCloseTime = this.observedStreamTime - this.#grace
    if (record.timestamp + this.#d < windowCloseTime) {
      this.dropRecord()
      return
    }
    // Closed windows first, before this record's puts can expire them from an in-memory store
    // (see KStreamWindowAggregate); this record's windows are open, so the output is Kafka's.
    this.maybeForwardFinalResult(record, windowCloseTime)
    if (record.timestamp < this.#d) this.#processEarly(record, windowCloseTime)
    else this.#process(record, windowCloseTime)
  }

  #process(record: Record<K, V>, closeTime: number): void {
    const t = record.timestamp
    const d = this.#d
    const starts = new Set<number>()
    let leftWinAgg: Agg<VA> = null
    let rightWinAgg: Agg<VA> = null
    let leftWinAlreadyCreated = false
    let rightWinAlreadyCreated = false
    let previousRecordTimestamp: number | null = null
    const iterator = this.windowStore.backwardFetch(record.key, record.key, Math.max(0, t - 2 * d), t + 1)
    try {
      for (const kv of iterator) {
        const start = kv.key.window.start
        starts.add(start)
        const end = start + d
        const maxRecordTimestamp = kv.value.timestamp
        if (start === t + 1) {
          rightWinAlreadyCreated = true
        } else if (end > t) {
          rightWinAgg ??= kv.value
          this.#updateWindowAndForward(kv.key.window, kv.value, record, closeTime)
        } else if (end === t) {
          leftWinAlreadyCreated = true
          this.#updateWindowAndForward(kv.key.window, kv.value, record, closeTime)
          // A record at t already: its windows exist.
          if (maxRecordTimestamp >= t) return
          previousRecordTimestamp = maxRecordTimestamp
        } else {
          leftWinAgg = kv.value
          previousRecordTimestamp = maxRecordTimestamp
          break
        }
      }
    } finally {
      iterator.close()
    }
    this.#createWindows(
      record,
      closeTime,
      starts,
      rightWinAgg,
      leftWinAgg,
      leftWinAlreadyCreated,
      rightWinAlreadyCreated,
      previousRecordTimestamp
    )
  }

  /** A record before d: [0, d] holds every early record (no window may start before 0). */
  #processEarly(record: Record<K, V>, closeTime: number): void {
    const t = record.timestamp
    let combinedWindow: KeyValue<Windowed<K>, ValueAndTimestamp<VA>> | null = null
    let rightWinAgg: Agg<VA> = null
    let rightWinAlreadyCreated = false
    const starts = new Set<number>()
    let previousRecordTimestamp: number | null = null
    const iterator = this.windowStore.fetch(record.key, record.key, 0, t + 1)
    try {
      for (const kv of iterator) {
        const start = kv.key.window.start
        starts.add(start)
        if (start === 0) {
          combinedWindow = kv
          if (kv.value.timestamp < t) previousRecordTimestamp = kv.value.timestamp
        } else if (start <= t) {
          rightWinAgg = kv.value
          this.#updateWindowAndForward(kv.key.window, kv.value, record, closeTime)
        } else if (start === t + 1) {
          rightWinAlreadyCreated = true
        } else {
          throw new IllegalStateError(`Unexpected window with start ${start} found when processing a sliding-window record at ${t}`)
        }
      }
    } finally {
      iterator.close()
    }
    // Without a right-window aggregate, the combined window's records after t are its content.
    if (rightWinAgg === null && combinedWindow !== null && combinedWindow.value.timestamp > t) rightWinAgg = combinedWindow.value
    if (!rightWinAlreadyCreated && this.#rightWindowIsNotEmpty(rightWinAgg, t))
      this.#createCurrentRecordRightWindow(t, rightWinAgg!, record)
    if (previousRecordTimestamp !== null && !starts.has(previousRecordTimestamp + 1)) {
      this.#createPreviousRecordRightWindow(previousRecordTimestamp + 1, record, closeTime)
    }
    if (combinedWindow === null) {
      this.#updateWindowAndForward(new TimeWindow(0, this.#d), ValueAndTimestamp.make(this.#initializer(), t), record, closeTime)
    } else {
      this.#updateWindowAndForward(combinedWindow.key.window, combinedWindow.value, record, closeTime)
    }
  }

  #createWindows(
    record: Record<K, V>,
    closeTime: number,
    starts: Set<number>,
    rightWinAgg: Agg<VA>,
    leftWinAgg: Agg<VA>,
    leftWinAlreadyCreated: boolean,
    rightWinAlreadyCreated: boolean,
    previousRecordTimestamp: number | null
  ): void {
    const t = record.timestamp
    const d = this.#d
    if (previousRecordTimestamp !== null) {
      const previousRightStart = previousRecordTimestamp + 1
      if (!starts.has(previousRightStart) && previousRightStart + d >= t)
        this.#createPreviousRecordRightWindow(previousRightStart, record, closeTime)
    }
    if (!leftWinAlreadyCreated) {
      const leftNotEmpty = previousRecordTimestamp !== null && t - d <= previousRecordTimestamp && leftWinAgg !== null
      const valueAndTime = ValueAndTimestamp.make(leftNotEmpty ? leftWinAgg!.value : this.#initializer(), t)
      this.#updateWindowAndForward(new TimeWindow(t - d, t), valueAndTime, record, closeTime)
    }
    if (!rightWinAlreadyCreated && this.#rightWindowIsNotEmpty(rightWinAgg, t))
      this.#createCurrentRecordRightWindow(t, rightWinAgg!, record)
  }

  #createCurrentRecordRightWindow(t: number, rightWinAgg: ValueAndTimestamp<VA>, record: Record<K, V>): void {
    const window = new TimeWindow(t + 1, t + 1 + this.#d)
    this.windowStore.put(record.key, rightWinAgg, window.start)
    this.maybeForwardUpdate(record, window, null, rightWinAgg.value, rightWinAgg.timestamp)
  }

  #createPreviousRecordRightWindow(windowStart: number, record: Record<K, V>, closeTime: number): void {
    const window = new TimeWindow(windowStart, windowStart + this.#d)
    this.#updateWindowAndForward(window, ValueAndTimestamp.make(this.#initializer(), record.timestamp), record, closeTime)
  }

  /** Whether the aggregate found holds records after t (then t's right window is not empty). */
  #rightWindowIsNotEmpty(rightWinAgg: Agg<VA>, t: number): boolean {
    return rightWinAgg !== null && rightWinAgg.timestamp > t
  }

  #updateWindowAndForward(window: Window, valueAndTime: Agg<VA>, record: Record<K, V>, closeTime: number): void {
    if (window.end < closeTime) {
      this.dropRecord()
      return
    }
    const oldAgg = ValueAndTimestamp.getValueOrNull(valueAndTime)
    const newAgg = this.#aggregator(record.key, record.value, oldAgg as VA)
    const newTimestamp = oldAgg === null ? record.timestamp : Math.max(record.timestamp, valueAndTime!.timestamp)
    this.windowStore.put(record.key, ValueAndTimestamp.make(newAgg, newTimestamp), window.start)
    this.maybeForwardUpdate(record, window, oldAgg, newAgg, newTimestamp)
  }

  protected emitRangeLowerBound(): number {
    return this.lastEmitWindowCloseTime === -1 ? 0 : Math.max(0, this.lastEmitWindowCloseTime - this.#d)
  }

  protected emitRangeUpperBound(windowCloseTime: number): number {
    // Sliding windows include their end: a window is closed when its end is before the close time.
    return windowCloseTime - this.#d - 1
  }

  protected shouldRangeFetch(): boolean {
    return true
  }
}
