/** A record the topology produced, as captured by the test driver. @internal */
import type { Headers } from '@kstreams/core'

export interface CapturedRecord {
  readonly topic: string
  readonly partition: number | undefined
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Headers
  readonly timestamp: number
}
