/**
 * Forwards the updates of a session-windowed aggregation (Kafka Streams' TimestampedTupleForwarder
 * with its SessionCacheFlushListener): every update is stamped with the end of its session. When
 * the session store caches, updates are forwarded when the cache flushes them (on commit or
 * eviction), as the aggregation node and under the record context of the write; otherwise at
 * once. The old value is only sent when `sendOldValues` was asked for. @internal
 */
import { Record } from '@kstreams/core'
import type { Headers, ProcessorContext, Windowed } from '@kstreams/core'
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
  key: Windowed<K>,
  newValue: V | null,
  oldValue: V | null,
  timestamp: number,
  recordContext: FlushRecordContext
) => void

interface FlushListenerStore<K, V> {
  setFlushListener(listener: FlushListener<K, V>, sendOldValues: boolean): boolean
}

export class SessionTupleForwarder<K, V> {
  readonly #context: ProcessorContext<Windowed<K>, Change<V>>
  readonly #sendOldValues: boolean
  readonly #cachingEnabled: boolean

  constructor(store: unknown, context: ProcessorContext<Windowed<K>, Change<V>>, sendOldValues: boolean) {
    this.#context = context
    this.#sendOldValues = sendOldValues
    this.#cachingEnabled = hasFlushListener<K, V>(store) && store.setFlushListener(this.#flushListener(context), sendOldValues)
  }

  maybeForward(record: Record<Windowed<K>, Change<V>>): void {
    if (this.#cachingEnabled) return
    this.#context.forward(this.#sendOldValues ? record : record.withValue(new Change(record.value.newValue, null)))
  }

  #flushListener(context: ProcessorContext<Windowed<K>, Change<V>>): FlushListener<K, V> {
    const internal = isInternalContext(context) ? context : undefined
    const node = internal?.currentNode
    const sendOldValues = this.#sendOldValues
    return (key, newValue, oldValue, _timestamp, recordContext) => {
      const record = new Record(key, new Change(newValue, sendOldValues ? oldValue : null), key.window.end, recordContext.headers)
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
