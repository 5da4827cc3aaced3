/**
 * Answers one IQv2 query from one local store (the query handlers of Kafka Streams' metered
 * stores and StoreQueryUtils in one): reads through the store's typed outer layer, exactly like
 * `KafkaStreams.store()` does, so caching and serdes apply. A store kind that does not know the
 * query answers UNKNOWN_QUERY_TYPE; a store that throws answers STORE_EXCEPTION.
 */
import type { StateStore } from '../../../state/state-store.js'
import type { KeyValueIterator, ReadOnlyKeyValueStore, ValueAndTimestamp } from '../../../state/key-value-store.js'
import type { ReadOnlyWindowStore } from '../../../state/window-store.js'
import type { ReadOnlySessionStore } from '../../../state/session-store.js'
import { MeteredTimestampedKeyValueStore } from '../../../state/metered-timestamped-key-value-store.js'
import { plainKeyValueView } from '../read-only-facades.js'
import type { Query } from './query.js'
import { QueryResult } from './query-result.js'
import { KeyQuery } from './key-query.js'
import { TimestampedKeyQuery } from './timestamped-key-query.js'
import { RangeQuery, type ResultOrder } from './range-query.js'
import { TimestampedRangeQuery } from './timestamped-range-query.js'
import { WindowKeyQuery } from './window-key-query.js'
import { WindowRangeQuery } from './window-range-query.js'

const has = (store: object, ...methods: string[]): boolean =>
  methods.every(m => typeof (store as Record<string, unknown>)[m] === 'function')
const isKeyValue = (s: StateStore): boolean => has(s, 'get', 'range', 'all', 'approximateNumEntries')
const isWindow = (s: StateStore): boolean => has(s, 'fetch', 'fetchAll', 'backwardFetchAll')
const isSession = (s: StateStore): boolean => has(s, 'findSessions', 'fetchSession')

type AnyKv = ReadOnlyKeyValueStore<unknown, unknown>

function storeLabel(store: StateStore): string {
  return `${store.name} (${store.constructor.name})`
}

function range<V>(
  store: ReadOnlyKeyValueStore<unknown, V>,
  lower: unknown,
  upper: unknown,
  order: ResultOrder
): KeyValueIterator<unknown, V> {
  const descending = order === 'DESCENDING'
  if (lower === undefined && upper === undefined) return descending ? store.reverseAll() : store.all()
  return descending ? store.reverseRange(lower, upper) : store.range(lower, upper)
}

function keyValueQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const timestamped = store instanceof MeteredTimestampedKeyValueStore
  const raw = store as unknown as AnyKv
  const plain: AnyKv = timestamped ? plainKeyValueView(raw as ReadOnlyKeyValueStore<unknown, ValueAndTimestamp<unknown>>) : raw
  const uncached = (key: unknown): unknown => {
    const skipping = (store as { getSkippingCache?: (key: unknown) => unknown }).getSkippingCache
    return skipping !== undefined ? skipping.call(store, key) : raw.get(key)
  }
  if (query instanceof KeyQuery) {
    if (!query.skipsCache) return QueryResult.forResult(plain.get(query.key))
    const found = uncached(query.key)
    return QueryResult.forResult(timestamped && found !== null ? (found as ValueAndTimestamp<unknown>).value : found)
  }
  if (query instanceof RangeQuery) return QueryResult.forResult(range(plain, query.lowerBound, query.upperBound, query.resultOrder))
  if (!timestamped) return undefined
  if (query instanceof TimestampedKeyQuery) return QueryResult.forResult(query.skipsCache ? uncached(query.key) : raw.get(query.key))
  if (query instanceof TimestampedRangeQuery)
    return QueryResult.forResult(range(raw, query.lowerBound, query.upperBound, query.resultOrder))
  return undefined
}

function windowQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const s = store as unknown as ReadOnlyWindowStore<unknown, unknown>
  if (query instanceof WindowKeyQuery) return QueryResult.forResult(s.fetch(query.key, query.timeFrom, query.timeTo))
  if (query instanceof WindowRangeQuery) {
    if (query.key !== undefined || query.timeFrom === undefined || query.timeTo === undefined) {
      return QueryResult.forUnknownQueryType(query, storeLabel(store), 'window stores answer only WindowRangeQuery.withWindowStartRange')
    }
    return QueryResult.forResult(s.fetchAll(query.timeFrom, query.timeTo))
  }
  return undefined
}

function sessionQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const s = store as unknown as ReadOnlySessionStore<unknown, unknown>
  if (query instanceof WindowRangeQuery) {
    if (query.key === undefined)
      return QueryResult.forUnknownQueryType(query, storeLabel(store), 'session stores answer only WindowRangeQuery.withKey')
    return QueryResult.forResult(s.fetch(query.key))
  }
  return undefined
}

/** Runs `query` on the local `store` of one partition. */
export function queryStore<R>(store: StateStore, query: Query<R>, collectExecutionInfo: boolean): QueryResult<R> {
  let result: QueryResult<unknown> | undefined
  try {
    if (isKeyValue(store)) result = keyValueQuery(store, query)
    else if (isSession(store)) result = sessionQuery(store, query)
    else if (isWindow(store)) result = windowQuery(store, query)
    result ??= QueryResult.forUnknownQueryType(query, storeLabel(store))
  } catch (err) {
    result = QueryResult.forFailure(
      'STORE_EXCEPTION',
      `Store ${storeLabel(store)} failed to answer ${String(query)}: ${err instanceof Error ? err.message : String(err)}`
    )
  }
  if (collectExecutionInfo) result.addExecutionInfo(`Handled in ${store.constructor.name} of store ${store.name}`)
  return result as QueryResult<R>
}
