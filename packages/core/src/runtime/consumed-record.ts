/** A record as consumed from a topic partition, still in bytes. @internal */
import type { Headers } from '../record.js'

export interface ConsumedRecord {
  readonly topic: string
  readonly partition: number
  readonly offset: number
  readonly timestamp: number
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
}
