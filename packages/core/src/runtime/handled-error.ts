/**
 * Errors that must not go to a processor node's processing exception handler on their way up the
 * processor graph (Kafka's FailedProcessingException, TaskCorruptedException and
 * TaskMigratedException): one a handler already decided on (FAIL), one that reports a failure of
 * the runtime rather than of the record (a failed send, a task that migrated or is corrupted).
 * Everything else user code throws, StreamsErrors included, goes to the handler. @internal
 */
import { StreamsError } from '../errors.js'

const HANDLED = Symbol('kstreams.handled')

/** Marks `error` as decided on: processor nodes above pass it through. Returns it. */
export function markHandled<E>(error: E): E {
  if (error !== null && typeof error === 'object' && Object.isExtensible(error) && !Object.hasOwn(error, HANDLED)) {
    Object.defineProperty(error, HANDLED, { value: true, enumerable: false })
  }
  return error
}

/** Whether the processing exception handler must not see `error` (see above). */
export function bypassesProcessingHandler(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false
  if ((error as { [HANDLED]?: boolean })[HANDLED] === true) return true
  return error instanceof StreamsError && (error.code === 'TASK_MIGRATED' || error.code === 'TASK_CORRUPTED')
}
