/**
 * The change-logging layer of session stores (Kafka's ChangeLoggingSessionBytesStore), over
 * bytes: every put and remove goes to the store below, then to the store's ChangelogWriter as the
 * session key `[key][8-byte end][8-byte start]` with the aggregate (null for a remove or a null
 * put) and the timestamp of the current record context. Reads pass straight through. Restoring
 * needs no conversion: the backends read session keys. Without a changelog writer in its context
 * it only writes below.
 */
import { ChangeLoggingStoreBase } from './change-logging-store-base.js'
import type { KeyValueIterator } from './key-value-store.js'
import { SessionKeySchema } from './session-key-schema.js'
import type { SessionBytesStore } from './session-store.js'
import type { Windowed } from './windowed.js'

type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>
type FindArgs = [number, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FindKeyArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type FetchArgs = [Buffer] | [Buffer | undefined, Buffer | undefined]

export class ChangeLoggingSessionBytesStore extends ChangeLoggingStoreBase<SessionBytesStore> implements SessionBytesStore {
  put(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    this.inner.put(sessionKey, aggregate)
    this.#log(sessionKey, aggregate ?? null)
  }

  remove(sessionKey: Windowed<Buffer>): void {
    this.inner.remove(sessionKey)
    this.#log(sessionKey, null)
  }

  fetchSession(key: Buffer, sessionStartTime: number, sessionEndTime: number): Buffer | null {
    return this.inner.fetchSession(key, sessionStartTime, sessionEndTime)
  }

  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): Iter
  findSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  findSessions(...args: FindArgs): Iter {
    const inner = this.inner
    if (args.length === 2) return inner.findSessions(args[0], args[1])
    if (args.length === 3) return inner.findSessions(args[0], args[1], args[2])
    return inner.findSessions(args[0], args[1], args[2], args[3])
  }

  backwardFindSessions(key: Buffer, earliestSessionEndTime: number, latestSessionStartTime: number): Iter
  backwardFindSessions(
    keyFrom: Buffer | undefined,
    keyTo: Buffer | undefined,
    earliestSessionEndTime: number,
    latestSessionStartTime: number
  ): Iter
  backwardFindSessions(...args: FindKeyArgs): Iter {
    const inner = this.inner
    if (args.length === 3) return inner.backwardFindSessions(args[0], args[1], args[2])
    return inner.backwardFindSessions(args[0], args[1], args[2], args[3])
  }

  fetch(key: Buffer): Iter
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  fetch(...args: FetchArgs): Iter {
    return args.length === 1 ? this.inner.fetch(args[0]) : this.inner.fetch(args[0], args[1])
  }

  backwardFetch(key: Buffer): Iter
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined): Iter
  backwardFetch(...args: FetchArgs): Iter {
    return args.length === 1 ? this.inner.backwardFetch(args[0]) : this.inner.backwardFetch(args[0], args[1])
  }

  #log(sessionKey: Windowed<Buffer>, aggregate: Buffer | null): void {
    if (this.writer !== undefined) this.log(SessionKeySchema.toBinaryWindowed(sessionKey), aggregate)
  }
}
