/**
 * The caching layer of session stores (Kafka's CachingSessionStore), over bytes. Puts and
 * removes go to the thread's record cache only (a remove caches a delete), under the session key
 * `[key][end][start]` prefixed with the segment of the session end; fetchSession looks in the
 * cache first; searches merge the cache with the store below in the backend's order. Sessions
 * the layer holds expired (end at or before the stream time it saw minus the retention period)
 * are never returned. Dirty sessions go below on flush, eviction and close, and to the flush
 * listener with their session key. Without a record cache in its context it writes straight
 * through. One order differs from the store below: the in-memory store lists the sessions of one
 * key and end newest start first, the cache oldest first, so while such sessions are cached a
 * merged read may interleave them otherwise (each once); a session-merging aggregation never
 * keeps two of them, as they overlap.
 */
import { StreamsError } from '../errors.js'
import { NamedCacheIterator } from './cache/named-cache-iterator.js'
import { CachingWindowedStoreBase, inKeyRange } from './caching-windowed-store-base.js'
import type { KeyValueIterator } from './key-value-store.js'
import { SessionKeySchema } from './session-key-schema.js'
import type { SessionBytesStore } from './session-store.js'
import { Window, type Windowed } from './windowed.js'

type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type FindArgs = [number, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FindKeyArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FetchArgs = [Buffer] | [Buffer | undefined, Buffer | undefined]

/** Which sessions a search returns: keys in [from, to] (undefined = open), ends and starts in bounds. */
interface Search {
  readonly keyFrom: Buffer | undefined
  readonly keyTo: Buffer | undefined
  readonly earliestEnd: number
  readonly latestEnd: number
  readonly latestStart: number
}

const END_OF_TIME = Number.MAX_SAFE_INTEGER

export class CachingSessionStore extends CachingWindowedStoreBase<SessionBytesStore> implements SessionBytesStore {
  put(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) this.inner.put(sessionKey, aggregate)
    else this.putCached(cache, this.#binary(sessionKey), aggregate ?? null)
  }

  remove(sessionKey: Windowed<Buffer>): void {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) this.inner.remove(sessionKey)
    else this.putCached(cache, this.#binary(sessionKey), null)
  }

  fetchSession(key: Buffer, sessionStartTime: number, sessionEndTime: number): Buffer | null {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return this.inner.fetchSession(key, sessionStartTime, sessionEndTime)
    this.checkKey(key)
    if (sessionEndTime < this.firstLiveTime) return null
    const entry = this.getCached(cache, SessionKeySchema.toBinary(key, sessionStartTime, sessionEndTime))
    return entry === undefined ? this.inner.fetchSession(key, sessionStartTime, sessionEndTime) : entry.value
  }

  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): Iter
  findSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(...args: FindArgs): Iter {
    if (args.length !== 2) return this.#find(args, true)
    const [earliestEnd, latestEnd] = args
    return this.#search({ keyFrom: undefined, keyTo: undefined, earliestEnd, latestEnd, latestStart: END_OF_TIME }, true, from =>
      this.inner.findSessions(from, latestEnd)
    )
  }

  backwardFindSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  backwardFindSessions(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): Iter
  backwardFindSessions(...args: FindKeyArgs): Iter {
    return this.#find(args, false)
  }

  fetch(key: Buffer): Iter
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  fetch(...args: FetchArgs): Iter {
    return this.#fetch(args, true)
  }

  backwardFetch(key: Buffer): Iter
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  backwardFetch(...args: FetchArgs): Iter {
    return this.#fetch(args, false)
  }

  protected segmentTime(storeKey: Buffer): number {
    return SessionKeySchema.extractEndTimestamp(storeKey)
  }

  protected fetchBelow(storeKey: Buffer): Buffer | null {
    return this.inner.fetchSession(
      SessionKeySchema.extractKeyBytes(storeKey),
      SessionKeySchema.extractStartTimestamp(storeKey),
      SessionKeySchema.extractEndTimestamp(storeKey)
    )
  }

  protected putBelow(storeKey: Buffer, value: Buffer | null): void {
    this.inner.put(SessionKeySchema.fromBinary(storeKey), value)
  }

  #find(args: FindKeyArgs, forward: boolean): Iter {
    this.checkOpen()
    const inner = this.inner
    if (args.length === 3) {
      const [key, earliestEnd, latestStart] = args
      this.checkKey(key)
      return this.#search({ keyFrom: key, keyTo: key, earliestEnd, latestEnd: END_OF_TIME, latestStart }, forward, from =>
        forward ? inner.findSessions(key, from, latestStart) : inner.backwardFindSessions(key, from, latestStart)
      )
    }
    const [keyFrom, keyTo, earliestEnd, latestStart] = args
    const search = { keyFrom: keyFrom ?? undefined, keyTo: keyTo ?? undefined, earliestEnd, latestEnd: END_OF_TIME, latestStart }
    return this.#search(search, forward, from =>
      forward
        ? inner.findSessions(search.keyFrom, search.keyTo, from, latestStart)
        : inner.backwardFindSessions(search.keyFrom, search.keyTo, from, latestStart)
    )
  }

  /** Every session of a key or of a key range: a search from the first live end on (Kafka's findSessions(key, 0, MAX)). */
  #fetch(args: FetchArgs, forward: boolean): Iter {
    const inner = this.inner
    if (this.recordCache === undefined) {
      this.checkOpen()
      if (args.length === 1) return forward ? inner.fetch(args[0]) : inner.backwardFetch(args[0])
      return forward ? inner.fetch(args[0], args[1]) : inner.backwardFetch(args[0], args[1])
    }
    return this.#find(args.length === 1 ? [args[0], 0, END_OF_TIME] : [args[0], args[1], 0, END_OF_TIME], forward)
  }

  /** Merges the cached sessions of a search with `below(first live end)`, the same search below. */
  #search(search: Search, forward: boolean, below: (earliestEnd: number) => Iter): Iter {
    this.checkOpen()
    const cache = this.recordCache
    if (cache === undefined) return below(search.earliestEnd)
    const firstLive = this.firstLiveTime
    const earliestEnd = Math.max(search.earliestEnd, firstLive)
    const { keyFrom, keyTo, latestEnd, latestStart } = search
    const store = below(Math.max(earliestEnd, 0))
    const cf = this.cacheFunction
    const rows =
      earliestEnd > latestEnd
        ? NamedCacheIterator.empty()
        : this.cachedRange(
            cache,
            cf.lowerBound(earliestEnd, keyFrom),
            latestEnd === END_OF_TIME ? undefined : cf.upperBound(latestEnd),
            forward
          )
    return this.merge<Windowed<Buffer>>({
      cache: rows,
      store,
      forward,
      cachedKey: storeKey => {
        const end = SessionKeySchema.extractEndTimestamp(storeKey)
        if (end < earliestEnd || end > latestEnd || SessionKeySchema.extractStartTimestamp(storeKey) > latestStart) return undefined
        return inKeyRange(SessionKeySchema.extractKeyBytes(storeKey), keyFrom, keyTo) ? SessionKeySchema.fromBinary(storeKey) : undefined
      },
      storeCacheKey: session =>
        cf.cacheKey(SessionKeySchema.toBinary(session.key, session.window.start, session.window.end), session.window.end),
      live: session => session.window.end >= firstLive
    })
  }

  #binary(sessionKey: Windowed<Buffer>): Buffer {
    if (sessionKey === null || sessionKey === undefined)
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey can't be null`)
    if (!(sessionKey.window instanceof Window))
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey.window can't be null`)
    this.checkKey(sessionKey.key)
    return SessionKeySchema.toBinaryWindowed(sessionKey)
  }
}
