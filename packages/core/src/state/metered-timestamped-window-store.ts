/**
 * The typed face of a timestamped window store (Kafka's MeteredTimestampedWindowStore): a metered
 * window store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store.
 */
import type { Serde } from '../serialization/serde.js'
import type { ValueAndTimestamp } from './key-value-store.js'
import { MeteredWindowStore } from './metered-window-store.js'
import { ValueAndTimestampSerde } from './value-and-timestamp-serde.js'
import type { TimestampedWindowStore, WindowBytesStore } from './window-store.js'

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

  protected override prepareValueSerde (_configured: Serde<ValueAndTimestamp<V>> | undefined, defaultSerde: Serde<unknown> | undefined): Serde<ValueAndTimestamp<V>> | undefined {
    const plain = this.#plainValueSerde ?? defaultSerde as Serde<V> | undefined
    return plain === undefined ? undefined : new ValueAndTimestampSerde(plain)
  }
}
