/**
 * One record-cache entry (Kafka's LRUCacheEntry): the value bytes (null is a cached delete), the
 * record context of the write that produced it (so a flush carries the original timestamp,
 * headers and origin downstream and into the changelog), and whether it still has to be flushed.
 * Its size is Kafka's estimate: 1 byte for the dirty flag, the value, and the record context
 * (timestamp 8, offset 8, partition 4, topic characters, header key characters and value bytes).
 * @internal
 */
import { Headers } from '../../record.js'
import type { ProcessorRecordContext } from '../../runtime/record-context.js'

/** The record context of an entry read from the store below: no record wrote it. */
const NO_CONTEXT: ProcessorRecordContext = Object.freeze({ topic: '', partition: -1, offset: -1, timestamp: -1, headers: new Headers() })

export class LRUCacheEntry {
  readonly value: Buffer | null
  readonly recordContext: ProcessorRecordContext
  readonly size: number
  #dirty: boolean

  constructor(value: Buffer | null, recordContext: ProcessorRecordContext, dirty: boolean) {
    this.value = value
    this.recordContext = recordContext
    this.#dirty = dirty
    this.size = 1 + (value === null ? 0 : value.length) + contextSize(recordContext)
  }

  /** An entry read from the store below (clean: nothing to flush). */
  static clean(value: Buffer): LRUCacheEntry {
    return new LRUCacheEntry(value, NO_CONTEXT, false)
  }

  /** An entry written by the record being processed (dirty until flushed). */
  static dirty(value: Buffer | null, recordContext: ProcessorRecordContext): LRUCacheEntry {
    return new LRUCacheEntry(value, recordContext, true)
  }

  get isDirty(): boolean {
    return this.#dirty
  }

  markClean(): void {
    this.#dirty = false
  }
}

function contextSize(context: ProcessorRecordContext): number {
  let size = 8 + 8 + 4 + (context.topic === undefined ? 0 : context.topic.length)
  const headers = context.headers
  if (headers.size > 0) {
    for (const header of headers) size += header.key.length + (header.value === null ? 0 : header.value.length)
  }
  return size
}
