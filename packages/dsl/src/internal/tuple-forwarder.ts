/**
 * Forwards the updates of a materialized KTable operator (Kafka Streams' TimestampedTupleForwarder
 * with its TimestampedCacheFlushListener). When the store caches, nothing is forwarded while
 * processing: each dirty entry is forwarded when the cache flushes it (on commit or eviction), as
 * the operator node and under the record context of the write that produced it, so that updates
 * of one key between two commits collapse into one record. Without a cache every update is
 * forwarded at once. The old value is only sent when `sendOldValues` was asked for.
 * @internal
 */
import { Record, ValueAndTimestamp } from '@kstreams/core'
import type { Headers, ProcessorContext } from '@kstreams/core'
import { Change } from '../change.js'

interface FlushRecordContext {
  readonly timestamp: number
  readonly headers: Headers
}

/** The runtime's context (ProcessorContextImpl) as seen by the DSL, as Kafka's InternalProcessorContext. */
interface InternalContext {
  readonly currentNode: unknown
  runAs<T>(node: unknown, recordContext: FlushRecordContext, fn: () => T): T
}

type FlushListener<K, V> = (
  key: K,
  newValue: ValueAndTimestamp<V> | null,
  oldValue: ValueAndTimestamp<V> | null,
  timestamp: number,
  recordContext: FlushRecordContext
) => void

interface FlushListenerStore<K, V> {
  setFlushListener(listener: FlushListener<K, V>, sendOldValues: boolean): boolean
}

export class TimestampedTupleForwarder<K, V> {
  readonly #context: ProcessorContext<K, Change<V>>
  readonly #sendOldValues: boolean
  readonly #cachingEnabled: boolean

  constructor(store: unknown, context: ProcessorContext<K, Change<V>>, sendOldValues: boolean) {
    this.#context = context
    this.#sendOldValues = sendOldValues
    this.#cachingEnabled = hasFlushListener<K, V>(store) && store.setFlushListener(this.#flushListener(context), sendOldValues)
  }

  maybeForward(record: Record<K, Change<V>>): void {
    if (this.#cachingEnabled) return
    this.#context.forward(this.#sendOldValues ? record : record.withValue(new Change(record.value.newValue, null)))
  }

  #flushListener(context: ProcessorContext<K, Change<V>>): FlushListener<K, V> {
    const internal = isInternalContext(context) ? context : undefined
    const node = internal?.currentNode
    const sendOldValues = this.#sendOldValues
    return (key, newValue, oldValue, timestamp, recordContext) => {
      const change = new Change(
        ValueAndTimestamp.getValueOrNull(newValue),
        sendOldValues ? ValueAndTimestamp.getValueOrNull(oldValue) : null
      )
      // The stored timestamp of the new value (a delete has none: the write's timestamp).
      const record = new Record(key, change, newValue === null ? timestamp : newValue.timestamp, recordContext.headers)
      if (internal !== undefined && node !== undefined)
        internal.runAs(node, recordContext, () => {
          context.forward(record)
        })
      else context.forward(record)
    }
  }
}

function hasFlushListener<K, V>(store: unknown): store is FlushListenerStore<K, V> {
  return typeof (store as Partial<FlushListenerStore<K, V>> | null)?.setFlushListener === 'function'
}

function isInternalContext(context: unknown): context is InternalContext {
  return typeof (context as Partial<InternalContext>).runAs === 'function' && 'currentNode' in (context as object)
}
