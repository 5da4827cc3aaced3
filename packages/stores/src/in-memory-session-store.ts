/**
 * The in-memory session bytes store (Kafka's InMemorySessionStore): sessions grouped by end time,
 * then key, then start time, kept while their end is within the retention period of the stream
 * time the store has observed (the greatest session end put). Sessions ending at or before
 * `observedStreamTime - retentionPeriod` are dropped on put and never returned. Iteration order,
 * forward: end ascending, key ascending (unsigned bytes), start descending; backward is the exact
 * reverse. Its lifecycle and iterators are InMemoryStoreLifecycle's (a re-init of an open store
 * keeps the data, used when a standby task is recycled into an active one); its segments and
 * observed stream time are RetainedSegments'.
 */
import { SessionWindow, StreamsError, Window, Windowed } from '@kstreams/core'
import { SessionKeySchema, validateStoreName } from '@kstreams/core/internal'
import type { KeyValueIterator, SessionBytesStore, StateStore, StateStoreContext } from '@kstreams/core'
import { boundToKey, bytesToKey, keyToBytes } from '@kstreams/core/internal'
import type { SnapshotChunk } from './in-memory-snapshot-iterator.js'
import { InMemoryStoreLifecycle } from './in-memory-store-lifecycle.js'
import { SessionSegment } from './session-segment.js'
import { RetainedSegments } from './retained-segments.js'

