/**
 * The typed face of a timestamped key-value store (Kafka's MeteredTimestampedKeyValueStore): a
 * metered store whose values are `ValueAndTimestamp<V>`, serialized by wrapping the plain value
 * serde (given or default) in a ValueAndTimestampSerde over the same bytes store. Its changelog
 * (and a source topic restored into it) holds plain values stamped with the record timestamp, so
 * it converts restored records into the stored layout, as Kafka's state manager does for every
 * timestamped store (RecordConverters.rawValueToTimestampedValue).
 */
import type { Serde } from '../serialization/serde.js'
import type { TimestampedKeyValueStore, ValueAndTimestamp } from './key-value-store.js'
import { MeteredKeyValueStore, type MeteredKeyValueStoreOptions } from './metered-key-value-store.js'
import type { StateStoreContext } from './state-store.js'
import { timestampedRestoreContext, timestampedValueSerde } from './timestamped-store-values.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
import { keyValueQuery } from '../runtime/iq/v2/store-query-handler.js'

/** `valueSerde` is the plain value serde; when undefined, `defaultValueSerde` from the app configs is used. */
export type MeteredTimestampedKeyValueStoreOptions<K, V> = MeteredKeyValueStoreOptions<K, V>

export class MeteredTimestampedKeyValueStore<K, V>
  extends MeteredKeyValueStore<K, ValueAndTimestamp<V>>
  implements TimestampedKeyValueStore<K, V>
{
  readonly #plainValueSerde: Serde<V> | undefined

  constructor(options: MeteredTimestampedKeyValueStoreOptions<K, V>) {
    super({ ...options, valueSerde: undefined })
    this.#plainValueSerde = options.valueSerde
  }

  protected override innerContext(context: StateStoreContext): StateStoreContext {
    return timestampedRestoreContext(context)
  }

  /** KeyQuery and RangeQuery with plain values, TimestampedKeyQuery and TimestampedRangeQuery with ValueAndTimestamp. */
  protected override builtInQuery(query: Query<unknown>): QueryResult<unknown> | undefined {
    return keyValueQuery(this, query, true)
  }

  protected override prepareValueSerde(
    _configured: Serde<ValueAndTimestamp<V>> | undefined,
    defaultSerde: Serde<unknown> | undefined
  ): Serde<ValueAndTimestamp<V>> | undefined {
    return timestampedValueSerde(this.#plainValueSerde, defaultSerde)
  }
}
