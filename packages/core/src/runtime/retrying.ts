/**
 * Sends a Kafka request again while it fails with a retriable error, with an exponential
 * backoff (retryBackoffMs doubling up to 1 s), until `timeoutMs` has passed; then the last error
 * is thrown (still retriable, so a caller can go on trying under task.timeout.ms). Non-retriable
 * errors are thrown at once. @internal
 */
import type { Clock } from '../clock.js'

const MAX_BACKOFF_MS = 1000

export interface RetryingOptions {
  readonly timeoutMs: number
  readonly backoffMs: number
  readonly clock: Clock
  /** Told before each retry. */
  readonly onRetry?: (error: unknown, attempt: number) => void
  /** Stops retrying (the owner closes): the last error is thrown. */
  readonly stopped?: () => boolean
  /** Waits between attempts; default a timer. */
  readonly sleep?: (ms: number) => Promise<void>
}

export async function retrying<T>(request: () => Promise<T>, options: RetryingOptions): Promise<T> {
  const deadline = options.clock.milliseconds() + options.timeoutMs
  const sleep =
    options.sleep ??
    (async (ms: number) => {
      await new Promise(resolve => setTimeout(resolve, ms))
    })
  for (let attempt = 0; ; attempt++) {
    try {
      return await request()
    } catch (error) {
      const left = deadline - options.clock.milliseconds()
      if (!isRetriable(error) || left <= 0 || options.stopped?.() === true) throw error
      options.onRetry?.(error, attempt)
      await sleep(Math.min(backoffDelay(options.backoffMs, attempt), left))
    }
  }
}

/** The pause before retry `attempt` (0, 1, ...): `backoffMs` doubling up to 1 s (Kafka's retry.backoff.max.ms). */
export function backoffDelay(backoffMs: number, attempt: number): number {
  return Math.min(backoffMs * 2 ** attempt, MAX_BACKOFF_MS)
}

/** A StreamsError (of any copy of @kstreams/core) marked retriable. */
export function isRetriable(error: unknown): boolean {
  return error !== null && typeof error === 'object' && (error as { retriable?: unknown }).retriable === true
}
