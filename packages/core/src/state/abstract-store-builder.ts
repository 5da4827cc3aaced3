/**
 * What every store builder shares (Kafka's AbstractStoreBuilder): the store name, the serdes
 * handed to the metered layer, and the logging settings the runtime reads. Logging is on by
 * default with no topic-config overrides, as in Kafka Streams; the toggles (logging, caching)
 * arrive with the change-logging and caching layers.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import type { StateStore, StoreBuilder } from './state-store.js'
import { validateStoreName } from './store-name.js'

const NO_LOG_CONFIG: Readonly<Record<string, string>> = Object.freeze({})

export abstract class AbstractStoreBuilder<K, V, S extends StateStore> implements StoreBuilder<S> {
  readonly name: string
  readonly loggingEnabled: boolean = true
  readonly logConfig: Readonly<Record<string, string>> = NO_LOG_CONFIG
  protected readonly keySerde: Serde<K> | undefined
  protected readonly valueSerde: Serde<V> | undefined

  constructor (name: string, keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined) {
    this.name = validateStoreName(name)
    this.keySerde = checkSerde(name, 'keySerde', keySerde)
    this.valueSerde = checkSerde(name, 'valueSerde', valueSerde)
  }

  /** Returns a new store on every call (one per task). */
  abstract build (): S
}

function checkSerde<T> (storeName: string, what: string, serde: Serde<T> | undefined | null): Serde<T> | undefined {
  if (serde === undefined || serde === null) return undefined
  if (typeof serde.serializer !== 'function' || typeof serde.deserializer !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": ${what} must be a Serde (an object with serializer() and deserializer())`)
  }
  return serde
}
