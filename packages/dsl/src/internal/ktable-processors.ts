/**
 * The processors behind KTable sources and stateless KTable operators (Kafka Streams'
 * KTableSource, KTableFilter, KTableMapValues). Each processes `Change(new, old)` records; a
 * materialized operator writes its store and forwards through a TimestampedTupleForwarder (on
 * cache flush when the store caches), an unmaterialized one forwards at once. Old values are
 * computed and sent only once `enableSendingOldValues` succeeded. @internal
 */
import { IllegalStateError, PUT_RETURN_CODE_VALID_TO_UNDEFINED, ValueAndTimestamp } from '@kstreams/core'
import type { Processor, ProcessorContext, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import { Change } from '../change.js'
import { KeyValueStoreWrapper } from './key-value-store-wrapper.js'
import { computedValueGetterSupplier, storeValueGetterSupplier } from './ktable-processor-supplier.js'
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

/**
 * Turns topic records into table updates. Materialized (when named, or forced by an operator
 * that needs old values) it stores each value and sends the previous one as the old value.
 * Records with a null key are dropped and counted (dropped-records metric), as in KTableSource.
 */
export class KTableSourceSupplier<K, V> implements KTableProcessorSupplier<K, V, K, V> {
  sendOldValues = false
  #storeName: string
  #materialized: boolean
  readonly #onMaterialize: () => void
  /** Whether the table's store is versioned (Materialized.as(versionedSupplier), KIP-914). */
  readonly versioned: boolean

  constructor(storeName: string, materialized: boolean, onMaterialize: () => void, versioned = false) {
    this.#storeName = storeName
    this.#materialized = materialized
    this.#onMaterialize = onMaterialize
    this.versioned = versioned
  }

  get storeName(): string | undefined {
    return this.#materialized ? this.#storeName : undefined
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (!this.#materialized) {
      if (!forceMaterialization) return false
      this.#materialized = true
      this.#onMaterialize()
    }
    this.sendOldValues = true
    return true
  }

  /** Materializes the table (Kafka's KTableSource.materialize) and reads its store. */
  view(): KTableValueGetterSupplier<K, V> {
    if (!this.#materialized) {
      this.#materialized = true
      this.#onMaterialize()
    }
    return storeValueGetterSupplier<K, V>(this.#storeName)
  }

  get(): Processor<K, V, K, Change<V>> {
    const storeName = this.storeName
    const sendOldValues = this.sendOldValues
    let context: ProcessorContext<K, Change<V>>
    let store: KeyValueStoreWrapper<K, V> | undefined
    let forwarder: TimestampedTupleForwarder<K, V> | undefined
    return {
      init(c) {
        context = c
        if (storeName !== undefined) {
          store = new KeyValueStoreWrapper<K, V>(c.getStateStore(storeName))
          forwarder = new TimestampedTupleForwarder(store.store, c, sendOldValues)
        }
      },
      process(record: Record<K, V>) {
        if (record.key === null || record.key === undefined) {
          recordDroppedRecord(context)
          return
        }
        if (store === undefined || forwarder === undefined) {
          context.forward(record.withValue(new Change<V>(record.value, null)))
          return
        }
        const oldValue = ValueAndTimestamp.getValueOrNull(store.get(record.key))
        const putReturnCode = store.put(record.key, record.value, record.timestamp)
        // A versioned table (KIP-914) emits only when its latest value changes: not for an
        // out-of-order update (kept in the history), nor for one older than its grace period.
        if (putReturnCode !== PUT_RETURN_CODE_VALID_TO_UNDEFINED) return
        forwarder.maybeForward(record.withValue(new Change<V>(record.value, oldValue)))
      }
    }
  }
}

/** The common shape of KTableFilter and KTableMapValues: a per-value function of a parent table's updates. */
export class KTableValueOperatorSupplier<K, V, VR> implements KTableProcessorSupplier<K, Change<V>, K, VR> {
  sendOldValues: boolean
  readonly storeName: string | undefined
  readonly #parent: KTableProcessorSupplier<unknown, unknown, K, V> | undefined
  readonly #compute: (key: K, value: V | null) => VR | null
  /** KTableFilter skips an update whose new and old results are both null. */
  readonly #skipNullChanges: boolean

  constructor(options: {
    parent: KTableProcessorSupplier<unknown, unknown, K, V> | undefined
    compute: (key: K, value: V | null) => VR | null
    storeName: string | undefined
    /** KTableFilter: true, and asks the parent for old values at once (sent when it is materialized). */
    isFilter: boolean
  }) {
    this.#parent = options.parent
    this.#compute = options.compute
    this.storeName = options.storeName
    this.#skipNullChanges = options.isFilter
    this.sendOldValues = options.isFilter ? (options.parent?.enableSendingOldValues(false) ?? false) : false
  }

  /** @internal The parent table's supplier (suppression looks upstream for a windowed aggregation). */
  get parentSupplier(): KTableProcessorSupplier<unknown, unknown, K, V> | undefined {
    return this.#parent
  }

  /** Reads its own store when materialized, else the parent's view with this operator applied. */
  view(): KTableValueGetterSupplier<K, VR> {
    if (this.storeName !== undefined) return storeValueGetterSupplier<K, VR>(this.storeName)
    if (this.#parent === undefined) throw new IllegalStateError('A KTable operator without a parent has no view')
    return computedValueGetterSupplier(this.#parent.view(), this.#compute)
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (this.storeName !== undefined) {
      this.sendOldValues = true
      return true
    }
    if (this.#parent?.enableSendingOldValues(forceMaterialization) === true) this.sendOldValues = true
    return this.sendOldValues
  }

  get(): Processor<K, Change<V>, K, Change<VR>> {
    const { storeName, sendOldValues } = this
    const compute = this.#compute
    const skipNullChanges = this.#skipNullChanges
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
      process(record: Record<K, Change<V>>) {
        const key = record.key
        const newValue = compute(key, record.value.newValue)
        let oldValue: VR | null = null
        if (sendOldValues) {
          oldValue = store !== undefined ? ValueAndTimestamp.getValueOrNull(store.get(key)) : compute(key, record.value.oldValue)
        }
        if (skipNullChanges && sendOldValues && oldValue === null && newValue === null) return
        if (store === undefined || forwarder === undefined) {
          context.forward(record.withValue(new Change(newValue, oldValue)))
          return
        }
        store.put(key, ValueAndTimestamp.make(newValue, record.timestamp))
        forwarder.maybeForward(record.withValue(new Change(newValue, oldValue)))
      }
    }
  }
}
