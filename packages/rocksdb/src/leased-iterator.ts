/**
 * What the RocksDB key-value and segment iterators share: a one-entry peek buffer over the walk a
 * subclass implements (advance), closing (idempotent, by `for...of` break, by Symbol.dispose),
 * the STORE_NOT_OPEN checks (the iterator or the store that leased it was closed), and telling
 * the store, once, that it need not track the iterator any more (closed or exhausted), and the
 * count of the iterators of this thread that have not done so yet (RocksDBStore.openIterators).
 * @internal
 */
import { InvalidStateStoreError } from '@kstreams/core'
import { KeyValueIteratorBase } from '@kstreams/core/internal'
import type { KeyValue } from '@kstreams/core'

/** What an iterator needs from the store that created it. */
export interface IteratorLeaseOwner<I> {
  readonly storeName: string
  /** False once the store that created the iterator has closed. */
  readonly lease: { open: boolean }
  /** Called once, when the iterator is closed or exhausted. */
  release(iterator: I): void
}

/** @internal */
export abstract class LeasedIterator extends KeyValueIteratorBase<Buffer, Buffer> {
  /** Iterators of this thread neither closed nor exhausted. */
  static #open = 0
  readonly #owner: IteratorLeaseOwner<LeasedIterator>
  #peeked: KeyValue<Buffer, Buffer> | undefined
  #closed = false
  #released = false

  constructor(owner: IteratorLeaseOwner<LeasedIterator>) {
    super()
    this.#owner = owner
    LeasedIterator.#open++
  }

  /** How many iterators of this thread are neither closed nor exhausted. */
  static get open(): number {
    return LeasedIterator.#open
  }

  next(): IteratorResult<KeyValue<Buffer, Buffer>, undefined> {
    this.#checkOpen()
    const entry = this.#peeked ?? this.advance()
    this.#peeked = undefined
    return entry === undefined ? { done: true, value: undefined } : { done: false, value: entry }
  }

  peekNextKey(): Buffer | undefined {
    this.#checkOpen()
    this.#peeked ??= this.advance()
    return this.#peeked?.key
  }

  /** Idempotent. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#peeked = undefined
    this.exhaust()
  }

  /** The next entry of the walk; at its end calls exhaust() and returns undefined. */
  protected abstract advance(): KeyValue<Buffer, Buffer> | undefined

  /** Frees what the walk holds (native iterators, buffered rows). */
  protected abstract free(): void

  /** Frees the walk and releases the iterator from its store (once). */
  protected exhaust(): void {
    this.free()
    if (!this.#released) {
      this.#released = true
      LeasedIterator.#open--
      this.#owner.release(this)
    }
  }

  #checkOpen(): void {
    if (this.#closed) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Iterator for store "${this.#owner.storeName}" has been closed`)
    }
    if (!this.#owner.lease.open) {
      throw new InvalidStateStoreError(
        'STORE_NOT_OPEN',
        `Iterator for store "${this.#owner.storeName}" cannot be used: the store is closed`
      )
    }
  }
}
