/**
 * The typed face of a timestamped window store (Kafka's MeteredTimestampedWindowStore): a metered
 * window store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store. Its changelog
 * holds plain values stamped with the record timestamp, so it converts restored records into the
 * stored layout `[8-byte timestamp][value]`, as Kafka's state manager does for every timestamped
 * store (RecordConverters.rawValueToTimestampedValue).
 */
import type { Serde } from '../serialization/serde.js'
import { writeInt64BE } from './int64-be.js'
import type { ValueAndTimestamp } from './key-value-store.js'
import { MeteredWindowStore } from './metered-window-store.js'
import type { StateRestoreCallback, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'
import { ValueAndTimestampSerde } from './value-and-timestamp-serde.js'
import type { TimestampedWindowStore, WindowBytesStore } from './window-store.js'

const TIMESTAMP_SIZE = 8

export interface MeteredTimestampedWindowStoreOptions<K, V> {
  inner: WindowBytesStore
  metricsScope: string
  windowSize: number
  keySerde?: Serde<K> | undefined
  /** The plain value serde; when undefined, `defaultValueSerde` from the app configs is used. */
  valueSerde?: Serde<V> | undefined
}

export class MeteredTimestampedWindowStore<K, V>
  extends MeteredWindowStore<K, ValueAndTimestamp<V>>
  implements TimestampedWindowStore<K, V> {
  readonly #plainValueSerde: Serde<V> | undefined

  constructor (options: MeteredTimestampedWindowStoreOptions<K, V>) {
    super({ inner: options.inner, metricsScope: options.metricsScope, windowSize: options.windowSize, keySerde: options.keySerde })
    this.#plainValueSerde = options.valueSerde
  }

  protected override innerContext (context: StateStoreContext): StateStoreContext {
    return new StateStoreContextOverlay(context, {
      register: (store, restore) => { context.register(store, toTimestampedRestore(restore)) }
    })
  }

  protected override prepareValueSerde (_configured: Serde<ValueAndTimestamp<V>> | undefined, defaultSerde: Serde<unknown> | undefined): Serde<ValueAndTimestamp<V>> | undefined {
    const plain = this.#plainValueSerde ?? defaultSerde as Serde<V> | undefined
    return plain === undefined ? undefined : new ValueAndTimestampSerde(plain)
  }
}

/** Prefixes each restored value with its record timestamp: `[8-byte timestamp][value]`. */
function toTimestampedRestore (restore: StateRestoreCallback): StateRestoreCallback {
  return records => {
    restore(records.map(r => {
      if (r.value === null) return r
      const value = Buffer.allocUnsafe(TIMESTAMP_SIZE + r.value.length)
      writeInt64BE(value, r.timestamp, 0)
      r.value.copy(value, TIMESTAMP_SIZE)
      return { key: r.key, value, timestamp: r.timestamp }
    }))
  }
}
