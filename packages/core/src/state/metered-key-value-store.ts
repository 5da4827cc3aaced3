/**
 * The outermost key-value store layer (Kafka's MeteredKeyValueStore): the typed face of a store.
 * It owns the store's serdes (resolved at init, falling back to the configured default serdes) and
 * turns typed calls into byte calls on the layer below; everything beneath works on bytes.
 * Latency metrics will be recorded here (one sensor per operation) when metrics arrive.
 */
import { ConfigError, InvalidStateStoreError, StreamsError } from '../errors.js'
import { KeyValue } from '../key-value.js'
import type { Serde, Serializer } from '../serialization/serde.js'
import type { KeyValueBytesStore, KeyValueIterator, KeyValueStore } from './key-value-store.js'
import { MeteredKeyValueIterator } from './metered-key-value-iterator.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import { StateSerdes } from './state-serdes.js'

export interface MeteredKeyValueStoreOptions<K, V> {
  /** The layer below: caching, change-logging or the backend bytes store. */
  inner: KeyValueBytesStore
  /** The supplier's metrics scope ('in-memory', 'rocksdb', ...), for metric names. */
  metricsScope: string
  /** When undefined, `defaultKeySerde` from the app configs is used at init. */
  keySerde?: Serde<K> | undefined
  /** When undefined, `defaultValueSerde` from the app configs is used at init. */
  valueSerde?: Serde<V> | undefined
}

/** Hands an already-serialized prefix to the layer below. */
const RAW_PREFIX: Serializer<Buffer> = { serialize: (_topic, data) => data }

export class MeteredKeyValueStore<K, V> implements KeyValueStore<K, V> {
  readonly #inner: KeyValueBytesStore
  readonly #metricsScope: string
  readonly #keySerde: Serde<K> | undefined
  readonly #valueSerde: Serde<V> | undefined
  #serdes: StateSerdes<K, V> | undefined

  constructor (options: MeteredKeyValueStoreOptions<K, V>) {
    this.#inner = options.inner
    this.#metricsScope = options.metricsScope
    this.#keySerde = options.keySerde
    this.#valueSerde = options.valueSerde
  }

  get name (): string {
    return this.#inner.name
  }

  get persistent (): boolean {
    return this.#inner.persistent
  }

  /** The metrics scope of the backend ('in-memory', 'rocksdb', ...). */
  get metricsScope (): string {
    return this.#metricsScope
  }

  /** Resolves the serdes, then opens the layers below (which register the store for restore). */
  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#serdes = this.#prepareSerdes(context)
    return this.#inner.init(context, root)
  }

  flush (): void {
    this.#inner.flush()
  }

  close (): void {
    this.#inner.close()
  }

  isOpen (): boolean {
    return this.#inner.isOpen()
  }

  get (key: K): V | null {
    const serdes = this.#requireSerdes()
    return serdes.valueFrom(this.#inner.get(serdes.rawKey(key)))
  }

  put (key: K, value: V | null): void {
    const serdes = this.#requireSerdes()
    this.#inner.put(serdes.rawKey(key), serdes.rawValue(value))
  }

  putIfAbsent (key: K, value: V | null): V | null {
    const serdes = this.#requireSerdes()
    return serdes.valueFrom(this.#inner.putIfAbsent(serdes.rawKey(key), serdes.rawValue(value)))
  }

  putAll (entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    const serdes = this.#requireSerdes()
    const raw = entries.map(entry => new KeyValue(serdes.rawKey(entry.key), serdes.rawValue(entry.value)))
    this.#inner.putAll(raw)
  }

  delete (key: K): V | null {
    const serdes = this.#requireSerdes()
    return serdes.valueFrom(this.#inner.delete(serdes.rawKey(key)))
  }

  range (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    return new MeteredKeyValueIterator(this.#inner.range(this.#rawBound(serdes, from), this.#rawBound(serdes, to)), serdes)
  }

  reverseRange (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    return new MeteredKeyValueIterator(this.#inner.reverseRange(this.#rawBound(serdes, from), this.#rawBound(serdes, to)), serdes)
  }

  all (): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    return new MeteredKeyValueIterator(this.#inner.all(), serdes)
  }

  reverseAll (): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    return new MeteredKeyValueIterator(this.#inner.reverseAll(), serdes)
  }

  /** Keys that start with the serialized prefix. The prefix is serialized on the changelog topic. */
  prefixScan<P> (prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    if (prefix === null || prefix === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": prefix cannot be null`)
    }
    if (prefixKeySerializer === null || prefixKeySerializer === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": prefixKeySerializer cannot be null`)
    }
    const rawPrefix = serdes.rawWith(prefixKeySerializer, prefix, 'a prefix')
    return new MeteredKeyValueIterator(this.#inner.prefixScan(rawPrefix, RAW_PREFIX), serdes)
  }

  approximateNumEntries (): number {
    this.#requireSerdes()
    return this.#inner.approximateNumEntries()
  }

  /**
   * Chooses the value serde from the one given to the builder and the configured default. The
   * timestamped store overrides it to wrap the plain value serde. Undefined means none is set.
   */
  protected prepareValueSerde (configured: Serde<V> | undefined, defaultSerde: Serde<unknown> | undefined): Serde<V> | undefined {
    return configured ?? defaultSerde as Serde<V> | undefined
  }

  #prepareSerdes (context: StateStoreContext): StateSerdes<K, V> {
    const configs = context.appConfigs
    const keySerde = this.#keySerde ?? configs.defaultKeySerde as Serde<K> | undefined
    if (keySerde === undefined) {
      throw new ConfigError('defaultKeySerde', `Store "${this.name}" has no key serde: pass one to the store builder or set defaultKeySerde in the config`)
    }
    const valueSerde = this.prepareValueSerde(this.#valueSerde, configs.defaultValueSerde)
    if (valueSerde === undefined) {
      throw new ConfigError('defaultValueSerde', `Store "${this.name}" has no value serde: pass one to the store builder or set defaultValueSerde in the config`)
    }
    return new StateSerdes(this.name, StateSerdes.changelogTopic(context.applicationId, this.name), keySerde, valueSerde)
  }

  #requireSerdes (): StateSerdes<K, V> {
    const serdes = this.#serdes
    if (serdes === undefined) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open: it has not been initialised`)
    }
    return serdes
  }

  #rawBound (serdes: StateSerdes<K, V>, bound: K | undefined): Buffer | undefined {
    return bound === undefined || bound === null ? undefined : serdes.rawKey(bound)
  }
}
