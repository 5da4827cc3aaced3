/**
 * Store type checks for the driver's typed getters, and the facades that show a timestamped
 * key-value or window store as a plain one (values without their timestamps), as Kafka Streams'
 * TopologyTestDriver does.
 */
import {
  KeyValue,
  type KeyValueIterator,
  type KeyValueStore,
  type Serializer,
  type StateStore,
  type StateStoreContext,
  type TimestampedKeyValueStore,
  type TimestampedWindowStore,
  ValueAndTimestamp,
  type WindowStore,
  type WindowStoreIterator,
  type Windowed
} from '@kstreams/core'
import {
  MeteredKeyValueStore,
  MeteredSessionStore,
  MeteredTimestampedKeyValueStore,
  MeteredTimestampedWindowStore,
  MeteredWindowStore
} from '@kstreams/core/internal'

/** Timestamp written by a plain put through the facade (Kafka's NO_TIMESTAMP). */
const NO_TIMESTAMP = -1

export function isTimestampedKeyValueStore(store: StateStore): boolean {
  return store instanceof MeteredTimestampedKeyValueStore
}

export function isKeyValueStore(store: StateStore): boolean {
  return store instanceof MeteredKeyValueStore
}

export function isTimestampedWindowStore(store: StateStore): boolean {
  return store instanceof MeteredTimestampedWindowStore
}

export function isWindowStore(store: StateStore): boolean {
  return store instanceof MeteredWindowStore
}

export function isSessionStore(store: StateStore): boolean {
  return store instanceof MeteredSessionStore
}

/** A timestamped window store seen as a plain window store; plain puts get timestamp -1. */
export function plainWindowValueView<K, V>(store: TimestampedWindowStore<K, V>): WindowStore<K, V> {
  return new WindowStoreFacade(store)
}

export function plainValueView<K, V>(store: TimestampedKeyValueStore<K, V>): KeyValueStore<K, V> {
  return new KeyValueStoreFacade(store)
}

class KeyValueStoreFacade<K, V> implements KeyValueStore<K, V> {
  readonly #inner: TimestampedKeyValueStore<K, V>
  constructor(inner: TimestampedKeyValueStore<K, V>) {
    this.#inner = inner
  }

  get name(): string {
    return this.#inner.name
  }
  get persistent(): boolean {
    return this.#inner.persistent
  }
  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    return this.#inner.init(context, root)
  }
  flush(): void {
    this.#inner.flush()
  }
  close(): void {
    this.#inner.close()
  }
  isOpen(): boolean {
    return this.#inner.isOpen()
  }

  get(key: K): V | null {
    return ValueAndTimestamp.getValueOrNull(this.#inner.get(key))
  }
  put(key: K, value: V | null): void {
    this.#inner.put(key, ValueAndTimestamp.make(value, NO_TIMESTAMP))
  }
  putIfAbsent(key: K, value: V | null): V | null {
    return ValueAndTimestamp.getValueOrNull(this.#inner.putIfAbsent(key, ValueAndTimestamp.make(value, NO_TIMESTAMP)))
  }

  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    this.#inner.putAll(entries.map(e => KeyValue.pair(e.key, ValueAndTimestamp.make(e.value, NO_TIMESTAMP))))
  }

  delete(key: K): V | null {
    return ValueAndTimestamp.getValueOrNull(this.#inner.delete(key))
  }
  range(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    return plainValues(this.#inner.range(from, to))
  }
  reverseRange(from: K | undefined, to: K | undefined): KeyValueIterator<K, V> {
    return plainValues(this.#inner.reverseRange(from, to))
  }
  all(): KeyValueIterator<K, V> {
    return plainValues(this.#inner.all())
  }
  reverseAll(): KeyValueIterator<K, V> {
    return plainValues(this.#inner.reverseAll())
  }
  prefixScan<P>(prefix: P, serializer: Serializer<P>): KeyValueIterator<K, V> {
    return plainValues(this.#inner.prefixScan(prefix, serializer))
  }
  approximateNumEntries(): number {
    return this.#inner.approximateNumEntries()
  }
}

function plainValues<K, V>(inner: KeyValueIterator<K, ValueAndTimestamp<V>>): KeyValueIterator<K, V> {
  const it: KeyValueIterator<K, V> = {
    next(): IteratorResult<KeyValue<K, V>> {
      const r = inner.next()
      return r.done === true ? { done: true, value: undefined } : { done: false, value: KeyValue.pair(r.value.key, r.value.value.value) }
    },
    peekNextKey: () => inner.peekNextKey(),
    close: () => inner.close(),
    [Symbol.dispose]: () => inner.close(),
    [Symbol.iterator]: () => it
  }
  return it
}

type WindowedIterator<K, V> = KeyValueIterator<Windowed<K>, V>

class WindowStoreFacade<K, V> implements WindowStore<K, V> {
  readonly #inner: TimestampedWindowStore<K, V>
  constructor(inner: TimestampedWindowStore<K, V>) {
    this.#inner = inner
  }

  get name(): string {
    return this.#inner.name
  }
  get persistent(): boolean {
    return this.#inner.persistent
  }
  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    return this.#inner.init(context, root)
  }
  flush(): void {
    this.#inner.flush()
  }
  close(): void {
    this.#inner.close()
  }
  isOpen(): boolean {
    return this.#inner.isOpen()
  }

  put(key: K, value: V | null, windowStartTime: number): void {
    this.#inner.put(key, ValueAndTimestamp.make(value, NO_TIMESTAMP), windowStartTime)
  }

  fetch(key: K, windowStartTime: number): V | null
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): WindowedIterator<K, V>
  fetch(
    ...args: [K, number] | [K, number, number] | [K | undefined, K | undefined, number, number]
  ): V | null | WindowStoreIterator<V> | WindowedIterator<K, V> {
    const inner = this.#inner
    if (args.length === 2) return ValueAndTimestamp.getValueOrNull(inner.fetch(args[0], args[1]))
    if (args.length === 3) return plainValues(inner.fetch(args[0], args[1], args[2]))
    return plainValues(inner.fetch(args[0], args[1], args[2], args[3]))
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): WindowedIterator<K, V>
  backwardFetch(
    ...args: [K, number, number] | [K | undefined, K | undefined, number, number]
  ): WindowStoreIterator<V> | WindowedIterator<K, V> {
    const inner = this.#inner
    if (args.length === 3) return plainValues(inner.backwardFetch(args[0], args[1], args[2]))
    return plainValues(inner.backwardFetch(args[0], args[1], args[2], args[3]))
  }

  fetchAll(timeFrom: number, timeTo: number): WindowedIterator<K, V> {
    return plainValues(this.#inner.fetchAll(timeFrom, timeTo))
  }
  backwardFetchAll(timeFrom: number, timeTo: number): WindowedIterator<K, V> {
    return plainValues(this.#inner.backwardFetchAll(timeFrom, timeTo))
  }
  all(): WindowedIterator<K, V> {
    return plainValues(this.#inner.all())
  }
  backwardAll(): WindowedIterator<K, V> {
    return plainValues(this.#inner.backwardAll())
  }
}
