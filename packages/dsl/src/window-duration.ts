/**
 * Checks the millisecond durations the window specifications take (Kafka Streams'
 * ApiUtils.validateMillisecondDuration): a safe integer number of milliseconds, else an
 * ILLEGAL_ARGUMENT error naming the parameter. @internal
 */
import { StreamsError } from '@kstreams/core'

export function checkMillis(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `${name} must be an integer number of milliseconds, got ${String(value)}`)
  }
  return value
}