/** @inline */
type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type FindArgs = [number, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FindKeyArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FetchArgs = [Buffer] | [Buffer | undefined, Buffer | undefined]

/** Which sessions a scan returns: key bounds (latin1, inclusive; exact when `exact`), end and start bounds. */
interface Scan {
  from: string | undefined
  to: string | undefined
  exact: boolean
  earliestEnd: number
  latestEnd: number
  latestStart: number
}

/** The in-memory session bytes store (Kafka's InMemorySessionStore): sessions by end time, within the retention period. */
export class InMemorySessionStore implements SessionBytesStore {
  readonly name: string
  readonly persistent = false
  /** How long (ms) sessions are kept, from their end. */
  readonly retentionPeriod: number
  /** Session end -> key -> start -> aggregate. */
  readonly #segments: RetainedSegments<SessionSegment>
  readonly #lifecycle: InMemoryStoreLifecycle

  /** The retention period is validated by the supplier (InMemorySessionBytesStoreSupplier). */
  constructor(name: string, retentionPeriod: number) {
    this.name = validateStoreName(name)
    this.retentionPeriod = retentionPeriod
    this.#segments = new RetainedSegments(retentionPeriod, () => new SessionSegment())
    this.#lifecycle = new InMemoryStoreLifecycle(this.name)
  }

  /**
   * Opens the store and registers its restore callback. On a store that is already open (a
   * standby task recycled into an active task) it only registers with the new context: the data,
   * the observed stream time and the open iterators stay.
   */
  init(context: StateStoreContext, root: StateStore): void {
    this.#lifecycle.init(
      () => {
        context.register(root, records => {
          for (const record of records) this.#put(SessionKeySchema.fromBinary(record.key), record.value)
        })
      },
      () => {
        this.#segments.reset()
      }
    )
  }

  flush(): void {
    // Nothing to write: the changelog is the durable copy.
  }

  /** Closes every open iterator and drops the data. Idempotent. */
  close(): void {
    this.#lifecycle.close(() => {
      this.#segments.reset()
    })
  }

  isOpen(): boolean {
    return this.#lifecycle.isOpen()
  }

  /** Writes the session's aggregate; null removes it. */
  put(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.#lifecycle.checkOpen()
    this.#put(this.#checkSessionKey(sessionKey), aggregate)
  }

  remove(sessionKey: Windowed<Buffer>): void {
    this.#lifecycle.checkOpen()
    this.#remove(this.#checkSessionKey(sessionKey))
  }

  fetchSession(key: Buffer, sessionStartTime: number, sessionEndTime: number): Buffer | null {
    this.#lifecycle.checkOpen()
    this.#segments.removeExpired()
    // Only sessions that have not expired can be found.
    if (this.#segments.isExpired(sessionEndTime)) return null
    return this.#segments.get(sessionEndTime)?.get(bytesToKey(key))?.get(sessionStartTime) ?? null
  }

  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): Iter
  findSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(...args: FindArgs): Iter {
    if (args.length !== 2) return this.#find(args, true)
    const [earliestEnd, latestEnd] = args
    return this.#scan({ from: undefined, to: undefined, exact: false, earliestEnd, latestEnd, latestStart: Infinity }, true)
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

  #find(args: FindKeyArgs, forward: boolean): Iter {
    if (args.length === 3) {
      const key = this.#requireKey(args[0])
      return this.#scan({ from: key, to: key, exact: true, earliestEnd: args[1], latestEnd: Infinity, latestStart: args[2] }, forward)
    }
    const [from, to, earliestEnd, latestStart] = args
    return this.#scan({ from: boundToKey(from), to: boundToKey(to), exact: false, earliestEnd, latestEnd: Infinity, latestStart }, forward)
  }

  #fetch(args: FetchArgs, forward: boolean): Iter {
    if (args.length === 1) {
      const key = this.#requireKey(args[0])
      return this.#scan({ from: key, to: key, exact: true, earliestEnd: -Infinity, latestEnd: Infinity, latestStart: Infinity }, forward)
    }
    return this.#scan(
      {
        from: boundToKey(args[0]),
        to: boundToKey(args[1]),
        exact: false,
        earliestEnd: -Infinity,
        latestEnd: Infinity,
        latestStart: Infinity
      },
      forward
    )
  }

  #scan(scan: Scan, forward: boolean): Iter {
    this.#lifecycle.checkOpen()
    this.#segments.removeExpired()
    const chunks: Array<SnapshotChunk<Windowed<Buffer>, number>> = []
    const { from, to } = scan
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (from !== undefined && to !== undefined && from > to) return this.#lifecycle.iterator(chunks)
    for (const end of this.#segments.times(scan.earliestEnd, scan.latestEnd, forward)) {
      const segment = this.#segments.get(end)!
      const keys = scan.exact ? (segment.get(from!) === undefined ? [] : [from!]) : segment.keys(from, to)
      if (!forward) keys.reverse()
      for (const key of keys) {
        const starts = segment.get(key)!
        const lookups: number[] = []
        for (const start of starts.keys()) if (start <= scan.latestStart) lookups.push(start)
        if (lookups.length === 0) continue
        // Forward iteration returns the latest start first, as Kafka's in-memory store does.
        lookups.sort(forward ? (a, b) => b - a : (a, b) => a - b)
        chunks.push(new SessionChunk(starts, lookups, key, end))
      }
    }
    return this.#lifecycle.iterator(chunks)
  }

  #put(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    const end = sessionKey.window.end
    // Kafka counts the record as dropped (expired window) here; metrics arrive later.
    if (!this.#segments.admit(end)) return
    if (aggregate === null || aggregate === undefined) {
      this.#remove(sessionKey)
      return
    }
    this.#segments.getOrCreate(end).set(bytesToKey(sessionKey.key), sessionKey.window.start, aggregate)
  }

  #remove(sessionKey: Windowed<Buffer>): void {
    const end = sessionKey.window.end
    const segment = this.#segments.get(end)
    if (segment === undefined) return
    segment.delete(bytesToKey(sessionKey.key), sessionKey.window.start)
    if (segment.size === 0) this.#segments.delete(end)
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

  #requireKey(key: Buffer): string {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    return bytesToKey(key)
  }
}

/** The sessions of one key that end at one time: the iterator key is the session key. */
class SessionChunk implements SnapshotChunk<Windowed<Buffer>, number> {
  constructor(
    readonly source: Map<number, Buffer>,
    readonly lookups: readonly number[],
    readonly lookupKey: string,
    readonly end: number
  ) {}

  key(start: number): Windowed<Buffer> {
    return new Windowed(keyToBytes(this.lookupKey), new SessionWindow(start, this.end))
  }
}
