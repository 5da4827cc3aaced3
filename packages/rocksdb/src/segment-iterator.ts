/**
 * Walks the segments a scan touches, one store iterator per segment opened when the walk gets
 * there (Kafka's SegmentIterator), and returns the entries that pass the scan's filter with the
 * segment prefix taken off their keys. Closed with its store; a closed iterator throws
 * STORE_NOT_OPEN.
 * @internal
 */
import { InvalidStateStoreError, KeyValue } from '@kstreams/core'
import type { KeyValueIterator } from '@kstreams/core'

export interface SegmentIteratorOwner {
  readonly storeName: string
  /** False once the store that created the iterator has closed. */
  readonly lease: { open: boolean }
  /** Called once, when the iterator is closed or exhausted. */
  release(iterator: SegmentIterator): void
}

export interface SegmentScan {
  /** Segment ids in walk order. */
  readonly segments: readonly number[]
  /** Opens the store iterator of one segment (keys still prefixed). */
  open(segmentId: number): KeyValueIterator<Buffer, Buffer>
  /** Which store keys (prefix removed) the scan returns. */
  filter(storeKey: Buffer): boolean
}

/** The length of the segment id in front of every key. */
export const SEGMENT_PREFIX_SIZE = 8

export class SegmentIterator implements KeyValueIterator<Buffer, Buffer> {
  readonly #owner: SegmentIteratorOwner
  #scan: SegmentScan | undefined
  #nextSegment = 0
  #current: KeyValueIterator<Buffer, Buffer> | undefined
  #peeked: KeyValue<Buffer, Buffer> | undefined
  #closed = false
  #released = false

  constructor (owner: SegmentIteratorOwner, scan: SegmentScan) {
    this.#owner = owner
    this.#scan = scan
  }

  next (): IteratorResult<KeyValue<Buffer, Buffer>, undefined> {
    this.#checkOpen()
    const entry = this.#peeked ?? this.#advance()
    this.#peeked = undefined
    return entry === undefined ? { done: true, value: undefined } : { done: false, value: entry }
  }

  peekNextKey (): Buffer | undefined {
    this.#checkOpen()
    this.#peeked ??= this.#advance()
    return this.#peeked?.key
  }

  /** Idempotent. */
  close (): void {
    if (this.#closed) return
    this.#closed = true
    this.#peeked = undefined
    this.#exhaust()
  }

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

  #advance (): KeyValue<Buffer, Buffer> | undefined {
    const scan = this.#scan
    if (scan === undefined) return undefined
    for (;;) {
      let current = this.#current
      if (current === undefined) {
        if (this.#nextSegment >= scan.segments.length) {
          this.#exhaust()
          return undefined
        }
        current = this.#current = scan.open(scan.segments[this.#nextSegment++]!)
      }
      const result = current.next()
      if (result.done === true) {
        current.close()
        this.#current = undefined
        continue
      }
      const storeKey = result.value.key.subarray(SEGMENT_PREFIX_SIZE)
      if (scan.filter(storeKey)) return new KeyValue(storeKey, result.value.value)
    }
  }

  #checkOpen (): void {
    if (this.#closed) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Iterator for store "${this.#owner.storeName}" has been closed`)
    }
    if (!this.#owner.lease.open) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Iterator for store "${this.#owner.storeName}" cannot be used: the store is closed`)
    }
  }

  #exhaust (): void {
    this.#current?.close()
    this.#current = undefined
    this.#scan = undefined
    if (!this.#released) {
      this.#released = true
      this.#owner.release(this)
    }
  }
}
