/**
 * The KTableProcessorSupplier of a windowed aggregation (Kafka Streams' KStreamAggProcessorSupplier
 * for KStreamWindowAggregate, KStreamSlidingWindowAggregate and KStreamSessionWindowAggregate):
 * it can always send old values, and its view reads the aggregation's store (Kafka's
 * KStreamWindowAggregateValueGetter and KTableSessionWindowValueGetter). @internal
 */
import { ValueAndTimestamp } from '@kstreams/core'
import type { Processor, SessionStore, TimestampedWindowStore, Windowed } from '@kstreams/core'
import type { Change } from '../change.js'
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-processor-supplier.js'

export type StoreKind = 'window' | 'session'

export function windowedAggregateSupplier<K, V, VA>(
  storeName: string,
  kind: StoreKind,
  create: (sendOldValues: boolean) => Processor<K, V, Windowed<K>, Change<VA>>
): KTableProcessorSupplier<K, V, Windowed<K>, VA> {
  const supplier: KTableProcessorSupplier<K, V, Windowed<K>, VA> = {
    sendOldValues: false,
    storeName,
    enableSendingOldValues(): boolean {
      supplier.sendOldValues = true
      return true
    },
    view: () => (kind === 'window' ? windowStoreView<K, VA>(storeName) : sessionStoreView<K, VA>(storeName)),
    get: () => create(supplier.sendOldValues)
  }
  return supplier
}

/** The value of a window: the window of the key starting at the window's start. */
function windowStoreView<K, VA>(storeName: string): KTableValueGetterSupplier<Windowed<K>, VA> {
  return {
    storeNames: () => [storeName],
    get: () => {
      let store: TimestampedWindowStore<K, VA>
      return {
        init(context) {
          store = context.getStateStore<TimestampedWindowStore<K, VA>>(storeName)
        },
        get: windowed => store.fetch(windowed.key, windowed.window.start)
      }
    }
  }
}

/** The value of a session, stamped with the session's end. */
function sessionStoreView<K, VA>(storeName: string): KTableValueGetterSupplier<Windowed<K>, VA> {
  return {
    storeNames: () => [storeName],
    get: () => {
      let store: SessionStore<K, VA>
      return {
        init(context) {
          store = context.getStateStore<SessionStore<K, VA>>(storeName)
        },
        get: windowed =>
          ValueAndTimestamp.make(store.fetchSession(windowed.key, windowed.window.start, windowed.window.end), windowed.window.end)
      }
    }
  }
}
