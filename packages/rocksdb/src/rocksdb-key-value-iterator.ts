/**
 * The iterator of the RocksDB key-value store: merges, in byte order, a RocksDB iterator (an
 * implicit snapshot of the DB taken when it was created) with a snapshot of the store's unflushed
 * writes in the same range, where a pending value replaces the DB's and a pending delete hides it.
 * So it sees the store as it was when it was created, unflushed writes included, like Kafka's
 * RocksDB iterators. Rows are fetched synchronously in growing chunks. Using it after it, or its
 * store, was closed throws STORE_NOT_OPEN; it releases its native iterator once exhausted.
 * @internal
 */
import { KeyValue } from '@kstreams/core'
import type { NativeIterator } from './rocks-binding.js'
import { keyToBytes } from '@kstreams/core/internal'
import { LeasedIterator } from './leased-iterator.js'
import type { IteratorLeaseOwner } from './leased-iterator.js'
import type { OverlaySnapshot } from './write-overlay.js'

/** What an iterator needs from its store. */
export interface RocksDBIteratorSource extends IteratorLeaseOwner<RocksDBKeyValueIterator> {
  /** Wraps a binding error (corruption, I/O) in the store's typed error. */
  error(err: unknown, operation: string): Error
}

const FIRST_FETCH = 32
const MAX_FETCH = 1024
const NO_ROWS: Array<Buffer | undefined> = []

/** @internal */
export class RocksDBKeyValueIterator extends LeasedIterator {
  readonly #source: RocksDBIteratorSource
  readonly #forward: boolean
  #native: NativeIterator | undefined
  #rows = NO_ROWS
  #row = 0
  #fetch = FIRST_FETCH
  #overlay: OverlaySnapshot
  /** Index of the next overlay entry; moves towards the end of the walk in both directions. */
  #pending: number
  /** The bytes of the overlay key at #pending, once converted. */
  #pendingBytes: Buffer | undefined

  /** `native` is undefined when the DB part is known to be empty. */
  constructor(source: RocksDBIteratorSource, native: NativeIterator | undefined, overlay: OverlaySnapshot, forward: boolean) {
    super(source)
    this.#source = source
    this.#native = native
    this.#overlay = overlay
    this.#forward = forward
    this.#pending = forward ? 0 : overlay.keys.length - 1
  }

  /** The next live entry of the merged walk, or undefined at the end. */
  protected advance(): KeyValue<Buffer, Buffer> | undefined {
    const keys = this.#overlay.keys
    const step = this.#forward ? 1 : -1
    for (;;) {
      const dbKey = this.#dbKey()
      const hasPending = this.#pending >= 0 && this.#pending < keys.length
      if (!hasPending) {
        if (dbKey === undefined) {
          this.exhaust()
          return undefined
        }
        return this.#takeDbRow(dbKey)
      }
      const pendingKey = (this.#pendingBytes ??= keyToBytes(keys[this.#pending]!))
      if (dbKey !== undefined) {
        const order = Buffer.compare(dbKey, pendingKey) * step
        if (order < 0) return this.#takeDbRow(dbKey)
        if (order === 0) this.#row += 2
      }
      const value = this.#overlay.values[this.#pending]!
      this.#pending += step
      this.#pendingBytes = undefined
      if (value !== null) return new KeyValue(pendingKey, value)
    }
  }

  #takeDbRow(key: Buffer): KeyValue<Buffer, Buffer> {
    const value = this.#rows[this.#row + 1]!
    this.#row += 2
    return new KeyValue(key, value)
  }

  /** The key of the current DB row, fetching the next chunk when needed; undefined at the end. */
  #dbKey(): Buffer | undefined {
    if (this.#row < this.#rows.length) return this.#rows[this.#row]
    const native = this.#native
    if (native === undefined) return undefined
    let result: { rows: Array<Buffer | undefined>; finished: boolean }
    try {
      result = native._nextvSync(this.#fetch)
    } catch (err) {
      throw this.#source.error(err, 'iterator next')
    }
    this.#fetch = Math.min(this.#fetch * 4, MAX_FETCH)
    this.#rows = result.rows
    this.#row = 0
    if (result.finished || result.rows.length === 0) this.#closeNative()
    return this.#row < this.#rows.length ? this.#rows[this.#row] : undefined
  }

  #closeNative(): void {
    const native = this.#native
    if (native === undefined) return
    this.#native = undefined
    native.close(ignore)
  }

  /** Frees the native iterator and the buffered rows. */
  protected free(): void {
    this.#closeNative()
    this.#rows = NO_ROWS
    this.#row = 0
    this.#overlay = { keys: [], values: [] }
    this.#pending = 0
    this.#pendingBytes = undefined
  }
}

function ignore(): void {}
