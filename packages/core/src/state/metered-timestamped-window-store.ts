/**
 * The typed face of a timestamped window store (Kafka's MeteredTimestampedWindowStore): a metered
 * window store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store. Its changelog
 * holds plain values stamped with the record timestamp, so it converts restored records into the
 * stored layout `[8-byte timestamp][value]`, as Kafka's state manager does for every timestamped
 * store (RecordConverters.rawValueToTimestampedValue).
 */
import type { Serde } from '../serialization/serde.js'
import type { ValueAndTimestamp } from './key-value-store.js'
import { MeteredWindowStore, type MeteredWindowStoreOptions } from './metered-window-store.js'
import type { StateStoreContext } from './state-store.js'
import { timestampedRestoreContext, timestampedValueSerde } from './timestamped-store-values.js'
import type { TimestampedWindowStore } from './window-store.js'

/** `valueSerde` is the plain value serde; when undefined, `defaultValueSerde` from the app configs is used. */
export type MeteredTimestampedWindowStoreOptions<K, V> = MeteredWindowStoreOptions<K, V>

export class MeteredTimestampedWindowStore<K, V>
  extends MeteredWindowStore<K, ValueAndTimestamp<V>>
  implements TimestampedWindowStore<K, V>
{
  readonly #plainValueSerde: Serde<V> | undefined

  constructor(options: MeteredTimestampedWindowStoreOptions<K, V>) {
    super({ ...options, valueSerde: undefined })
    this.#plainValueSerde = options.valueSerde
  }

  protected override innerContext(context: StateStoreContext): StateStoreContext {
    return timestampedRestoreContext(context)
  }

  protected override prepareValueSerde(
    _configured: Serde<ValueAndTimestamp<V>> | undefined,
    defaultSerde: Serde<unknown> | undefined
  ): Serde<ValueAndTimestamp<V>> | undefined {
    return timestampedValueSerde(this.#plainValueSerde, defaultSerde)
  }
}
