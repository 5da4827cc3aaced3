/**
 * The outermost window store layer (Kafka's MeteredWindowStore): the typed face of a window
 * store. It owns the store's serdes (resolved at init, falling back to the configured default
 * serdes, seeing the changelog topic) and turns typed calls into byte calls on the layer below;
 * everything beneath works on bytes. It hands the caching layer's flushed windows to the DSL's
 * flush listener, deserialized. Latency metrics will be recorded here when metrics arrive.
 */
import { InvalidStateStoreError, StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { type CacheFlushListener, isCachedStateStore } from './cached-state-store.js'
import type { KeyValueIterator } from './key-value-store.js'
import { MeteredWindowStoreIterator } from './metered-window-store-iterator.js'
import { MeteredWindowedKeyValueIterator } from './metered-windowed-key-value-iterator.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import type { StateSerdes } from './state-serdes.js'
import { prepareStoreSerdes } from './store-serde-initializer.js'
import { WindowKeySchema } from './window-key-schema.js'
import type { WindowBytesStore, WindowStore, WindowStoreIterator } from './window-store.js'
import { Windowed } from './windowed.js'

export interface MeteredWindowStoreOptions<K, V> {
  /** The layer below: caching, change-logging or the backend bytes store. */
  inner: WindowBytesStore
  /** The supplier's metrics scope ('in-memory-window', 'rocksdb-window', ...), for metric names. */
  metricsScope: string
  /** The window size of the store (ms), as the supplier reports it. */
  windowSize: number
  /** When undefined, `defaultKeySerde` from the app configs is used at init. */
  keySerde?: Serde<K> | undefined
  /** When undefined, `defaultValueSerde` from the app configs is used at init. */
  valueSerde?: Serde<V> | undefined
}

type FetchArgs<K> = [K, number] | [K, number, number] | [K | undefined, K | undefined, number, number]
type RangeArgs<K> = [K, number, number] | [K | undefined, K | undefined, number, number]

export class MeteredWindowStore<K, V> implements WindowStore<K, V> {
  readonly #inner: WindowBytesStore
  readonly #metricsScope: string
  readonly #windowSize: number
  readonly #keySerde: Serde<K> | undefined
  readonly #valueSerde: Serde<V> | undefined
  #serdes: StateSerdes<K, V> | undefined

  constructor (options: MeteredWindowStoreOptions<K, V>) {
    this.#inner = options.inner
    this.#metricsScope = options.metricsScope
    this.#windowSize = options.windowSize
    this.#keySerde = options.keySerde
    this.#valueSerde = options.valueSerde
  }

  get name (): string {
    return this.#inner.name
  }

  get persistent (): boolean {
    return this.#inner.persistent
  }

  get metricsScope (): string {
    return this.#metricsScope
  }

  get windowSize (): number {
    return this.#windowSize
  }

  /** Resolves the serdes, then opens the layers below (which register the store for restore). */
  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#serdes = prepareStoreSerdes(context, this.name, this.#keySerde, this.#valueSerde, (configured, defaultSerde) => this.prepareValueSerde(configured, defaultSerde))
    return this.#inner.init(this.innerContext(context), root)
  }

  /**
   * Sets the listener the caching layer calls with each flushed window, deserialized (its key is
   * the windowed key). Returns false when the store has no caching layer (or no record cache):
   * the caller forwards changes itself.
   */
  setFlushListener (listener: CacheFlushListener<Windowed<K>, V>, sendOldValues: boolean): boolean {
    const inner = this.#inner
    if (!isCachedStateStore<Buffer, Buffer>(inner)) return false
    return inner.setFlushListener((storeKey, newValue, oldValue, timestamp, recordContext) => {
      const serdes = this.#requireSerdes()
      const windowed = WindowKeySchema.fromStoreKey(storeKey, this.#windowSize)
      listener(new Windowed(serdes.keyFrom(windowed.key), windowed.window), serdes.valueFrom(newValue), serdes.valueFrom(oldValue), timestamp, recordContext)
    }, sendOldValues)
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

  /** Puts `value` into the window of `key` starting at `windowStartTime`; null deletes. */
  put (key: K, value: V | null, windowStartTime: number): void {
    const serdes = this.#requireSerdes()
    if (!Number.isSafeInteger(windowStartTime)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": windowStartTimestamp must be an integer number of milliseconds, got ${String(windowStartTime)}`)
    }
    this.#inner.put(serdes.rawKey(key), serdes.rawValue(value), windowStartTime)
  }

  fetch (key: K, windowStartTime: number): V | null
  fetch (key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  fetch (keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  fetch (...args: FetchArgs<K>): V | null | WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 2) {
      const serdes = this.#requireSerdes()
      return serdes.valueFrom(this.#inner.fetch(serdes.rawKey(args[0]), args[1]))
    }
    return this.#range(args, true)
  }

  backwardFetch (key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  backwardFetch (keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>
  backwardFetch (...args: RangeArgs<K>): WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    return this.#range(args, false)
  }

  fetchAll (timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.#requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.#inner.fetchAll(timeFrom, timeTo), serdes)
  }

  backwardFetchAll (timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.#requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.#inner.backwardFetchAll(timeFrom, timeTo), serdes)
  }

  all (): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.#requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.#inner.all(), serdes)
  }

  backwardAll (): KeyValueIterator<Windowed<K>, V> {
    const serdes = this.#requireSerdes()
    return new MeteredWindowedKeyValueIterator(this.#inner.backwardAll(), serdes)
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

  #range (args: RangeArgs<K>, forward: boolean): WindowStoreIterator<V> | KeyValueIterator<Windowed<K>, V> {
    const serdes = this.#requireSerdes()
    const inner = this.#inner
    if (args.length === 3) {
      const rawKey = serdes.rawKey(args[0])
      const it = forward ? inner.fetch(rawKey, args[1], args[2]) : inner.backwardFetch(rawKey, args[1], args[2])
      return new MeteredWindowStoreIterator(it, serdes)
    }
    const from = this.#rawBound(serdes, args[0])
    const to = this.#rawBound(serdes, args[1])
    const it = forward ? inner.fetch(from, to, args[2], args[3]) : inner.backwardFetch(from, to, args[2], args[3])
    return new MeteredWindowedKeyValueIterator(it, serdes)
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
