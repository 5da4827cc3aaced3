/**
 * The typed face of a timestamped key-value store (Kafka's MeteredTimestampedKeyValueStore): a
 * metered store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store.
 */
import type { Serde } from '../serialization/serde.js'
import type { KeyValueBytesStore, TimestampedKeyValueStore, ValueAndTimestamp } from './key-value-store.js'
import { MeteredKeyValueStore } from './metered-key-value-store.js'
import { ValueAndTimestampSerde } from './value-and-timestamp-serde.js'

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

  protected override prepareValueSerde (_configured: Serde<ValueAndTimestamp<V>> | undefined, defaultSerde: Serde<unknown> | undefined): Serde<ValueAndTimestamp<V>> | undefined {
    const plain = this.#plainValueSerde ?? defaultSerde as Serde<V> | undefined
    return plain === undefined ? undefined : new ValueAndTimestampSerde(plain)
  }
}
