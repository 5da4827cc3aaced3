/** Where the record being processed came from (topic undefined inside a punctuation). @internal */
import type { Headers } from '../record.js'

export interface ProcessorRecordContext {
  readonly topic: string | undefined
  readonly partition: number
  readonly offset: number
  readonly timestamp: number
  readonly headers: Headers
}
