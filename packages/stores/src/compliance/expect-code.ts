/** Runs fn and returns the `code` of the StreamsError it throws (fails when it throws nothing). */
import { StreamsError } from '@kstreams/core'

/** Runs `fn` and returns the `code` of the StreamsError it throws; fails when it throws nothing. */
export function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (err instanceof StreamsError) return err.code
    throw err
  }
  throw new Error('expected an error, none was thrown')
}
