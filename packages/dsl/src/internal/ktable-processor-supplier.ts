/**
 * The supplier of a processor producing KTable updates (Kafka Streams' KTableProcessorSupplier):
 * besides creating processors it can be asked, before the topology runs, to send old values
 * with each `Change`, and for a view (KTableValueGetterSupplier) through which a join or lookup
 * reads the table's current value of a key. @internal
 */
import type { ProcessingContext, Processor } from '@kstreams/core'
import { ValueAndTimestamp } from '@kstreams/core'
import type { Change } from '../change.js'
import { KeyValueStoreWrapper } from './key-value-store-wrapper.js'

export interface KTableProcessorSupplier<KIn, VIn, KOut, VOut> {
  get(): Processor<KIn, VIn, KOut, Change<VOut>>
  sendOldValues: boolean
  /** The store the processor writes, when it is materialized. */
  readonly storeName: string | undefined
  /**
   * Asks for old values; returns whether this operator (and its parents) can send them. With
   * `forceMaterialization` an unmaterialized source table becomes materialized to do so.
   */
  enableSendingOldValues(forceMaterialization: boolean): boolean
  /**
   * The table's current values, for joins and lookups. A source table becomes materialized; a
   * stateless operator reads its parent's view and applies itself. The processor reading the view
   * must be connected to `storeNames()`.
   */
  view(): KTableValueGetterSupplier<KOut, VOut>
}

/** Reads a table's current value of a key (Kafka Streams' KTableValueGetter); one per task. */
export interface KTableValueGetter<K, V> {
  init(context: ProcessingContext): void
  /** The value and its timestamp, or null when the table has no value for the key. */
  get(key: K): ValueAndTimestamp<V> | null
  /**
   * The value valid at `asOfTimestamp`, with its timestamp (a versioned table, KIP-914); getters
   * of non-versioned tables leave it out.
   */
  getAsOf?(key: K, asOfTimestamp: number): ValueAndTimestamp<V> | null
  /** Whether the table is versioned, so that getAsOf answers by timestamp (Kafka's isVersioned()). */
  isVersioned?(): boolean
  close?(): void
}

export interface KTableValueGetterSupplier<K, V> {
  get(): KTableValueGetter<K, V>
  /** The stores the getter reads; connect them to the processor that uses the getter. */
  storeNames(): string[]
}

/** A view reading a materialized table's timestamped store. */
export function storeValueGetterSupplier<K, V>(storeName: string): KTableValueGetterSupplier<K, V> {
  return {
    storeNames: () => [storeName],
    get: () => {
      let store: KeyValueStoreWrapper<K, V>
      return {
        init(context) {
          store = new KeyValueStoreWrapper<K, V>(context.getStateStore(storeName))
        },
        get: key => store.get(key),
        getAsOf: (key, asOfTimestamp) => store.getAsOf(key, asOfTimestamp),
        isVersioned: () => store.isVersioned
      }
    }
  }
}

/** A view applying `compute` to the parent's value (a null result reads as no value), keeping its timestamp. */
export function computedValueGetterSupplier<K, V, VR>(
  parent: KTableValueGetterSupplier<K, V>,
  compute: (key: K, value: V | null) => VR | null
): KTableValueGetterSupplier<K, VR> {
  return {
    storeNames: () => parent.storeNames(),
    get: () => {
      const getter = parent.get()
      const computed = (key: K, vt: ValueAndTimestamp<V> | null): ValueAndTimestamp<VR> | null => {
        const result = compute(key, ValueAndTimestamp.getValueOrNull(vt))
        return result === null ? null : ValueAndTimestamp.make(result, vt?.timestamp ?? -1)
      }
      return {
        init(context) {
          getter.init(context)
        },
        get(key) {
          return computed(key, getter.get(key))
        },
        // A computed view of a versioned table answers as of a time too (Kafka's KTableFilter/KTableMapValues getters).
        getAsOf(key, asOfTimestamp) {
          return computed(key, getter.getAsOf !== undefined ? getter.getAsOf(key, asOfTimestamp) : getter.get(key))
        },
        isVersioned() {
          return getter.isVersioned?.() === true
        },
        close() {
          getter.close?.()
        }
      }
    }
  }
}
