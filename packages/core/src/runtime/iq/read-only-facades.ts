/**
 * Plain-value views of timestamped stores (Kafka Streams' ReadOnlyKeyValueStoreFacade and
 * ReadOnlyWindowStoreFacade): what `QueryableStoreTypes.keyValueStore()` and `windowStore()`
 * return when the store keeps a ValueAndTimestamp per key.
 */
import { KeyValue } from '../../key-value.js'
import type { KeyValueIterator, ReadOnlyKeyValueStore, ValueAndTimestamp } from '../../state/key-value-store.js'
import type { ReadOnlyWindowStore } from '../../state/window-store.js'

const plain = <V>(vt: ValueAndTimestamp<V> | null | undefined): V | null => (vt === null || vt === undefined ? null : vt.value)

/** Maps the values of an iterator. */
function mapValues<K, A, B>(inner: KeyValueIterator<K, A>, map: (a: A) => B): KeyValueIterator<K, B> {
  const it: KeyValueIterator<K, B> = {
    next(): IteratorResult<KeyValue<K, B>, undefined> {
      const r = inner.next()
      return r.done === true ? { done: true, value: undefined } : { done: false, value: new KeyValue(r.value.key, map(r.value.value)) }
    },
    peekNextKey: () => inner.peekNextKey(),
    close: () => inner.close(),
    [Symbol.dispose]: () => inner.close(),
    [Symbol.iterator]() {
      return it
    }
  }
  return it
}

export function plainKeyValueView<K, V>(store: ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>): ReadOnlyKeyValueStore<K, V> {
  const map = (vt: ValueAndTimestamp<V>): V => vt.value
  return {
    get: key => plain(store.get(key)),
    range: (from, to) => mapValues(store.range(from, to), map),
    reverseRange: (from, to) => mapValues(store.reverseRange(from, to), map),
    all: () => mapValues(store.all(), map),
    reverseAll: () => mapValues(store.reverseAll(), map),
    prefixScan: (prefix, serializer) => mapValues(store.prefixScan(prefix, serializer), map),
    approximateNumEntries: () => store.approximateNumEntries()
  }
}

export function plainWindowView<K, V>(store: ReadOnlyWindowStore<K, ValueAndTimestamp<V>>): ReadOnlyWindowStore<K, V> {
  const map = (vt: ValueAndTimestamp<V>): V => vt.value
  const s = store as any
  const view = {
    fetch: (...args: unknown[]): unknown => {
      const r = s.fetch(...args)
      return args.length === 2
        ? plain(r as ValueAndTimestamp<V> | null)
        : mapValues(r as KeyValueIterator<unknown, ValueAndTimestamp<V>>, map)
    },
    backwardFetch: (...args: unknown[]): unknown =>
      mapValues(s.backwardFetch(...args) as KeyValueIterator<unknown, ValueAndTimestamp<V>>, map),
    fetchAll: (from: number, to: number) => mapValues(store.fetchAll(from, to), map),
    backwardFetchAll: (from: number, to: number) => mapValues(store.backwardFetchAll(from, to), map),
    all: () => mapValues(store.all(), map),
    backwardAll: () => mapValues(store.backwardAll(), map)
  }
  return view as unknown as ReadOnlyWindowStore<K, V>
}
