/**
 * The built-in IQv2 queries as the typed outer (metered) layers of the built-in stores answer
 * them (the query handlers of Kafka Streams' metered stores and StoreQueryUtils in one): read
 * through the typed layer, exactly like `KafkaStreams.store()` does, so caching and serdes apply.
 * Each function answers the queries of one store kind and returns undefined for a query type it
 * does not know; the layer then answers UNKNOWN_QUERY_TYPE. @internal
 */
import type { StateStore } from '../../../state/state-store.js'
import type { KeyValueIterator, ReadOnlyKeyValueStore, ValueAndTimestamp } from '../../../state/key-value-store.js'
import type { ReadOnlyWindowStore } from '../../../state/window-store.js'
import type { ReadOnlySessionStore } from '../../../state/session-store.js'
import type { ReadOnlyVersionedKeyValueStore } from '../../../state/versioned-key-value-store.js'
import { plainKeyValueView } from '../read-only-facades.js'
import type { Query } from './query.js'
import { QueryResult } from './query-result.js'
import { KeyQuery } from './key-query.js'
import { TimestampedKeyQuery } from './timestamped-key-query.js'
import { RangeQuery, type ResultOrder } from './range-query.js'
import { TimestampedRangeQuery } from './timestamped-range-query.js'
import { WindowKeyQuery } from './window-key-query.js'
import { WindowRangeQuery } from './window-range-query.js'
import { VersionedKeyQuery } from './versioned-key-query.js'
import { MultiVersionedKeyQuery } from './multi-versioned-key-query.js'

const BUILT_IN_QUERIES = [
  KeyQuery,
  TimestampedKeyQuery,
  RangeQuery,
  TimestampedRangeQuery,
  WindowKeyQuery,
  WindowRangeQuery,
  VersionedKeyQuery,
  MultiVersionedKeyQuery
]

/**
 * Whether `query` is one of kstreams' own query types (Kafka's StoreQueryUtils handler map): the
 * typed layer answers it (or answers UNKNOWN_QUERY_TYPE for the wrong store kind); any other
 * query goes to the layers below.
 */
export function isBuiltInQuery(query: Query<unknown>): boolean {
  return BUILT_IN_QUERIES.some(type => query instanceof type)
}

type AnyKv = ReadOnlyKeyValueStore<unknown, unknown>

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

/** KeyQuery and RangeQuery (plain values), and on a timestamped store TimestampedKeyQuery and TimestampedRangeQuery. */
export function keyValueQuery(store: StateStore, query: Query<unknown>, timestamped: boolean): QueryResult<unknown> | undefined {
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

/** WindowKeyQuery, and WindowRangeQuery over a window start range. */
export function windowQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const s = store as unknown as ReadOnlyWindowStore<unknown, unknown>
  if (query instanceof WindowKeyQuery) return QueryResult.forResult(s.fetch(query.key, query.timeFrom, query.timeTo))
  if (query instanceof WindowRangeQuery) {
    if (query.key !== undefined || query.timeFrom === undefined || query.timeTo === undefined) {
      return QueryResult.forUnknownQueryType(query, store, 'window stores answer only WindowRangeQuery.withWindowStartRange')
    }
    return QueryResult.forResult(s.fetchAll(query.timeFrom, query.timeTo))
  }
  return undefined
}

/** WindowRangeQuery.withKey: the sessions of the key. */
export function sessionQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const s = store as unknown as ReadOnlySessionStore<unknown, unknown>
  if (query instanceof WindowRangeQuery) {
    if (query.key === undefined) return QueryResult.forUnknownQueryType(query, store, 'session stores answer only WindowRangeQuery.withKey')
    return QueryResult.forResult(s.fetch(query.key))
  }
  return undefined
}

/**
 * VersionedKeyQuery (the latest version, or the one valid at asOf) and MultiVersionedKeyQuery (the
 * versions valid in [fromTime, toTime], open bounds as the widest safe integers, in the asked order).
 */
export function versionedQuery(store: StateStore, query: Query<unknown>): QueryResult<unknown> | undefined {
  const s = store as unknown as ReadOnlyVersionedKeyValueStore<unknown, unknown>
  if (query instanceof VersionedKeyQuery)
    return QueryResult.forResult(query.asOfTimestamp === undefined ? s.get(query.key) : s.get(query.key, query.asOfTimestamp))
  if (query instanceof MultiVersionedKeyQuery) {
    const from = query.timeFrom ?? Number.MIN_SAFE_INTEGER
    const to = query.timeTo ?? Number.MAX_SAFE_INTEGER
    return QueryResult.forResult(s.get(query.key, from, to, query.resultOrder))
  }
  return undefined
}
