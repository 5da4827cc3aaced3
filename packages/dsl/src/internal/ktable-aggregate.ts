/**
 * The processors of KGroupedTable aggregations (Kafka Streams' KTableAggregate and KTableReduce).
 * Each repartitioned update `Change(new, old)` first subtracts the old value from the current
 * aggregate (when both exist), then adds the new value (to the initializer's value, or as the
 * first value of a reduce, when there is no aggregate). The result timestamp is the record's,
 * or max(record, previous aggregate) once the previous aggregate took part. A null result
 * deletes the key. Results are forwarded as `Change(new, old)` through a TimestampedTupleForwarder
 * (on cache flush when the store caches). @internal
 */
import { StreamsError, ValueAndTimestamp } from '@kstreams/core'
import type { Processor, ProcessorContext, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { Change } from '../change.js'
import type { Aggregator, Initializer, Reducer } from '../functions.js'
import type { ChangedSerde } from './changed-serde.js'
import { storeValueGetterSupplier } from './ktable-processor-supplier.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

/** Applies one change to the previous aggregate; returns the new aggregate and whether the previous one took part. */
type Apply<K, V, VA> = (key: K, change: Change<V>, previous: VA | null) => readonly [VA | null, boolean]

export function tableAggregateSupplier<K, V, VA>(
  storeName: string,
  initializer: Initializer<VA>,
  adder: Aggregator<K, V, VA>,
  subtractor: Aggregator<K, V, VA>,
  serde: ChangedSerde<V>
): KTableProcessorSupplier<K, Change<V>, K, VA> {
  return tableSupplier<K, V, VA>(storeName, serde, (key, change, previous) => {
    let used = false
    let intermediate = previous
    if (isSet(change.oldValue) && previous !== null) {
      intermediate = subtractor(key, change.oldValue, previous)
      used = true
    }
    if (!isSet(change.newValue)) return [intermediate, used]
    return [adder(key, change.newValue, intermediate ?? initializer()), used || previous !== null]
  })
}

export function tableReduceSupplier<K, V>(
  storeName: string,
  adder: Reducer<V>,
  subtractor: Reducer<V>,
  serde: ChangedSerde<V>
): KTableProcessorSupplier<K, Change<V>, K, V> {
  return tableSupplier<K, V, V>(storeName, serde, (_key, change, previous) => {
    let used = false
    let intermediate = previous
    if (isSet(change.oldValue) && previous !== null) {
      intermediate = subtractor(previous, change.oldValue)
      used = true
    }
    if (!isSet(change.newValue)) return [intermediate, used]
    if (intermediate === null) return [change.newValue, used]
    return [adder(intermediate, change.newValue), true]
  })
}

function isSet<V>(value: V | null | undefined): value is V {
  return value !== null && value !== undefined
}

function tableSupplier<K, V, VA>(
  storeName: string,
  serde: ChangedSerde<V>,
  apply: Apply<K, V, VA>
): KTableProcessorSupplier<K, Change<V>, K, VA> {
  const supplier: KTableProcessorSupplier<K, Change<V>, K, VA> = {
    sendOldValues: false,
    storeName,
    enableSendingOldValues(): boolean {
      supplier.sendOldValues = true
      return true
    },
    view: () => storeValueGetterSupplier<K, VA>(storeName),
    get: (): Processor<K, Change<V>, K, Change<VA>> => {
      let store: TimestampedKeyValueStore<K, VA>
      let forwarder: TimestampedTupleForwarder<K, VA>
      const sendOldValues = supplier.sendOldValues
      return {
        init(context: ProcessorContext<K, Change<VA>>) {
          serde.resolveDefault(context.appConfigs)
          store = context.getStateStore<TimestampedKeyValueStore<K, VA>>(storeName)
          forwarder = new TimestampedTupleForwarder<K, VA>(store, context, sendOldValues)
        },
        process(record: Record<K, Change<V>>) {
          if (record.key === null || record.key === undefined) {
            throw new StreamsError('PROCESSING', `Record key for KTable aggregate operator with state ${storeName} should not be null.`)
          }
          const previous = store.get(record.key)
          const oldAgg = ValueAndTimestamp.getValueOrNull(previous)
          const [newAgg, used] = apply(record.key, record.value, oldAgg)
          const timestamp = used && previous !== null ? Math.max(record.timestamp, previous.timestamp) : record.timestamp
          store.put(record.key, ValueAndTimestamp.make(newAgg, timestamp))
          forwarder.maybeForward(record.withValue(new Change<VA>(newAgg, sendOldValues ? oldAgg : null)).withTimestamp(timestamp))
        }
      }
    }
  }
  return supplier
}
