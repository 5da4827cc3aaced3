/**
 * The typed face of a timestamped key-value store (Kafka's MeteredTimestampedKeyValueStore): a
 * metered store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store. Its changelog
 * (and a source topic restored into it) holds plain values stamped with the record timestamp, so
 * it converts restored records into the stored layout, as Kafka's state manager does for every
 * timestamped store (RecordConverters.rawValueToTimestampedValue).
 */
import type { Serde } from '../serialization/serde.js'
import type { KeyValueBytesStore, TimestampedKeyValueStore, ValueAndTimestamp } from './key-value-store.js'
import { MeteredKeyValueStore } from './metered-key-value-store.js'
import type { StateRestoreCallback, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'
import { ValueAndTimestampSerde } from './value-and-timestamp-serde.js'

const TIMESTAMP_SIZE = 8
const TWO_POW_32 = 2 ** 32

export interface MeteredTimestampedKeyValueStoreOptions<K, V> {
  inner: KeyValueBytesStore
  metricsScope: string
  keySerde?: Serde<K> | undefined
  /** The plain value serde; when undefined, `defaultValueSerde` from the app configs is used. */
  valueSerde?: Serde<V> | undefined
}

export class MeteredTimestampedKeyValueStore<K, V>
  extends MeteredKeyValueStore<K, ValueAndTimestamp<V>>
  implements TimestampedKeyValueStore<K, V> {
  readonly #plainValueSerde: Serde<V> | undefined

  constructor (options: MeteredTimestampedKeyValueStoreOptions<K, V>) {
    super({ inner: options.inner, metricsScope: options.metricsScope, keySerde: options.keySerde })
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
      const high = Math.floor(r.timestamp / TWO_POW_32)
      value.writeInt32BE(high, 0)
      value.writeUInt32BE(r.timestamp - high * TWO_POW_32, 4)
      r.value.copy(value, TIMESTAMP_SIZE)
      return { key: r.key, value, timestamp: r.timestamp }
    }))
  }
}
