/**
 * The processor of session-windowed aggregations (Kafka Streams' KStreamSessionWindowAggregate).
 * A record at t (a null key is dropped and counted) merges, with the session merger, every
 * session of its key ending at or after t - gap and starting at or before t + gap into one
 * session spanning them and t, starting from the initializer. When that session ends before the
 * close time (stream time - grace - gap) the record is dropped and counted. Otherwise the merged
 * sessions are removed (each forwarded as a tombstone `Change(null, old)`, the old value only when
 * old values are sent), the record is aggregated and the session written and forwarded; every
 * update is stamped with its session's end. onWindowClose passes emit the sessions ending in
 * [last close time, close time - 1], by end. @internal
 */
import { Record, SessionWindow, Windowed } from '@kstreams/core'
import type { KeyValue, Processor, ProcessorContext, SessionStore } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import { Change } from '../change.js'
import type { EmitStrategy } from '../emit-strategy.js'
import type { Aggregator, Initializer, Merger } from '../functions.js'
import type { SessionWindows } from '../session-windows.js'
import { EmitFinalTracker } from './emit-final-tracker.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { SessionTupleForwarder } from './session-tuple-forwarder.js'
import { windowedAggregateSupplier } from './windowed-aggregate-supplier.js'
import { withWindowCloseDelay } from './suppress/ktable-suppress.js'

export interface SessionAggregation<K, V, VA> {
  readonly windows: SessionWindows
  readonly storeName: string
  readonly emitStrategy: EmitStrategy
  readonly initializer: Initializer<VA>
  readonly aggregator: Aggregator<K, V, VA>
  readonly merger: Merger<K, VA>
  /** The session store's retention: sessions ending before stream time minus it are dropped. */
  readonly retentionMs: number
}

export function sessionWindowAggregateSupplier<K, V, VA>(
  aggregation: SessionAggregation<K, V, VA>
): KTableProcessorSupplier<K, V, Windowed<K>, VA> {
  // A suppression until the session closes waits for the gap plus the grace period after its end.
  return withWindowCloseDelay(
    windowedAggregateSupplier<K, V, VA>(
      aggregation.storeName,
      'session',
      sendOldValues => new SessionWindowAggregateProcessor(aggregation, sendOldValues)
    ),
    aggregation.windows.gracePeriodMs() + aggregation.windows.inactivityGap()
  )
}

class SessionWindowAggregateProcessor<K, V, VA> implements Processor<K, V, Windowed<K>, Change<VA>> {
  readonly #a: SessionAggregation<K, V, VA>
  readonly #sendOldValues: boolean
  readonly #emitOnClose: boolean
  readonly #tracker = new EmitFinalTracker()
  #context!: ProcessorContext<Windowed<K>, Change<VA>>
  #store!: SessionStore<K, VA>
  #forwarder: SessionTupleForwarder<K, VA> | undefined
  #observedStreamTime = -1

  constructor(aggregation: SessionAggregation<K, V, VA>, sendOldValues: boolean) {
    this.#a = aggregation
    this.#sendOldValues = sendOldValues
    this.#emitOnClose = aggregation.emitStrategy.type === 'ON_WINDOW_CLOSE'
  }

  init(context: ProcessorContext<Windowed<K>, Change<VA>>): void {
    this.#context = context
    this.#store = context.getStateStore<SessionStore<K, VA>>(this.#a.storeName)
    if (this.#emitOnClose) this.#tracker.init(context, this.#a.storeName)
    else this.#forwarder = new SessionTupleForwarder<K, VA>(this.#store, context, this.#sendOldValues)
  }

  process(record: Record<K, V>): void {
    const key = record.key
    if (key === null || key === undefined) {
      recordDroppedRecord(this.#context)
      return
    }
    const { windows, initializer, aggregator, merger } = this.#a
    const timestamp = record.timestamp
    const gap = windows.inactivityGap()
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp)
    const windowCloseTime = this.#observedStreamTime - windows.gracePeriodMs() - gap
    // Closed sessions first, before this record's put can expire them from an in-memory store
    // (whose retention is gap + grace); the output is Kafka Streams'.
    this.#maybeForwardFinalResult(record, windowCloseTime)
    const merged: Array<KeyValue<Windowed<K>, VA>> = []
    const newSessionWindow = new SessionWindow(timestamp, timestamp)
    let mergedWindow = newSessionWindow
    let agg = initializer()
    const iterator = this.#store.findSessions(key, timestamp - gap, timestamp + gap)
    try {
      for (const next of iterator) {
        merged.push(next)
        agg = merger(key, agg, next.value)
        mergedWindow = new SessionWindow(
          Math.min(mergedWindow.start, next.key.window.start),
          Math.max(mergedWindow.end, next.key.window.end)
        )
      }
    } finally {
      iterator.close()
    }
    if (mergedWindow.end < windowCloseTime) {
      recordDroppedRecord(this.#context)
    } else {
      if (!mergedWindow.equals(newSessionWindow)) {
        for (const session of merged) {
          this.#store.remove(session.key)
          this.#maybeForwardUpdate(session.key, session.value, null)
        }
      }
      agg = aggregator(key, record.value, agg)
      const sessionKey = new Windowed(key, mergedWindow)
      this.#store.put(sessionKey, agg)
      this.#maybeForwardUpdate(sessionKey, null, agg)
    }
  }

  #maybeForwardUpdate(windowedKey: Windowed<K>, oldAgg: VA | null, newAgg: VA | null): void {
    if (this.#forwarder === undefined) return
    this.#forwarder.maybeForward(new Record(windowedKey, new Change(newAgg, this.#sendOldValues ? oldAgg : null), windowedKey.window.end))
  }

  #maybeForwardFinalResult(record: Record<K, V>, windowCloseTime: number): void {
    if (!this.#emitOnClose) return
    const lower = Math.max(0, this.#tracker.lastEmitWindowCloseTime)
    // A pass the throttle would skip runs anyway if this record's put is about to drop sessions
    // not emitted yet (the store keeps sessions ending at stream time minus retention or later).
    const wouldExpireUnemitted = this.#observedStreamTime - this.#a.retentionMs > lower
    if (!this.#tracker.shouldEmitFinal(this.#context, windowCloseTime, wouldExpireUnemitted)) return
    // Sessions include their end: a session is closed when its end is before the close time.
    const upper = windowCloseTime - 1
    if (upper < 0) return
    if (upper < lower) return
    const iterator = this.#store.findSessions(lower, upper)
    try {
      for (const kv of iterator) {
        this.#context.forward(
          record.withKey(kv.key).withValue(new Change<VA>(kv.value, null)).withTimestamp(kv.key.window.end).withHeaders(record.headers)
        )
      }
    } finally {
      iterator.close()
    }
    this.#tracker.lastEmitWindowCloseTime = windowCloseTime
  }
}
