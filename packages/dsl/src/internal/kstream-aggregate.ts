/**
 * The processors of KGroupedStream aggregations (Kafka Streams' KStreamAggregate and
 * KStreamReduce). Records with a null key or value are skipped and counted as dropped records. The result is stored with the
 * timestamp max(previous result timestamp, record timestamp) (the record's own for a new key)
 * and forwarded as `Change(new, old)` through a TimestampedTupleForwarder (on cache flush when
 * the store caches). The old value is sent only once a downstream operator enabled it. @internal
 */
import { ValueAndTimestamp } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import type { Processor, ProcessorContext, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { Change } from '../change.js'
import type { Aggregator, Initializer, Reducer } from '../functions.js'
import { storeValueGetterSupplier } from './ktable-processor-supplier.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

/** Returns the new aggregate and the old value to send (Kafka Streams' aggregate sends the initializer's value for a new key). */
type Combine<K, V, VA> = (key: K, value: V, previous: VA | null) => readonly [VA, VA | null]

export function aggregateSupplier<K, V, VA>(
  storeName: string,
  initializer: Initializer<VA>,
  aggregator: Aggregator<K, V, VA>
): KTableProcessorSupplier<K, V, K, VA> {
  return groupedSupplier<K, V, VA>(storeName, (key, value, previous) => {
    const base = previous ?? initializer()
    return [aggregator(key, value, base), base]
  })
}

export function reduceSupplier<K, V>(storeName: string, reducer: Reducer<V>): KTableProcessorSupplier<K, V, K, V> {
  return groupedSupplier<K, V, V>(storeName, (_key, value, previous) => [previous === null ? value : reducer(previous, value), previous])
}

function groupedSupplier<K, V, VA>(storeName: string, combine: Combine<K, V, VA>): KTableProcessorSupplier<K, V, K, VA> {
  const supplier: KTableProcessorSupplier<K, V, K, VA> = {
    sendOldValues: false,
    storeName,
    enableSendingOldValues(): boolean {
      supplier.sendOldValues = true
      return true
    },
    view: () => storeValueGetterSupplier<K, VA>(storeName),
    get: (): Processor<K, V, K, Change<VA>> => {
      let store: TimestampedKeyValueStore<K, VA>
      let context: ProcessorContext<K, Change<VA>>
      let forwarder: TimestampedTupleForwarder<K, VA>
      const sendOldValues = supplier.sendOldValues
      return {
        init(c) {
          context = c
          store = context.getStateStore<TimestampedKeyValueStore<K, VA>>(storeName)
          forwarder = new TimestampedTupleForwarder<K, VA>(store, context, sendOldValues)
        },
        process(record: Record<K, V>) {
          if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) {
            recordDroppedRecord(context)
            return
          }
          const previous = store.get(record.key)
          const previousValue = ValueAndTimestamp.getValueOrNull(previous)
          const timestamp = previous === null ? record.timestamp : Math.max(record.timestamp, previous.timestamp)
          const [newValue, oldValue] = combine(record.key, record.value, previousValue)
          store.put(record.key, ValueAndTimestamp.make(newValue, timestamp))
          forwarder.maybeForward(record.withValue(new Change(newValue, sendOldValues ? oldValue : null)).withTimestamp(timestamp))
        }
      }
    }
  }
  return supplier
}
