/**
 * The outermost session store layer (Kafka's MeteredSessionStore): the typed face of a session
 * store. It owns the store's serdes (resolved at init, falling back to the configured default
 * serdes, seeing the changelog topic) and turns typed calls into byte calls on the layer below,
 * which keys sessions by `Windowed<Buffer>`. It hands the caching layer's flushed sessions to the
 * DSL's flush listener, deserialized. Latency metrics will be recorded here.
 */
import { StreamsError } from '../errors.js'
import type { KeyValueIterator } from './key-value-store.js'
import { MeteredStoreBase, type MeteredStoreBaseOptions } from './metered-store-base.js'
import { MeteredWindowedKeyValueIterator } from './metered-windowed-key-value-iterator.js'
import type { SessionBytesStore, SessionStore } from './session-store.js'
import { SessionKeySchema } from './session-key-schema.js'
import type { StateSerdes } from './state-serdes.js'
import { Window, Windowed } from './windowed.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
import { sessionQuery } from '../runtime/iq/v2/store-query-handler.js'

/** `metricsScope` is the supplier's ('in-memory-session', 'rocksdb-session', ...). */
export type MeteredSessionStoreOptions<K, AGG> = MeteredStoreBaseOptions<SessionBytesStore, K, AGG>

type FindArgs<K> = [number, number] | [K, number, number] | [K | undefined, K | undefined, number, number]
type FindKeyArgs<K> = [K, number, number] | [K | undefined, K | undefined, number, number]
type FetchArgs<K> = [K] | [K | undefined, K | undefined]
type Iter<K, AGG> = KeyValueIterator<Windowed<K>, AGG>

export class MeteredSessionStore<K, AGG> extends MeteredStoreBase<SessionBytesStore, K, AGG, Windowed<K>> implements SessionStore<K, AGG> {
  /** Writes the session's aggregate; null removes it. */
  put(sessionKey: Windowed<K>, aggregate: AGG | null): void {
    const serdes = this.writeSerdes()
    this.inner.put(this.#rawSessionKey(serdes, sessionKey), serdes.rawValue(aggregate))
  }

  remove(sessionKey: Windowed<K>): void {
    const serdes = this.writeSerdes()
    this.inner.remove(this.#rawSessionKey(serdes, sessionKey))
  }

  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null {
    const serdes = this.requireSerdes()
    return serdes.valueFrom(this.inner.fetchSession(serdes.rawKey(key), sessionStartTime, sessionEndTime))
  }

  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): Iter<K, AGG>
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  findSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  findSessions(...args: FindArgs<K>): Iter<K, AGG> {
    if (args.length === 2) {
      const serdes = this.requireSerdes()
      return new MeteredWindowedKeyValueIterator(this.inner.findSessions(args[0], args[1]), serdes)
    }
    return this.#find(args, true)
  }

  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): Iter<K, AGG>
  backwardFindSessions(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): Iter<K, AGG>
  backwardFindSessions(...args: FindKeyArgs<K>): Iter<K, AGG> {
    return this.#find(args, false)
  }

  fetch(key: K): Iter<K, AGG>
  fetch(keyFrom: K | undefined, keyTo: K | undefined): Iter<K, AGG>
  fetch(...args: FetchArgs<K>): Iter<K, AGG> {
    return this.#fetch(args, true)
  }

  backwardFetch(key: K): Iter<K, AGG>
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): Iter<K, AGG>
  backwardFetch(...args: FetchArgs<K>): Iter<K, AGG> {
    return this.#fetch(args, false)
  }

  #find(args: FindKeyArgs<K>, forward: boolean): Iter<K, AGG> {
    const serdes = this.requireSerdes()
    const inner = this.inner
    if (args.length === 3) {
      const raw = serdes.rawKey(args[0])
      return new MeteredWindowedKeyValueIterator(
        forward ? inner.findSessions(raw, args[1], args[2]) : inner.backwardFindSessions(raw, args[1], args[2]),
        serdes
      )
    }
    const from = this.rawBound(serdes, args[0])
    const to = this.rawBound(serdes, args[1])
    return new MeteredWindowedKeyValueIterator(
      forward ? inner.findSessions(from, to, args[2], args[3]) : inner.backwardFindSessions(from, to, args[2], args[3]),
      serdes
    )
  }

  #fetch(args: FetchArgs<K>, forward: boolean): Iter<K, AGG> {
    const serdes = this.requireSerdes()
    const inner = this.inner
    if (args.length === 1) {
      const raw = serdes.rawKey(args[0])
      return new MeteredWindowedKeyValueIterator(forward ? inner.fetch(raw) : inner.backwardFetch(raw), serdes)
    }
    const from = this.rawBound(serdes, args[0])
    const to = this.rawBound(serdes, args[1])
    return new MeteredWindowedKeyValueIterator(forward ? inner.fetch(from, to) : inner.backwardFetch(from, to), serdes)
  }

  #rawSessionKey(serdes: StateSerdes<K, AGG>, sessionKey: Windowed<K>): Windowed<Buffer> {
    if (sessionKey === null || sessionKey === undefined) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey can't be null`)
    }
    if (!(sessionKey.window instanceof Window)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey.window can't be null`)
    }
    return new Windowed(serdes.rawKey(sessionKey.key), sessionKey.window)
  }

  /** WindowRangeQuery.withKey. */
  protected override builtInQuery(query: Query<unknown>): QueryResult<unknown> | undefined {
    return sessionQuery(this, query)
  }

  protected flushedKey(sessionKey: Buffer, serdes: StateSerdes<K, AGG>): Windowed<K> {
    const session = SessionKeySchema.fromBinary(sessionKey)
    return new Windowed(serdes.keyFrom(session.key), session.window)
  }
}
