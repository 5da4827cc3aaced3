/**
 * What the typed timestamped key-value and window stores share (Kafka's
 * MeteredTimestampedKeyValueStore and MeteredTimestampedWindowStore): their value serde, the
 * plain value serde (given or default) wrapped in a ValueAndTimestampSerde, and the conversion of
 * restored changelog records (plain values stamped with the record timestamp) into the stored
 * layout `[8-byte timestamp][value]`, as Kafka's state manager does for every timestamped store
 * (RecordConverters.rawValueToTimestampedValue). @internal
 */
import type { Serde } from '../serialization/serde.js'
import type { ValueAndTimestamp } from './key-value-store.js'
import type { StateRestoreCallback, StateStoreContext } from './state-store.js'
import { StateStoreContextOverlay } from './state-store-context-overlay.js'
import { ValueAndTimestampSerde } from './value-and-timestamp-serde.js'

const TIMESTAMP_SIZE = 8
const TWO_POW_32 = 2 ** 32

/** The serde of `ValueAndTimestamp<V>` over the plain value serde, else the default; undefined when neither is set. */
export function timestampedValueSerde<V>(
  plain: Serde<V> | undefined,
  defaultSerde: Serde<unknown> | undefined
): Serde<ValueAndTimestamp<V>> | undefined {
  const serde = plain ?? (defaultSerde as Serde<V> | undefined)
  return serde === undefined ? undefined : new ValueAndTimestampSerde(serde)
}

/** The context handed below a timestamped store: restored records are converted before they are applied. */
export function timestampedRestoreContext(context: StateStoreContext): StateStoreContext {
  return new StateStoreContextOverlay(context, {
    register: (store, restore) => {
      context.register(store, toTimestampedRestore(restore))
    }
  })
}

/** Prefixes each restored value with its record timestamp: `[8-byte timestamp][value]`. */
function toTimestampedRestore(restore: StateRestoreCallback): StateRestoreCallback {
  return records => {
    restore(
      records.map(r => {
        if (r.value === null) return r
        const value = Buffer.allocUnsafe(TIMESTAMP_SIZE + r.value.length)
        const high = Math.floor(r.timestamp / TWO_POW_32)
        value.writeInt32BE(high, 0)
        value.writeUInt32BE(r.timestamp - high * TWO_POW_32, 4)
        r.value.copy(value, TIMESTAMP_SIZE)
        return { key: r.key, value, timestamp: r.timestamp }
      })
    )
  }
}
