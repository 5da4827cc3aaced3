/** Where the record being processed came from (topic undefined inside a punctuation). @internal */
import type { Headers } from '../record.js'

export interface ProcessorRecordContext {
  readonly topic: string | undefined
  readonly partition: number
  readonly offset: number
  readonly timestamp: number
  readonly headers: Headers
  /**
   * The key bytes of the source record as read from its topic, for the exception handlers'
   * dead-letter records (KIP-1034); undefined or null without a source record (a punctuation).
   */
  readonly sourceRawKey?: Buffer | null | undefined
  /** The value bytes of the source record as read from its topic; undefined or null without one. */
  readonly sourceRawValue?: Buffer | null | undefined
}
