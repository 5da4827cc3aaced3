/**
 * The change-logging layer of window stores (Kafka's ChangeLoggingWindowBytesStore), over bytes:
 * every put goes to the store below, then to the store's ChangelogWriter as the store key
 * `[key][8-byte window start][4-byte seqnum]` with the value as written (null for a delete) and
 * the timestamp of the current record context. The seqnum is 0, or, when the store retains
 * duplicates, the next of a counter kept per open store (so the puts of one key and window are
 * all kept by the compacted changelog). Reads pass straight through. Restoring needs no
 * conversion: the backends read their changelog keys. Without a changelog writer in its context
 * it only writes below.
 */
import { ChangeLoggingStoreBase } from './change-logging-store-base.js'
import type { KeyValueIterator } from './key-value-store.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import { WindowKeySchema } from './window-key-schema.js'
import type { WindowBytesStore, WindowStoreIterator } from './window-store.js'
import type { Windowed } from './windowed.js'

type FetchArgs = [Buffer, number] | [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type RangeArgs = [Buffer, number, number] | [Buffer | undefined, Buffer | undefined, number, number]
type Iter = KeyValueIterator<Windowed<Buffer>, Buffer>

export class ChangeLoggingWindowBytesStore extends ChangeLoggingStoreBase<WindowBytesStore> implements WindowBytesStore {
  readonly #retainDuplicates: boolean
  #seqnum = 0

  constructor(inner: WindowBytesStore, retainDuplicates: boolean) {
    super(inner)
    this.#retainDuplicates = retainDuplicates
  }

  override init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#seqnum = 0
    return super.init(context, root)
  }

  put(key: Buffer, value: Buffer | null, windowStartTime: number): void {
    this.inner.put(key, value, windowStartTime)
    if (this.#retainDuplicates) this.#seqnum = (this.#seqnum + 1) & 0x7fffffff
    this.log(WindowKeySchema.toStoreKeyBinary(key, windowStartTime, this.#seqnum), value ?? null)
  }

  fetch(key: Buffer, windowStartTime: number): Buffer | null
  fetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  fetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  fetch(...args: FetchArgs): Buffer | null | WindowStoreIterator<Buffer> | Iter {
    const inner = this.inner
    if (args.length === 2) return inner.fetch(args[0], args[1])
    if (args.length === 3) return inner.fetch(args[0], args[1], args[2])
    return inner.fetch(args[0], args[1], args[2], args[3])
  }

  backwardFetch(key: Buffer, timeFrom: number, timeTo: number): WindowStoreIterator<Buffer>
  backwardFetch(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iter
  backwardFetch(...args: RangeArgs): WindowStoreIterator<Buffer> | Iter {
    const inner = this.inner
    if (args.length === 3) return inner.backwardFetch(args[0], args[1], args[2])
    return inner.backwardFetch(args[0], args[1], args[2], args[3])
  }

  fetchAll(timeFrom: number, timeTo: number): Iter {
    return this.inner.fetchAll(timeFrom, timeTo)
  }
  backwardFetchAll(timeFrom: number, timeTo: number): Iter {
    return this.inner.backwardFetchAll(timeFrom, timeTo)
  }
  all(): Iter {
    return this.inner.all()
  }
  backwardAll(): Iter {
    return this.inner.backwardAll()
  }
}
