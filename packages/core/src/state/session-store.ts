/**
 * Session store contracts (Kafka Streams' `ReadOnlySessionStore` / `SessionStore`). Sessions are
 * keyed by `Windowed<K>` with a SessionWindow [start, end], both inclusive.
 */
import type { StateStore } from './state-store.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { Windowed } from './windowed.js'

export interface ReadOnlySessionStore<K, AGG> {
  /** Sessions of `key` that end at or after `earliestSessionEndTime` and start at or before `latestSessionStartTime`. */
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  findSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  backwardFindSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null
  /** All sessions of `key`, or of keys in [keyFrom, keyTo]. */
  fetch(key: K): KeyValueIterator<Windowed<K>, AGG>
  fetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, AGG>
  backwardFetch(key: K): KeyValueIterator<Windowed<K>, AGG>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, AGG>
}

export interface SessionStore<K, AGG> extends StateStore, ReadOnlySessionStore<K, AGG> {
  /** Sessions of any key whose end is in [earliestSessionEndTime, latestSessionEndTime]. */
  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): KeyValueIterator<Windowed<K>, AGG>
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  findSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  /** Writes the session's aggregate; null removes it. */
  put(sessionKey: Windowed<K>, aggregate: AGG | null): void
  remove(sessionKey: Windowed<K>): void
}

export type SessionBytesStore = SessionStore<Buffer, Buffer>

export interface SessionBytesStoreSupplier {
  readonly name: string
  readonly metricsScope: string
  readonly retentionPeriod: number
  readonly segmentInterval: number
  get(): SessionBytesStore
}
