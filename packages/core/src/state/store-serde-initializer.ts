/**
 * Resolves the serdes of a typed store layer at init (Kafka's StoreSerdeInitializer): the serde
 * given to the builder, else the configured default, else an INVALID_CONFIG error naming the
 * store. The serdes see the store's changelog topic.
 */
import { ConfigError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import type { StateStoreContext } from './state-store.js'
import { StateSerdes } from './state-serdes.js'

/** Turns the plain value serde (given or default) into the serde the store writes with. */
export type ValueSerdePreparer<V> = (configured: Serde<V> | undefined, defaultSerde: Serde<unknown> | undefined) => Serde<V> | undefined

export function prepareStoreSerdes<K, V>(
  context: StateStoreContext,
  storeName: string,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
  prepareValueSerde: ValueSerdePreparer<V>
): StateSerdes<K, V> {
  const configs = context.appConfigs
  const key = keySerde ?? (configs.defaultKeySerde as Serde<K> | undefined)
  if (key === undefined) {
    throw new ConfigError(
      'defaultKeySerde',
      `Store "${storeName}" has no key serde: pass one to the store builder or set defaultKeySerde in the config`
    )
  }
  const value = prepareValueSerde(valueSerde, configs.defaultValueSerde)
  if (value === undefined) {
    throw new ConfigError(
      'defaultValueSerde',
      `Store "${storeName}" has no value serde: pass one to the store builder or set defaultValueSerde in the config`
    )
  }
  return new StateSerdes(storeName, StateSerdes.changelogTopic(context.applicationId, storeName), key, value)
}
