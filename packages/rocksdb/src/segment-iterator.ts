/**
 * Walks the segments a scan touches, one store iterator per segment opened when the walk gets
 * there (Kafka's SegmentIterator), and returns the entries that pass the scan's filter with the
 * segment prefix taken off their keys. Closed with its store; a closed iterator throws
 * STORE_NOT_OPEN.
 * @internal
 */
import { KeyValue } from '@kstreams/core'
import type { KeyValueIterator } from '@kstreams/core'
import { LeasedIterator } from './leased-iterator.js'
import type { IteratorLeaseOwner } from './leased-iterator.js'

export type SegmentIteratorOwner = IteratorLeaseOwner<SegmentIterator>

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

export class SegmentIterator extends LeasedIterator {
  #scan: SegmentScan | undefined
  #nextSegment = 0
  #current: KeyValueIterator<Buffer, Buffer> | undefined

  constructor(owner: SegmentIteratorOwner, scan: SegmentScan) {
    super(owner)
    this.#scan = scan
  }

  protected advance(): KeyValue<Buffer, Buffer> | undefined {
    const scan = this.#scan
    if (scan === undefined) return undefined
    for (;;) {
      let current = this.#current
      if (current === undefined) {
        if (this.#nextSegment >= scan.segments.length) {
          this.exhaust()
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

  protected free(): void {
    this.#current?.close()
    this.#current = undefined
    this.#scan = undefined
  }
}
