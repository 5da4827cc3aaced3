/**
 * What every store builder shares (Kafka's AbstractStoreBuilder): the store name, the serdes
 * handed to the metered layer, and the layer toggles. As in Kafka Streams, caching is off and
 * logging is on by default; `withLoggingEnabled(config)` sets the changelog topic-config
 * overrides the runtime reads (`logConfig`), `withLoggingDisabled()` clears them. Each concrete
 * builder composes metered -> caching (optional) -> change-logging (optional) -> backend.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import type { StateStore, StoreBuilder } from './state-store.js'
import { validateStoreName } from './store-name.js'

const NO_LOG_CONFIG: Readonly<Record<string, string>> = Object.freeze({})

export abstract class AbstractStoreBuilder<K, V, S extends StateStore> implements StoreBuilder<S> {
  /** The name of the stores it builds. */
  readonly name: string
  /** The key serde of the metered layer; undefined: the config's defaultKeySerde. */
  protected readonly keySerde: Serde<K> | undefined
  /** The value serde of the metered layer; undefined: the config's defaultValueSerde. */
  protected readonly valueSerde: Serde<V> | undefined
  #cachingEnabled = false
  #loggingEnabled = true
  #logConfig: Readonly<Record<string, string>> = NO_LOG_CONFIG

  constructor(name: string, keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined) {
    this.name = validateStoreName(name)
    this.keySerde = checkSerde(name, 'keySerde', keySerde)
    this.valueSerde = checkSerde(name, 'valueSerde', valueSerde)
  }

  /** Whether the stores have a caching layer (default: false). */
  get cachingEnabled(): boolean {
    return this.#cachingEnabled
  }
  /** Whether the stores write a changelog topic (default: true). */
  get loggingEnabled(): boolean {
    return this.#loggingEnabled
  }
  /** Topic configs of the changelog topic, overriding the defaults. */
  get logConfig(): Readonly<Record<string, string>> {
    return this.#logConfig
  }

  /** Adds the caching layer: writes are deduplicated in the thread's record cache until a flush. */
  withCachingEnabled(): this {
    this.#cachingEnabled = true
    return this
  }

  /** Leaves the caching layer out (the default). */
  withCachingDisabled(): this {
    this.#cachingEnabled = false
    return this
  }

  /** Logs every write to the changelog topic, created with `config` as topic-config overrides. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): this {
    this.#logConfig = checkLogConfig(this.name, config)
    this.#loggingEnabled = true
    return this
  }

  /** Leaves the changelog out: the stores are not restored after a failure or a move. */
  withLoggingDisabled(): this {
    this.#loggingEnabled = false
    this.#logConfig = NO_LOG_CONFIG
    return this
  }

  /** Returns a new store on every call (one per task). */
  abstract build(): S
}

function checkSerde<T>(storeName: string, what: string, serde: Serde<T> | undefined | null): Serde<T> | undefined {
  if (serde === undefined || serde === null) return undefined
  if (typeof serde.serializer !== 'function' || typeof serde.deserializer !== 'function') {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Store "${storeName}": ${what} must be a Serde (an object with serializer() and deserializer())`
    )
  }
  return serde
}

function checkLogConfig(storeName: string, config: Readonly<Record<string, string>> | null): Readonly<Record<string, string>> {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": the changelog config must be an object of topic configs`)
  }
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'string') {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${storeName}": changelog config "${key}" must be a string, got ${typeof value}`)
    }
  }
  return Object.freeze({ ...config })
}
