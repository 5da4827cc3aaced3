/**
 * The lifecycle shared by the in-memory key-value, window and session stores: a transition table
 * (created -> open -> closed, reopenable; open -> open is a re-init that keeps the data, used when
 * a standby task is recycled into an active one), the not-open error, and the iterators handed
 * out during the current open period, which close() closes. The store keeps its data; it is told
 * when to reset it (a fresh open) and when to drop it (close).
 */
import { IllegalStateError, InvalidStateStoreError } from '@kstreams/core'
import { InMemorySnapshotIterator } from './in-memory-snapshot-iterator.js'
import type { SnapshotChunk, SnapshotIteratorOwner } from './in-memory-snapshot-iterator.js'

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

export class InMemoryStoreLifecycle {
  readonly #storeName: string
  readonly #openIterators = new Set<{ close(): void }>()
  #state: StoreState = 'created'
  /** Shared with the iterators of the current open period; flipped to false on close. */
  #owner: SnapshotIteratorOwner

  constructor(storeName: string) {
    this.#storeName = storeName
    this.#owner = this.#newOwner(false)
  }

  /**
   * Opens the store: checks the transition, then calls `register` (the store registers its
   * restore callback with the new context). On a store that is already open (a re-init) that is
   * all: the data and the open iterators stay. Otherwise `reset` clears what a fresh open period
   * starts without, and the store becomes open.
   */
  init(register: () => void, reset?: () => void): void {
    this.#checkTransition('open')
    register()
    if (this.#state === 'open') return
    reset?.()
    this.#owner = this.#newOwner(true)
    this.#state = 'open'
  }

  /** Closes every open iterator, then calls `dropData`. Idempotent. */
  close(dropData: () => void): void {
    if (this.#state !== 'open') {
      if (this.#state === 'created') this.#state = 'closed'
      return
    }
    this.#owner.lease.open = false
    for (const iterator of [...this.#openIterators]) iterator.close()
    this.#openIterators.clear()
    dropData()
    this.#state = 'closed'
  }

  isOpen(): boolean {
    return this.#state === 'open'
  }

  /** Throws STORE_NOT_OPEN unless the store is open. */
  checkOpen(): void {
    if (this.#state !== 'open') {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.#storeName}" is not open (${this.#state})`)
    }
  }

  /** A tracked iterator over `chunks`, closed with the store unless closed or exhausted first. */
  iterator<K, L>(chunks: Array<SnapshotChunk<K, L>>): InMemorySnapshotIterator<K, L> {
    const iterator = new InMemorySnapshotIterator(this.#owner, chunks)
    this.#openIterators.add(iterator)
    return iterator
  }

  #newOwner(open: boolean): SnapshotIteratorOwner {
    const openIterators = this.#openIterators
    return {
      storeName: this.#storeName,
      lease: { open },
      release: iterator => {
        openIterators.delete(iterator)
      }
    }
  }

  #checkTransition(next: StoreState): void {
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new IllegalStateError(`Store "${this.#storeName}" cannot move from ${this.#state} to ${next}`)
    }
  }
}
