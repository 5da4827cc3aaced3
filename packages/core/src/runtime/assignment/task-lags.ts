/**
 * Lag of each client on each stateful task, from the offset sums its threads reported and the
 * changelog end offsets (Kafka Streams' ClientState.computeTaskLags):
 * lag = sum of the task's changelog end offsets - reported offset sum; a task running as active
 * there is LATEST_OFFSET; a task it did not report lags by the whole changelog. @internal
 */
import type { TopicPartition } from '../kafka/ports.js'
import { tpKey } from '../kafka/ports.js'
import { LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from './subscription-info.js'

/**
 * Merges the offset sums several threads of one process reported: LATEST_OFFSET wins, then the
 * largest known sum, then UNKNOWN_OFFSET_SUM.
 */
export function mergeOffsetSums(reports: Iterable<ReadonlyMap<string, number>>): Map<string, number> {
  const merged = new Map<string, number>()
  for (const report of reports) {
    for (const [task, sum] of report) {
      const current = merged.get(task)
      if (current === undefined || rankOf(sum) > rankOf(current) || (rankOf(sum) === 1 && sum > current)) merged.set(task, sum)
    }
  }
  return merged
}

function rankOf(sum: number): number {
  return sum === LATEST_OFFSET ? 2 : sum === UNKNOWN_OFFSET_SUM ? 0 : 1
}

/** Sum of the end offsets of each task's changelog partitions (`endOffsets` keyed by `topic-partition`). */
export function endOffsetSums(
  changelogPartitions: ReadonlyMap<string, readonly TopicPartition[]>,
  endOffsets: ReadonlyMap<string, number>
): Map<string, number> {
  const sums = new Map<string, number>()
  for (const [task, partitions] of changelogPartitions) {
    let sum = 0
    for (const tp of partitions) sum += endOffsets.get(tpKey(tp.topic, tp.partition)) ?? 0
    sums.set(task, sum)
  }
  return sums
}

/**
 * Lags of one client on the stateful tasks. With `endSums` undefined (end offsets could not be
 * fetched) every lag is unknown except for running actives.
 */
export function taskLags(
  offsetSums: ReadonlyMap<string, number>,
  statefulTasks: Iterable<string>,
  endSums: ReadonlyMap<string, number> | undefined
): Map<string, number> {
  const lags = new Map<string, number>()
  for (const task of statefulTasks) {
    const offsetSum = offsetSums.get(task) ?? 0
    if (offsetSum === LATEST_OFFSET || offsetSum === UNKNOWN_OFFSET_SUM) {
      lags.set(task, offsetSum)
    } else if (endSums === undefined) {
      lags.set(task, UNKNOWN_OFFSET_SUM)
    } else {
      const endSum = endSums.get(task) ?? 0
      // An offset sum beyond the end means corrupt local state: it lags by the whole changelog.
      lags.set(task, offsetSum > endSum ? endSum : endSum - offsetSum)
    }
  }
  return lags
}
