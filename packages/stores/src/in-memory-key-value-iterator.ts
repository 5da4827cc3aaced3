/**
 * The iterator of the in-memory key-value store (Kafka's InMemoryKeyValueIterator): walks a
 * snapshot of the keys in range taken when it was created, reading each value live, so keys
 * deleted in the meantime are skipped and keys added later are not seen. Using it after it, or
 * its store, was closed throws STORE_NOT_OPEN. It lets go of its store once exhausted.
 */
import { InvalidStateStoreError, KeyValue } from '@kstreams/core'
import type { KeyValueIterator } from '@kstreams/core'
import { keyToBytes } from './byte-keys.js'

/** What an iterator needs from its store. */
export interface InMemoryIteratorSource {
  readonly storeName: string
  /** Live values by latin1 key. */
  readonly entries: { get(key: string): Buffer | undefined }
  /** False once the store that created the iterator has closed. */
  readonly lease: { open: boolean }
  /** Called once, when the iterator is closed or exhausted. */
  release(iterator: InMemoryKeyValueIterator): void
}

const NO_KEYS: readonly string[] = []

/** @internal */
export class InMemoryKeyValueIterator implements KeyValueIterator<Buffer, Buffer> {
  readonly #source: InMemoryIteratorSource
  #keys: readonly string[]
  readonly #forward: boolean
  /** Index of the next candidate key; moves towards the end in both directions. */
  #position: number
  #closed = false
  #released = false
  /** The bytes of #keys[#position] once peekNextKey() has confirmed it is live. */
  #peeked: Buffer | undefined

  /** `keys` must be sorted ascending and owned by the iterator. */
  constructor (source: InMemoryIteratorSource, keys: readonly string[], forward: boolean) {
    this.#source = source
    this.#keys = keys
    this.#forward = forward
    this.#position = forward ? 0 : keys.length - 1
  }

  next (): IteratorResult<KeyValue<Buffer, Buffer>, undefined> {
    this.#checkOpen()
    const keys = this.#keys
    const entries = this.#source.entries
    const step = this.#forward ? 1 : -1
    let peeked = this.#peeked
    this.#peeked = undefined
    for (let i = this.#position; i >= 0 && i < keys.length; i += step) {
      const key = keys[i]!
      const value = entries.get(key)
      if (value === undefined) {
        peeked = undefined
        continue
      }
      this.#position = i + step
      return { done: false, value: new KeyValue(peeked ?? keyToBytes(key), value) }
    }
    this.#exhaust()
    return { done: true, value: undefined }
  }

  peekNextKey (): Buffer | undefined {
    this.#checkOpen()
    if (this.#peeked !== undefined && this.#source.entries.get(this.#keys[this.#position]!) !== undefined) {
      return this.#peeked
    }
    const keys = this.#keys
    const entries = this.#source.entries
    const step = this.#forward ? 1 : -1
    for (let i = this.#position; i >= 0 && i < keys.length; i += step) {
      if (entries.get(keys[i]!) !== undefined) {
        this.#position = i
        this.#peeked = keyToBytes(keys[i]!)
        return this.#peeked
      }
    }
    this.#peeked = undefined
    this.#exhaust()
    return undefined
  }

  /** Idempotent. */
  close (): void {
    if (this.#closed) return
    this.#closed = true
    this.#exhaust()
  }

  /** Called when a `for...of` loop exits early: closes the iterator. */
  return (): IteratorResult<KeyValue<Buffer, Buffer>, undefined> {
    this.close()
    return { done: true, value: undefined }
  }

  [Symbol.iterator] (): this {
    return this
  }

  [Symbol.dispose] (): void {
    this.close()
  }

  #checkOpen (): void {
    if (this.#closed) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Iterator for store "${this.#source.storeName}" has been closed`)
    }
    if (!this.#source.lease.open) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Iterator for store "${this.#source.storeName}" cannot be used: the store is closed`)
    }
  }

  /** Drops the key snapshot and tells the store it need not track this iterator any more. */
  #exhaust (): void {
    this.#keys = NO_KEYS
    this.#position = 0
    this.#peeked = undefined
    if (!this.#released) {
      this.#released = true
      this.#source.release(this)
    }
  }
}
