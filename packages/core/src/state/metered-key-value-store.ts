/**
 * The outermost key-value store layer (Kafka's MeteredKeyValueStore): the typed face of a store.
 * It owns the store's serdes (resolved at init, falling back to the configured default serdes) and
 * turns typed calls into byte calls on the layer below; everything beneath works on bytes.
 * It also owns the store's metrics: one sensor per operation (Kafka's `stream-state-metrics`,
 * `<op>-rate` always counted, `<op>-latency-avg/max` in ns at DEBUG), serialization included;
 * range, all and prefix-scan are timed from the iterator's creation to its close.
 */
import { StreamsError } from '../errors.js'
import { KeyValue } from '../key-value.js'
import { Sensor } from '../metrics/sensor.js'
import { StateStoreMetrics } from '../metrics/state-store-metrics.js'
import type { Serializer } from '../serialization/serde.js'
import type { KeyValueBytesStore, KeyValueIterator, KeyValueStore } from './key-value-store.js'
import { MeteredKeyValueIterator } from './metered-key-value-iterator.js'
import { MeteredStoreBase, type MeteredStoreBaseOptions } from './metered-store-base.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import type { StateSerdes } from './state-serdes.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
import { keyValueQuery } from '../runtime/iq/v2/store-query-handler.js'

export type MeteredKeyValueStoreOptions<K, V> = MeteredStoreBaseOptions<KeyValueBytesStore, K, V>

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
  put: UNINITIALISED,
  putIfAbsent: UNINITIALISED,
  putAll: UNINITIALISED,
  get: UNINITIALISED,
  delete: UNINITIALISED,
  range: UNINITIALISED,
  prefixScan: UNINITIALISED,
  all: UNINITIALISED,
  flush: UNINITIALISED
}

export class MeteredKeyValueStore<K, V> extends MeteredStoreBase<KeyValueBytesStore, K, V, K> implements KeyValueStore<K, V> {
  #metrics: StateStoreMetrics | undefined
  #sensors: KeyValueSensors = NO_SENSORS

  /**
   * Registers the metrics, then opens the layers below (which register the store for restore),
   * timed by the `restore` sensor.
   */
  protected override openInner(context: StateStoreContext, root: StateStore): void | Promise<void> {
    const metrics = new StateStoreMetrics(context.metricsRegistry, context.taskId.toString(), this.metricsScope, this.name)
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
      opened = super.openInner(context, root)
    } catch (err) {
      restore.end(start)
      throw err
    }
    if (opened instanceof Promise)
      return opened.finally(() => {
        restore.end(start)
      })
    restore.end(start)
  }

  override flush(): void {
    const sensor = this.#sensors.flush
    const start = sensor.start()
    try {
      super.flush()
    } finally {
      sensor.end(start)
    }
  }

  /** Closes the layers below, then removes the store's metrics. */
  override close(): void {
    try {
      super.close()
    } finally {
      this.#metrics?.close()
      this.#metrics = undefined
    }
  }

  get(key: K): V | null {
    const serdes = this.requireSerdes()
    const sensor = this.#sensors.get
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.inner.get(serdes.rawKey(key)))
    } finally {
      sensor.end(start)
    }
  }

  /**
   * The value below the record cache, when there is one: what the store held at its last flush
   * (IQv2's `skipCache()`); the same as get() for a store without caching. @internal
   */
  getSkippingCache(key: K): V | null {
    const serdes = this.requireSerdes()
    const inner = this.inner as KeyValueBytesStore & { getSkippingCache?: (key: Buffer) => Buffer | null }
    const raw = serdes.rawKey(key)
    return serdes.valueFrom(inner.getSkippingCache !== undefined ? inner.getSkippingCache(raw) : inner.get(raw))
  }

  put(key: K, value: V | null): void {
    const serdes = this.writeSerdes()
    const sensor = this.#sensors.put
    const start = sensor.start()
    try {
      this.inner.put(serdes.rawKey(key), serdes.rawValue(value))
    } finally {
      sensor.end(start)
    }
  }

  putIfAbsent(key: K, value: V | null): V | null {
    const serdes = this.writeSerdes()
    const sensor = this.#sensors.putIfAbsent
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.inner.putIfAbsent(serdes.rawKey(key), serdes.rawValue(value)))
    } finally {
      sensor.end(start)
    }
  }

  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    const serdes = this.writeSerdes()
    const sensor = this.#sensors.putAll
    const start = sensor.start()
    try {
      const raw = entries.map(entry => new KeyValue(serdes.rawKey(entry.key), serdes.rawValue(entry.value)))
      this.inner.putAll(raw)
    } finally {
      sensor.end(start)
    }
  }

  delete(key: K): V | null {
    const serdes = this.writeSerdes()
    const sensor = this.#sensors.delete
    const start = sensor.start()
    try {
      return serdes.valueFrom(this.inner.delete(serdes.rawKey(key)))
    } finally {
      sensor.end(start)
    }
  }

  range(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.requireSerdes()
    const sensor = this.#sensors.range
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.inner.range(this.rawBound(serdes, from), this.rawBound(serdes, to)), serdes, sensor, start)
  }

  reverseRange(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    const serdes = this.requireSerdes()
    const sensor = this.#sensors.range
    const start = sensor.start()
    return new MeteredKeyValueIterator(
      this.inner.reverseRange(this.rawBound(serdes, from), this.rawBound(serdes, to)),
      serdes,
      sensor,
      start
    )
  }

  all(): KeyValueIterator<K, V> {
    const serdes = this.requireSerdes()
    const sensor = this.#sensors.all
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.inner.all(), serdes, sensor, start)
  }

  reverseAll(): KeyValueIterator<K, V> {
    const serdes = this.requireSerdes()
    const sensor = this.#sensors.all
    const start = sensor.start()
    return new MeteredKeyValueIterator(this.inner.reverseAll(), serdes, sensor, start)
  }

  /** Keys that start with the serialized prefix. The prefix is serialized on the changelog topic. */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<K, V> {
    const serdes = this.requireSerdes()
    if (prefix === null || prefix === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": prefix cannot be null`)
    }
    if (prefixKeySerializer === null || prefixKeySerializer === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": prefixKeySerializer cannot be null`)
    }
    const sensor = this.#sensors.prefixScan
    const start = sensor.start()
    const rawPrefix = serdes.rawWith(prefixKeySerializer, prefix, 'a prefix')
    return new MeteredKeyValueIterator(this.inner.prefixScan(rawPrefix, RAW_PREFIX), serdes, sensor, start)
  }

  approximateNumEntries(): number {
    this.requireSerdes()
    return this.inner.approximateNumEntries()
  }

  /** KeyQuery and RangeQuery (timestamped stores also answer the Timestamped queries). */
  protected override builtInQuery(query: Query<unknown>): QueryResult<unknown> | undefined {
    return keyValueQuery(this, query, false)
  }

  protected flushedKey(storeKey: Buffer, serdes: StateSerdes<K, V>): K {
    return serdes.keyFrom(storeKey)
  }
}
