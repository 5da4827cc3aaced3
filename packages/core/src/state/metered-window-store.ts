/**
 * The outermost window store layer (Kafka's MeteredWindowStore): the typed face of a window
 * store. It owns the store's serdes (resolved at init, falling back to the configured default
 * serdes, seeing the changelog topic) and turns typed calls into byte calls on the layer below;
 * everything beneath works on bytes. It hands the caching layer's flushed windows to the DSL's
 * flush listener, deserialized. Latency metrics will be recorded here when metrics arrive.
 */
import { StreamsError } from '../errors.js'
import type { KeyValueIterator } from './key-value-store.js'
import { MeteredStoreBase, type MeteredStoreBaseOptions } from './metered-store-base.js'
import { MeteredWindowStoreIterator } from './metered-window-store-iterator.js'
import { MeteredWindowedKeyValueIterator } from './metered-windowed-key-value-iterator.js'
import type { StateSerdes } from './state-serdes.js'
import { WindowKeySchema } from './window-key-schema.js'
import type { WindowBytesStore, WindowStore, WindowStoreIterator } from './window-store.js'
import { Windowed } from './windowed.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
import { windowQuery } from '../runtime/iq/v2/store-query-handler.js'

/** `metricsScope` is the supplier's ('in-memory-window', 'rocksdb-window', ...). */
export interface MeteredWindowStoreOptions<K, V> extends MeteredStoreBaseOptions<WindowBytesStore, K, V> {
  /** The window size of the store (ms), as the supplier reports it. */
  windowSize: number
}

type FetchArgs<K> = [K, number] | [K, number, number] | [K | undefined, K | undefined, number, number]
type RangeArgs<K> = [K, number, number] | [K | undefined, K | undefined, number, number]

export class MeteredWindowStore<K, V> extends MeteredStoreBase<WindowBytesStore, K, V, Windowed<K>> implements WindowStore<K, V> {
  readonly #windowSize: number

  constructor(options: MeteredWindowStoreOptions<K, V>) {
    super(options)
    this.#windowSize = options.windowSize
  }

  get windowSize(): number {
    return this.#windowSize
  }

  /** Puts `value` into the window of `key` starting at `windowStartTime`; null deletes. */
  put(key: K, value: V | null, windowStartTime: number): void {
    const serdes = this.writeSerdes()
    if (!Number.isSafeInteger(windowStartTime)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Store "${this.name}": windowStartTimestamp must be an integer number of milliseconds, got ${String(windowStartTime)}`
      )
    }
    this.inner.put(serdes.rawKey(key), serdes.rawValue(value), windowStartTime)
  }

  fetch(key: K, windowStartTime: number): V | null
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  fetch(...args: FetchArgs<K>): V | null | WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 2) {
      const serdes = this.requireSerdes()
      return serdes.valueFrom(this.inner.fetch(serdes.rawKey(args[0]), args[1]))
    }
    return this.#range(args, true)
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  backwardFetch(...args: RangeArgs<K>): WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    return this.#range(args, false)
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.inner.fetchAll(timeFrom, timeTo), serdes)
  }

  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.inner.backwardFetchAll(timeFrom, timeTo), serdes)
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.inner.all(), serdes)
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.inner.backwardAll(), serdes)
  }

  /** WindowKeyQuery and WindowRangeQuery.withWindowStartRange. */
  protected override builtInQuery(query: Query<unknown>): QueryResult<unknown> | undefined {
    return windowQuery(this, query)
  }

  protected flushedKey(storeKey: Buffer, serdes: StateSerdes<K, V>): Windowed<K> {
    const windowed = WindowKeySchema.fromStoreKey(storeKey, this.#windowSize)
    return new Windowed(serdes.keyFrom(windowed.key), windowed.window)
  }

  #range(args: RangeArgs<K>, forward: boolean): WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    const serdes = this.requireSerdes()
    const inner = this.inner
    if (args.length === 3) {
      const rawKey = serdes.rawKey(args[0])
      const it = forward ? inner.fetch(rawKey, args[1], args[2]) : inner.backwardFetch(rawKey, args[1], args[2])
      return new MeteredWindowStoreIterator(it, serdes)
    }
    const from = this.rawBound(serdes, args[0])
    const to = this.rawBound(serdes, args[1])
    const it = forward ? inner.fetch(from, to, args[2], args[3]) : inner.backwardFetch(from, to, args[2], args[3])
    return new MeteredWindowedKeyValueIterator(it, serdes)
  }
}
