/**
 * Session store contracts (Kafka Streams' `ReadOnlySessionStore` / `SessionStore`). Sessions are
 * keyed by `Windowed<K>` with a SessionWindow [start, end], both inclusive.
 */
import type { StateStore } from './state-store.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { Windowed } from './windowed.js'

/** The reads of a session store (Kafka Streams' ReadOnlySessionStore): what interactive queries get. */
export interface ReadOnlySessionStore<K, AGG> {
  /** Sessions of `key` that end at or after `earliestSessionEndTime` and start at or before `latestSessionStartTime`. */
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  /** The same, for keys in [keyFrom, keyTo] (undefined = open). */
  findSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  /** findSessions() of `key`, in reverse order. */
  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  /** findSessions() of keys in [keyFrom, keyTo], in reverse order. */
  backwardFindSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  /** The aggregate of the session of `key` with exactly this start and end, or null. */
  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null
  /** All sessions of `key`, or of keys in [keyFrom, keyTo]. */
  fetch(key: K): KeyValueIterator<Windowed<K>, AGG>
  /** All sessions of keys in [keyFrom, keyTo] (undefined = open). */
  fetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, AGG>
  /** All sessions of `key`, in reverse order. */
  backwardFetch(key: K): KeyValueIterator<Windowed<K>, AGG>
  /** All sessions of keys in [keyFrom, keyTo], in reverse order. */
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, AGG>
}

/** A session state store (Kafka Streams' SessionStore): an aggregate per key and session window. */
export interface SessionStore<K, AGG> extends StateStore, ReadOnlySessionStore<K, AGG> {
  /** Sessions of any key whose end is in [earliestSessionEndTime, latestSessionEndTime]. */
  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): KeyValueIterator<Windowed<K>, AGG>
  /** Sessions of `key` that end at or after `earliestSessionEndTime` and start at or before `latestSessionStartTime`. */
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValueIterator<Windowed<K>, AGG>
  /** The same, for keys in [keyFrom, keyTo] (undefined = open). */
  findSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): KeyValueIterator<Windowed<K>, AGG>
  /** Writes the session's aggregate; null removes it. */
  put(sessionKey: Windowed<K>, aggregate: AGG | null): void
  /** Removes the session. */
  remove(sessionKey: Windowed<K>): void
}

/** The bytes store beneath the metered layer of a session store. */
export type SessionBytesStore = SessionStore<Buffer, Buffer>

/** Supplies the backend bytes store of a session store (in-memory, RocksDB, ...). */
export interface SessionBytesStoreSupplier {
  /** The store's name. */
  readonly name: string
  /** e.g. 'in-memory-session', 'rocksdb-session'; used in metric names. */
  readonly metricsScope: string
  /** How long (ms) sessions are kept, from their end, before they are dropped. */
  readonly retentionPeriod: number
  /** The time span (ms) of one segment: expired sessions are dropped a segment at a time. */
  readonly segmentInterval: number
  /** A new bytes store (one per task). */
  get(): SessionBytesStore
}
