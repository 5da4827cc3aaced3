/**
 * The outermost key-value store layer (Kafka's MeteredKeyValueStore): the typed face of a store.
 * It owns the store's serdes (resolved at init, falling back to the configured default serdes) and
 * turns typed calls into byte calls on the layer below; everything beneath works on bytes.
 * It also owns the store's metrics: one sensor per operation (Kafka's `stream-state-metrics`,
 * `<op>-rate` always counted, `<op>-latency-avg/max` in ns at DEBUG), serialization included;
 * range, all and prefix-scan are timed from the iterator's creation to its close.
 */
import { ConfigError, InvalidStateStoreError, StreamsError } from '../errors.js'
import { KeyValue } from '../key-value.js'
import { Sensor } from '../metrics/sensor.js'
import { StateStoreMetrics } from '../metrics/state-store-metrics.js'
import type { Serde, Serializer } from '../serialization/serde.js'
import { type CacheFlushListener, isCachedStateStore } from './cached-state-store.js'
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

/** The sensors of one store, by operation. */
interface KeyValueSensors {
  readonly put: Sensor
  readonly putIfAbsent: Sensor
  readonly putAll: Sensor
  readonly get: Sensor
  readonly delete: Sensor
  readonly range: Sensor
  readonly prefixScan: Sensor
  readonly all: Sensor
  readonly flush: Sensor
}

const UNINITIALISED = Sensor.detached('uninitialised')
const NO_SENSORS: KeyValueSensors = {
  put: UNINITIALISED, putIfAbsent: UNINITIALISED, putAll: UNINITIALISED, get: UNINITIALISED, delete: UNINITIALISED,
  range: UNINITIALISED, prefixScan: UNINITIALISED, all: UNINITIALISED, flush: UNINITIALISED
}

export class MeteredKeyValueStore<K, V> implements KeyValueStore<K, V> {
  readonly #inner: KeyValueBytesStore
  readonly #metricsScope: string
  readonly #keySerde: Serde<K> | undefined
  readonly #valueSerde: Serde<V> | undefined
  #serdes: StateSerdes<K, V> | undefined
  #metrics: StateStoreMetrics | undefined
  #sensors: KeyValueSensors = NO_SENSORS

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

  /**
   * Resolves the serdes and registers the metrics, then opens the layers below (which register
   * the store for restore), timed by the `restore` sensor.
   */
  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#serdes = this.#prepareSerdes(context)
    const metrics = new StateStoreMetrics(context.metrics, context.taskId.toString(), this.#metricsScope, this.name)
    this.#metrics = metrics
    this.#sensors = {
      put: metrics.sensor('put'),
      putIfAbsent: metrics.sensor('put-if-absent'),
      putAll: metrics.sensor('put-all'),
      get: metrics.sensor('get'),
      delete: metrics.sensor('delete'),
      range: metrics.sensor('range'),
      prefixScan: metrics.sensor('prefix-scan'),
      all: metrics.sensor('all'),
      flush: metrics.sensor('flush')
    }
    const restore = metrics.sensor('restore')
    const start = restore.start()
    let opened: void | Promise<void>
    try {
      opened = this.#inner.init(this.innerContext(context), root)
    } catch (err) {
      restore.end(start)
      throw err
    }
    if (opened instanceof Promise) return opened.finally(() => { restore.end(start) })
    restore.end(start)
  }

  flush (): void {
    const sensor = this.#sensors.flush
    const start = sensor.start()
    try {
      this.#inner.flush()
    } finally {
      sensor.end(start)
    }
  }

  /** Closes the layers below, then removes the store's metrics. */
  close (): void {
    try {
      this.#inner.close()
    } finally {
      this.#metrics?.close()
      this.#metrics = undefined
    }
  }

  /**
   * Sets the listener the caching layer calls with each flushed entry, deserialized. Returns false
   * when the store has no caching layer (or no record cache): the caller forwards changes itself.
   */
  setFlushListener (listener: CacheFlushListener<K, V>, sendOldValues: boolean): boolean {
    const inner = this.#inner
    if (!isCachedStateStore<Buffer, Buffer>(inner)) return false
    return inner.setFlushListener((key, newValue, oldValue, timestamp, recordContext) => {
      const serdes = this.#requireSerdes()
      listener(serdes.keyFrom(key), serdes.valueFrom(newValue), serdes.valueFrom(oldValue), timestamp, recordContext)
    }, sendOldValues)
  }

  isOpen (): boolean {
    return this.#inner.isOpen()
  }

  get (key: K): V | null {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.get
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.#inner.get(serdes.rawKey(key)))
    } finally {
      sensor.end(start)
    }
  }

  put (key: K, value: V | null): void {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.put
    const start = sensor.start()
    try {
      this.#inner.put(serdes.rawKey(key), serdes.rawValue(value))
    } finally {
      sensor.end(start)
    }
  }

  putIfAbsent (key: K, value: V | null): V | null {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.putIfAbsent
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.#inner.putIfAbsent(serdes.rawKey(key), serdes.rawValue(value)))
    } finally {
      sensor.end(start)
    }
  }

  putAll (entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.putAll
    const start = sensor.start()
    try {
      const raw = entries.map(entry => new KeyValue(serdes.rawKey(entry.key), serdes.rawValue(entry.value)))
      this.#inner.putAll(raw)
    } finally {
      sensor.end(start)
    }
  }

  delete (key: K): V | null {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.delete
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.#inner.delete(serdes.rawKey(key)))
    } finally {
      sensor.end(start)
    }
  }

  range (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.range
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.#inner.range(this.#rawBound(serdes, from), this.#rawBound(serdes, to)), serdes, sensor, start)
  }

  reverseRange (from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.range
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.#inner.reverseRange(this.#rawBound(serdes, from), this.#rawBound(serdes, to)), serdes, sensor, start)
  }

  all (): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.all
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.#inner.all(), serdes, sensor, start)
  }

  reverseAll (): KeyValueIterator<K, V> {
    const serdes = this.#requireSerdes()
    const sensor = this.#sensors.all
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.#inner.reverseAll(), serdes, sensor, start)
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
    const sensor = this.#sensors.prefixScan
    const start = sensor.start()
    const rawPrefix = serdes.rawWith(prefixKeySerializer, prefix, 'a prefix')
    return new MeteredKeyValueIterator(this.#inner.prefixScan(rawPrefix, RAW_PREFIX), serdes, sensor, start)
  }

  approximateNumEntries (): number {
    this.#requireSerdes()
    return this.#inner.approximateNumEntries()
  }

  /** The context handed to the layers below; the timestamped store converts restored records. */
  protected innerContext (context: StateStoreContext): StateStoreContext {
    return context
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
