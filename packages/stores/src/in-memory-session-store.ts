/**
 * The in-memory session bytes store (Kafka's InMemorySessionStore): sessions grouped by end time,
 * then key, then start time, kept while their end is within the retention period of the stream
 * time the store has observed (the greatest session end put). Sessions ending at or before
 * `observedStreamTime - retentionPeriod` are dropped on put and never returned. Iteration order,
 * forward: end ascending, key ascending (unsigned bytes), start descending; backward is the exact
 * reverse. Owns its lifecycle (created -> open -> closed, reopenable; open -> open is a re-init
 * that keeps the data, used when a standby task is recycled into an active one) and its
 * iterators.
 */
import { IllegalStateError, InvalidStateStoreError, SessionWindow, StreamsError, Window, Windowed } from '@kstreams/core'
import { SessionKeySchema, validateStoreName } from '@kstreams/core/internal'
import type { KeyValueIterator, SessionBytesStore, StateStore, StateStoreContext } from '@kstreams/core'
import { bytesToKey, keyToBytes } from './byte-keys.js'
import { InMemorySnapshotIterator } from './in-memory-snapshot-iterator.js'
import type { SnapshotChunk, SnapshotIteratorOwner } from './in-memory-snapshot-iterator.js'
import { SessionSegment } from './session-segment.js'
import { insertTime, lowerBound, removeTime, removeTimesBelow, upperBound } from './sorted-times.js'

type StoreState = 'created' | 'open' | 'closed'

/**
 * The valid lifecycle transitions; close() on a store that is not open is a no-op. open -> open
 * is a re-init: the store keeps its data and registers with the new context.
 */
const TRANSITIONS: Readonly<Record<StoreState, readonly StoreState[]>> = {
  created: ['open', 'closed'],
  open: ['open', 'closed'],
  closed: ['open']
}

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

export class InMemorySessionStore implements SessionBytesStore {
  readonly name: string
  readonly persistent = false
  readonly retentionPeriod: number
  /** Session end -> key -> start -> aggregate. */
  readonly #segments = new Map<number, SessionSegment>()
  /** The end times of #segments, ascending. */
  readonly #times: number[] = []
  readonly #openIterators = new Set<{ close(): void }>()
  #observedStreamTime = -1
  #state: StoreState = 'created'
  /** Shared with the iterators of the current open period; flipped to false on close. */
  #lease = { open: false }
  #owner: SnapshotIteratorOwner

  /** The retention period is validated by the supplier (InMemorySessionBytesStoreSupplier). */
  constructor (name: string, retentionPeriod: number) {
    this.name = validateStoreName(name)
    this.retentionPeriod = retentionPeriod
    this.#owner = this.#newOwner()
  }

