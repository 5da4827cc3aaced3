/**
 * TASK_CORRUPTED (Kafka's TaskCorruptedException): a task's local state cannot be trusted (a
 * corrupted checkpoint, a checkpoint outside its changelog, a changelog truncated under a
 * restore); its owner wipes it and restores it from the changelog. @internal
 */
import { StreamsError } from '../errors.js'

export function isTaskCorrupted(err: unknown): err is StreamsError {
  return err instanceof StreamsError && err.code === 'TASK_CORRUPTED'
}
