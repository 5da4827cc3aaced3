/**
 * The node producing a KTable-KTable join's result table (Kafka Streams' KTableKTableJoinMerger):
 * it receives the joined updates of both join sides and forwards them, writing them first to
 * the result store when the join is materialized (forwarding then goes through the store's cache
 * when it caches). Old values are sent only once a downstream operator asked for them, which
 * makes both join sides (and their parent tables) send old values too. Its view reads the result
 * store when materialized, else computes the join from both parents' views. @internal
 */
import { ValueAndTimestamp } from '@kstreams/core'
import type { Processor, ProcessorContext, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { Change } from '../change.js'
import { storeValueGetterSupplier } from './ktable-processor-supplier.js'
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

export class KTableKTableJoinMerger<K, VR> implements KTableProcessorSupplier<K, Change<VR>, K, VR> {
  sendOldValues = false
  /** The result store, when the join is materialized. */
  readonly storeName: string | undefined
  readonly #thisSide: KTableProcessorSupplier<unknown, unknown, K, VR>
  readonly #otherSide: KTableProcessorSupplier<unknown, unknown, K, VR>

  constructor(
    thisSide: KTableProcessorSupplier<unknown, unknown, K, VR>,
    otherSide: KTableProcessorSupplier<unknown, unknown, K, VR>,
    storeName: string | undefined
  ) {
    this.#thisSide = thisSide
    this.#otherSide = otherSide
    this.storeName = storeName
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.storeName !== undefined) return storeValueGetterSupplier<K, VR>(this.storeName)
    const thisView = this.#thisSide.view()
    const otherView = this.#otherSide.view()
    return {
      get: () => thisView.get(),
      storeNames: () => [...new Set([...thisView.storeNames(), ...otherView.storeNames()])]
    }
  }

  enableSendingOldValues(_forceMaterialization: boolean): boolean {
    this.#thisSide.enableSendingOldValues(true)
    this.#otherSide.enableSendingOldValues(true)
    this.sendOldValues = true
    return true
  }

  get(): Processor<K, Change<VR>, K, Change<VR>> {
    const { storeName, sendOldValues } = this
    let context: ProcessorContext<K, Change<VR>>
    let store: TimestampedKeyValueStore<K, VR> | undefined
    let forwarder: TimestampedTupleForwarder<K, VR> | undefined
    return {
      init(c) {
        context = c
        if (storeName !== undefined) {
          store = c.getStateStore<TimestampedKeyValueStore<K, VR>>(storeName)
          forwarder = new TimestampedTupleForwarder(store, c, sendOldValues)
        }
      },
      process(record: Record<K, Change<VR>>) {
        if (store !== undefined && forwarder !== undefined) {
          store.put(record.key, ValueAndTimestamp.make(record.value.newValue, record.timestamp))
          forwarder.maybeForward(record)
          return
        }
        context.forward(sendOldValues ? record : record.withValue(new Change(record.value.newValue, null)))
      }
    }
  }
}
