/**
 * Task ids inside the assignor are their printed form (`<subtopology>_<partition>`) so they can
 * key maps and sets; these helpers parse, order and validate them. The order is Kafka Streams'
 * TaskId order (sub-topology, then partition). @internal
 */
import { TaskId } from '../../task-id.js'

const parsed = new Map<string, TaskId>()

/** Parses a task id string (memoized); throws ILLEGAL_ARGUMENT for malformed ids. */
export function taskIdOf(id: string): TaskId {
  let task = parsed.get(id)
  if (task === undefined) {
    task = TaskId.parse(id)
    if (parsed.size > 100_000) parsed.clear()
    parsed.set(id, task)
  }
  return task
}

export function compareTaskIds(a: string, b: string): number {
  const ta = taskIdOf(a)
  const tb = taskIdOf(b)
  return ta.subtopology - tb.subtopology || ta.partition - tb.partition
}

/** A sorted copy. */
export function sortedTaskIds(ids: Iterable<string>): string[] {
  return [...ids].sort(compareTaskIds)
}