  /**
   * Opens the store and registers its restore callback. On a store that is already open (a
   * standby task recycled into an active task) it only registers with the new context: the data,
   * the observed stream time and the open iterators stay.
   */
  init (context: StateStoreContext, root: StateStore): void {
    this.#checkTransition('open')
    context.register(root, records => {
      for (const record of records) this.#put(SessionKeySchema.fromBinary(record.key), record.value)
    })
    if (this.#state === 'open') return
    this.#observedStreamTime = -1
    this.#lease = { open: true }
    this.#owner = this.#newOwner()
    this.#state = 'open'
  }

  flush (): void {
    // Nothing to write: the changelog is the durable copy.
  }

  /** Closes every open iterator and drops the data. Idempotent. */
  close (): void {
    if (this.#state !== 'open') {
      if (this.#state === 'created') this.#state = 'closed'
      return
    }
    this.#lease.open = false
    for (const iterator of [...this.#openIterators]) iterator.close()
    this.#openIterators.clear()
    this.#segments.clear()
    this.#times.length = 0
    this.#state = 'closed'
  }

  isOpen (): boolean {
    return this.#state === 'open'
  }

  /** Writes the session's aggregate; null removes it. */
  put (sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.#checkOpen()
    this.#put(this.#checkSessionKey(sessionKey), aggregate)
  }

  remove (sessionKey: Windowed<Buffer>): void {
    this.#checkOpen()
    this.#remove(this.#checkSessionKey(sessionKey))
  }

  fetchSession (key: Buffer, sessionStartTime: number, sessionEndTime: number): Buffer | null {
    this.#checkOpen()
    this.#removeExpiredSegments()
    // Only sessions that have not expired can be found.
    if (sessionEndTime <= this.#observedStreamTime - this.retentionPeriod) return null
    return this.#segments.get(sessionEndTime)?.get(bytesToKey(key))?.get(sessionStartTime) ?? null
  }

  findSessions (earliestSessionEndTime: number, latestSessionEndTime: number): Iter
  findSessions (key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions (keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions (...args: FindArgs): Iter {
    if (args.length !== 2) return this.#find(args, true)
    const [earliestEnd, latestEnd] = args
    return this.#scan({ from: undefined, to: undefined, exact: false, earliestEnd, latestEnd, latestStart: Infinity }, true)
  }

  backwardFindSessions (key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  backwardFindSessions (keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  backwardFindSessions (...args: FindKeyArgs): Iter {
    return this.#find(args, false)
  }

  fetch (key: Buffer): Iter
  fetch (keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  fetch (...args: FetchArgs): Iter {
    return this.#fetch(args, true)
  }

  backwardFetch (key: Buffer): Iter
  backwardFetch (keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  backwardFetch (...args: FetchArgs): Iter {
    return this.#fetch(args, false)
  }

  #find (args: FindKeyArgs, forward: boolean): Iter {
    if (args.length === 3) {
      const key = this.#requireKey(args[0])
      return this.#scan({ from: key, to: key, exact: true, earliestEnd: args[1], latestEnd: Infinity, latestStart: args[2] }, forward)
    }
    const [from, to, earliestEnd, latestStart] = args
    return this.#scan({ from: latin1(from), to: latin1(to), exact: false, earliestEnd, latestEnd: Infinity, latestStart }, forward)
  }

  #fetch (args: FetchArgs, forward: boolean): Iter {
    if (args.length === 1) {
      const key = this.#requireKey(args[0])
      return this.#scan({ from: key, to: key, exact: true, earliestEnd: -Infinity, latestEnd: Infinity, latestStart: Infinity }, forward)
    }
    return this.#scan({ from: latin1(args[0]), to: latin1(args[1]), exact: false, earliestEnd: -Infinity, latestEnd: Infinity, latestStart: Infinity }, forward)
  }

  #scan (scan: Scan, forward: boolean): Iter {
    this.#checkOpen()
    this.#removeExpiredSegments()
    const chunks: Array<SnapshotChunk<Windowed<Buffer>, number>> = []
    const { from, to } = scan
    // Kafka logs a warning here: from > to usually means a serde that does not preserve order.
    if (from !== undefined && to !== undefined && from > to) return this.#iterator(chunks)
    const times = this.#times
    const first = lowerBound(times, scan.earliestEnd)
    const last = upperBound(times, scan.latestEnd) - 1
    for (let i = forward ? first : last; forward ? i <= last : i >= first; i += forward ? 1 : -1) {
      const end = times[i]!
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
    return this.#iterator(chunks)
  }

  #put (sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.#removeExpiredSegments()
    const end = sessionKey.window.end
    this.#observedStreamTime = Math.max(this.#observedStreamTime, end)
    // Kafka counts the record as dropped (expired window) here; metrics arrive later.
    if (end <= this.#observedStreamTime - this.retentionPeriod) return
    if (aggregate === null || aggregate === undefined) {
      this.#remove(sessionKey)
      return
    }
    let segment = this.#segments.get(end)
    if (segment === undefined) {
      segment = new SessionSegment()
      this.#segments.set(end, segment)
      insertTime(this.#times, end)
    }
    segment.set(bytesToKey(sessionKey.key), sessionKey.window.start, aggregate)
  }

  #remove (sessionKey: Windowed<Buffer>): void {
    const end = sessionKey.window.end
    const segment = this.#segments.get(end)
    if (segment === undefined) return
    segment.delete(bytesToKey(sessionKey.key), sessionKey.window.start)
    if (segment.size === 0) {
      this.#segments.delete(end)
      removeTime(this.#times, end)
    }
  }

  /** Drops the sessions that can no longer be read (Kafka's removeExpiredSegments). */
  #removeExpiredSegments (): void {
    const minLiveTime = Math.max(0, this.#observedStreamTime - this.retentionPeriod + 1)
    for (const end of removeTimesBelow(this.#times, minLiveTime)) this.#segments.delete(end)
  }

  #checkSessionKey (sessionKey: Windowed<Buffer>): Windowed<Buffer> {
    if (sessionKey === null || sessionKey === undefined || !Buffer.isBuffer(sessionKey.key)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey and its key cannot be null`)
    }
    if (!(sessionKey.window instanceof Window)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": sessionKey.window cannot be null`)
    }
    return sessionKey
  }

  #requireKey (key: Buffer): string {
    if (key === null || key === undefined) throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": key cannot be null`)
    return bytesToKey(key)
  }

  #iterator (chunks: Array<SnapshotChunk<Windowed<Buffer>, number>>): Iter {
    const iterator = new InMemorySnapshotIterator(this.#owner, chunks)
    this.#openIterators.add(iterator)
    return iterator
  }

  #newOwner (): SnapshotIteratorOwner {
    const openIterators = this.#openIterators
    return { storeName: this.name, lease: this.#lease, release: iterator => { openIterators.delete(iterator) } }
  }

  #checkOpen (): void {
    if (this.#state !== 'open') {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open (${this.#state})`)
    }
  }

  #checkTransition (next: StoreState): void {
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new IllegalStateError(`Store "${this.name}" cannot move from ${this.#state} to ${next}`)
    }
  }
}

/** The sessions of one key that end at one time: the iterator key is the session key. */
class SessionChunk implements SnapshotChunk<Windowed<Buffer>, number> {
  constructor (readonly source: Map<number, Buffer>, readonly lookups: readonly number[], readonly lookupKey: string, readonly end: number) {}

  key (start: number): Windowed<Buffer> {
    return new Windowed(keyToBytes(this.lookupKey), new SessionWindow(start, this.end))
  }
}

function latin1 (bound: Buffer | undefined): string | undefined {
  return bound === undefined || bound === null ? undefined : bytesToKey(bound)
}
