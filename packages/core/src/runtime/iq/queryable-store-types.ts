/**
 * Which kind of store a query wants and the read-only view it gets (Kafka Streams'
 * QueryableStoreTypes): key-value, timestamped key-value, window, timestamped window and session
 * stores. `keyValueStore()` and `windowStore()` also accept timestamped stores and show their
 * plain values.
 */
import type { StateStore } from '../../state/state-store.js'
import type { ReadOnlyKeyValueStore, ValueAndTimestamp } from '../../state/key-value-store.js'
import type { ReadOnlyWindowStore } from '../../state/window-store.js'
import type { ReadOnlySessionStore } from '../../state/session-store.js'
import { MeteredTimestampedKeyValueStore } from '../../state/metered-timestamped-key-value-store.js'
import { MeteredTimestampedWindowStore } from '../../state/metered-timestamped-window-store.js'
import { CompositeReadOnlyKeyValueStore } from './composite-read-only-key-value-store.js'
import { CompositeReadOnlyWindowStore } from './composite-read-only-window-store.js'
import { CompositeReadOnlySessionStore } from './composite-read-only-session-store.js'
import { plainKeyValueView, plainWindowView } from './read-only-facades.js'
import type { StateStoreProvider } from './state-store-provider.js'

/** A kind of store to query and the read-only view it gives (Kafka Streams' QueryableStoreType); made by QueryableStoreTypes. */
export interface QueryableStoreType<T> {
  /** e.g. 'keyValueStore', for error messages. */
  readonly kind: string
  /** @internal Whether a store of this kind can be queried through this type. */
  accepts(store: StateStore): boolean
  /** @internal The read-only view over the stores the provider returns (each accepted by `accepts`). */
  create(provider: StateStoreProvider<StateStore>): T
}

const has = (store: object, ...methods: string[]): boolean =>
  methods.every(m => typeof (store as Record<string, unknown>)[m] === 'function')
const isKeyValue = (s: StateStore): boolean => has(s, 'get', 'range', 'all', 'approximateNumEntries')
const isWindow = (s: StateStore): boolean => has(s, 'fetch', 'fetchAll', 'backwardFetchAll')
const isSession = (s: StateStore): boolean => has(s, 'findSessions', 'fetchSession')
/** On a store that stands for a store of another thread (a worker's): which timestamped kind that store is. @internal */
export const TIMESTAMPED_KIND: unique symbol = Symbol('kstreams.timestampedKind')
type TimestampedKind = 'keyValue' | 'window' | undefined

/** Which timestamped kind `store` is (what `timestampedKeyValueStore()` and `timestampedWindowStore()` accept). @internal */
export function timestampedKind(store: StateStore): TimestampedKind {
  if (store instanceof MeteredTimestampedKeyValueStore) return 'keyValue'
  if (store instanceof MeteredTimestampedWindowStore) return 'window'
  return (store as { [TIMESTAMPED_KIND]?: TimestampedKind })[TIMESTAMPED_KIND]
}
const isTimestampedKeyValue = (s: StateStore): boolean => timestampedKind(s) === 'keyValue'
const isTimestampedWindow = (s: StateStore): boolean => timestampedKind(s) === 'window'

function mapped<S, T>(
  provider: StateStoreProvider<StateStore>,
  view: (store: StateStore) => S,
  composite: (p: StateStoreProvider<S>) => T
): T {
  return composite({ storeName: provider.storeName, stores: () => provider.stores().map(view) })
}

/** The kinds of store KafkaStreams.store() can query (Kafka Streams' QueryableStoreTypes). */
export class QueryableStoreTypes {
  private constructor() {}

  /** Key-value stores, timestamped ones included (their plain values). */
  static keyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, V>> {
    return {
      kind: 'keyValueStore',
      accepts: isKeyValue,
      create: provider =>
        mapped(
          provider,
          s =>
            isTimestampedKeyValue(s)
              ? plainKeyValueView(s as unknown as ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>)
              : (s as unknown as ReadOnlyKeyValueStore<K, V>),
          p => new CompositeReadOnlyKeyValueStore<K, V>(p)
        )
    }
  }

  /** Timestamped key-value stores, with each value's timestamp. */
  static timestampedKeyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>> {
    return {
      kind: 'timestampedKeyValueStore',
      accepts: s => isKeyValue(s) && isTimestampedKeyValue(s),
      create: provider =>
        mapped(
          provider,
          s => s as unknown as ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>,
          p => new CompositeReadOnlyKeyValueStore(p)
        )
    }
  }

  /** Window stores, timestamped ones included (their plain values). */
  static windowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, V>> {
    return {
      kind: 'windowStore',
      accepts: isWindow,
      create: provider =>
        mapped(
          provider,
          s =>
            isTimestampedWindow(s)
              ? plainWindowView(s as unknown as ReadOnlyWindowStore<K, ValueAndTimestamp<V>>)
              : (s as unknown as ReadOnlyWindowStore<K, V>),
          p => new CompositeReadOnlyWindowStore<K, V>(p)
        )
    }
  }

  /** Timestamped window stores, with each value's timestamp. */
  static timestampedWindowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, ValueAndTimestamp<V>>> {
    return {
      kind: 'timestampedWindowStore',
      accepts: s => isWindow(s) && isTimestampedWindow(s),
      create: provider =>
        mapped(
          provider,
          s => s as unknown as ReadOnlyWindowStore<K, ValueAndTimestamp<V>>,
          p => new CompositeReadOnlyWindowStore(p)
        )
    }
  }

  /** Session stores. */
  static sessionStore<K, AGG>(): QueryableStoreType<ReadOnlySessionStore<K, AGG>> {
    return {
      kind: 'sessionStore',
      accepts: isSession,
      create: provider =>
        mapped(
          provider,
          s => s as unknown as ReadOnlySessionStore<K, AGG>,
          p => new CompositeReadOnlySessionStore<K, AGG>(p)
        )
    }
  }
}
