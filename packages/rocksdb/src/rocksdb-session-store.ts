/**
 * The RocksDB session bytes store (Kafka's RocksDBSessionStore): session keys
 * `[key][8-byte end][8-byte start]` in a time-segmented RocksDB store, segmented by session end.
 * A search returns the sessions that end at or after `earliestSessionEndTime` and start at or
 * before `latestSessionStartTime`. Iteration order is Kafka's: segment by segment, then by
 * session-key bytes (key, end, start).
 */
import { StreamsError, Window } from '@kstreams/core'
import type { KeyValueIterator, SessionBytesStore, Windowed } from '@kstreams/core'
import { SessionKeySchema } from '@kstreams/core/internal'
import { MappedKeyValueIterator } from './mapped-key-value-iterator.js'
import { RocksDBSegmentedStore } from './rocksdb-segmented-store.js'
import type { RocksDBSegmentedStoreOptions } from './rocksdb-segmented-store.js'
import { sessionSegmentedKeySchema } from './segmented-key-schema.js'

/** The options of a RocksDBSessionStore. */
export type RocksDBSessionStoreOptions = RocksDBSegmentedStoreOptions

/** @inline */
type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type FindArgs = [number, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FindKeyArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FetchArgs = [Buffer] | [Buffer | undefined, Buffer | undefined]

const END_OF_TIME = Number.MAX_SAFE_INTEGER

/** The RocksDB session bytes store (Kafka's RocksDBSessionStore): sessions in a RocksDB store segmented by session end. */
export class RocksDBSessionStore extends RocksDBSegmentedStore implements SessionBytesStore {
  /** Arguments are validated by the supplier. */
  constructor(options: RocksDBSessionStoreOptions) {
    super(options, sessionSegmentedKeySchema)
  }

  /** Writes the session's aggregate; null removes it. */
  put(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.segments.put(SessionKeySchema.toBinaryWindowed(this.#checkSessionKey(sessionKey)), aggregate ?? null)
  }

  remove(sessionKey: Windowed<Buffer>): void {
    this.segments.put(SessionKeySchema.toBinaryWindowed(this.#checkSessionKey(sessionKey)), null)
  }

  fetchSession(key: Buffer, sessionStartTime: number, sessionEndTime: number): Buffer | null {
    return this.segments.get(SessionKeySchema.toBinary(this.#requireKey(key), sessionStartTime, sessionEndTime))
  }

  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): Iter
  findSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(...args: FindArgs): Iter {
    if (args.length !== 2) return this.#find(args, true)
    return this.#endedBetween(args[0], args[1])
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
    return args.length === 1 ? this.#find([args[0], 0, END_OF_TIME], true) : this.#find([args[0], args[1], 0, END_OF_TIME], true)
  }

  backwardFetch(key: Buffer): Iter
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  backwardFetch(...args: FetchArgs): Iter {
    return args.length === 1 ? this.#find([args[0], 0, END_OF_TIME], false) : this.#find([args[0], args[1], 0, END_OF_TIME], false)
  }

  #find(args: FindKeyArgs, forward: boolean): Iter {
    if (args.length === 3) {
      const [key, earliestEnd, latestStart] = args
      return this.#windowed(this.segments.fetchKey(this.#requireKey(key), earliestEnd, latestStart, forward))
    }
    const [keyFrom, keyTo, earliestEnd, latestStart] = args
    return this.#windowed(this.segments.fetchRange(keyFrom ?? undefined, keyTo ?? undefined, earliestEnd, latestStart, forward))
  }

  /** Sessions of any key whose end is in [earliestEnd, latestEnd]. */
  #endedBetween(earliestEnd: number, latestEnd: number): Iter {
    const segments = this.segments
    const from = segments.actualFrom(earliestEnd)
    const to = Math.min(latestEnd, END_OF_TIME)
    return this.#windowed(
      segments.scan({
        lower: undefined,
        upper: undefined,
        segmentTimeFrom: from,
        segmentTimeTo: to,
        filter: storeKey => {
          const end = SessionKeySchema.extractEndTimestamp(storeKey)
          return end >= from && end <= to
        },
        forward: true
      })
    )
  }

  #windowed(iterator: KeyValueIterator<Buffer, Buffer>): Iter {
    return new MappedKeyValueIterator(iterator, storeKey => SessionKeySchema.fromBinary(storeKey))
  }

  #checkSessionKey(sessionKey: Windowed<Buffer>): Windowed<Buffer> {
    if (sessionKey === null || sessionKey === undefined || !Buffer.isBuffer(sessionKey.key)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey and its key cannot be null`)
    }
    if (!(sessionKey.window instanceof Window)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey.window cannot be null`)
    }
    return sessionKey
  }

  #requireKey(key: Buffer): Buffer {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    return key
  }
}
