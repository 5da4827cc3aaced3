/**
 * The iterator of the in-memory stores (Kafka's InMemoryKeyValueIterator and the window and
 * session store iterators): walks a snapshot of the entries in range taken when it was created,
 * in iteration order, grouped in chunks that each read their values live from one map of the
 * store. Entries removed in the meantime are skipped and entries added later are not seen;
 * entries that expire while it is open stay readable (Kafka keeps the segments an open iterator
 * still needs). Using it after it, or its store, was closed throws STORE_NOT_OPEN. It lets go of
 * its store once exhausted.
 */
import { InvalidStateStoreError, KeyValue } from '@kstreams/core'
import { KeyValueIteratorBase } from '@kstreams/core/internal'

/** Entries read from one live map: `lookups` in iteration order, `key` builds the iterator key. */
export interface SnapshotChunk<K, L> {
  readonly source: { get(lookup: L): Buffer | undefined }
  readonly lookups: readonly L[]
  key(lookup: L): K
}

/** What an iterator needs from its store. */
export interface SnapshotIteratorOwner {
  readonly storeName: string
  /** False once the store that created the iterator has closed. */
  readonly lease: { open: boolean }
  /** Called once, when the iterator is closed or exhausted. */
  release(iterator: { close(): void }): void
}

/** @internal */
export class InMemorySnapshotIterator<K, L> extends KeyValueIteratorBase<K, Buffer> {
  readonly #owner: SnapshotIteratorOwner
  #chunks: ReadonlyArray<SnapshotChunk<K, L>>
  #chunk = 0
  #position = 0
  #closed = false
  #released = false
  /** The key built for the entry at (#chunk, #position) by peekNextKey(). */
  #peeked: K | undefined

  constructor(owner: SnapshotIteratorOwner, chunks: ReadonlyArray<SnapshotChunk<K, L>>) {
    super()
    this.#owner = owner
    this.#chunks = chunks
  }

  next(): IteratorResult<KeyValue<K, Buffer>, undefined> {
    this.#checkOpen()
    const chunkBefore = this.#chunk
    const positionBefore = this.#position
    const peeked = this.#peeked
    this.#peeked = undefined
    const value = this.#seekLive()
    if (value === undefined) return { done: true, value: undefined }
    const chunk = this.#chunks[this.#chunk]!
    const lookup = chunk.lookups[this.#position]!
    // The peeked key is only good when its entry is still the next live one.
    const key = peeked !== undefined && chunkBefore === this.#chunk && positionBefore === this.#position ? peeked : chunk.key(lookup)
    this.#position++
    return { done: false, value: new KeyValue(key, value) }
  }

  peekNextKey(): K | undefined {
    this.#checkOpen()
    if (this.#peeked !== undefined) {
      const chunk = this.#chunks[this.#chunk]
      if (chunk !== undefined && chunk.source.get(chunk.lookups[this.#position]!) !== undefined) return this.#peeked
      this.#peeked = undefined
    }
    if (this.#seekLive() === undefined) return undefined
    const chunk = this.#chunks[this.#chunk]!
    this.#peeked = chunk.key(chunk.lookups[this.#position]!)
    return this.#peeked
  }

  /** Idempotent. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#exhaust()
  }

  /**
   * Moves to the next entry whose value is still present and returns that value; exhausts and
   * returns undefined at the end.
   */
  #seekLive(): Buffer | undefined {
    const chunks = this.#chunks
    for (; this.#chunk < chunks.length; this.#chunk++, this.#position = 0) {
      const chunk = chunks[this.#chunk]!
      const lookups = chunk.lookups
      for (; this.#position < lookups.length; this.#position++) {
        const value = chunk.source.get(lookups[this.#position]!)
        if (value !== undefined) return value
      }
    }
    this.#exhaust()
    return undefined
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

  /** Drops the snapshot and tells the store it need not track this iterator any more. */
  #exhaust(): void {
    this.#chunks = []
    this.#chunk = 0
    this.#position = 0
    this.#peeked = undefined
    if (!this.#released) {
      this.#released = true
      this.#owner.release(this)
    }
  }
}
