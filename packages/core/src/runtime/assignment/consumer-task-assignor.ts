/**
 * Splits one client's tasks over its consumers (stream threads), like Kafka Streams'
 * `assignTasksToThreads`: stateful actives balanced first, then stateless actives so that active
 * tasks per thread differ by at most one, then standbys balanced on the total load. Each thread
 * keeps the tasks it had while within its quota; tasks without a previous owner go round-robin
 * in task order, which spreads the partitions of each sub-topology over the threads. @internal
 */
import { fillBalanced, leastLoaded } from './balanced-fill.js'
import type { Bin } from './balanced-fill.js'
import { compareTaskIds } from './task-ids.js'

export interface ConsumerInput {
  readonly memberId: string
  readonly previousActive: ReadonlySet<string>
  readonly previousStandby: ReadonlySet<string>
}

export interface ConsumerTasks {
  readonly active: string[]
  readonly standby: string[]
}

class ConsumerBin implements Bin {
  readonly capacity = 1
  readonly active: string[] = []
  readonly standby: string[] = []
  constructor(
    readonly id: string,
    readonly input: ConsumerInput
  ) {}
}

export function assignTasksToConsumers(
  consumers: readonly ConsumerInput[],
  active: readonly string[],
  standby: readonly string[],
  statefulTasks: ReadonlySet<string>
): Map<string, ConsumerTasks> {
  const bins = [...consumers]
    .sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0))
    .map(consumer => new ConsumerBin(consumer.memberId, consumer))
  const previous = (tasks: ReadonlySet<string>, wanted: ReadonlySet<string>): string[] =>
    [...tasks].filter(task => wanted.has(task)).sort(compareTaskIds)

  const statefulActive = new Set(active.filter(task => statefulTasks.has(task)))
  const statelessActive = new Set(active.filter(task => !statefulTasks.has(task)))
  const standbySet = new Set(standby)

  fillBalanced({
    bins,
    tasks: [...statefulActive].sort(compareTaskIds),
    initialCount: () => 0,
    previousTasks: bin => previous(bin.input.previousActive, statefulActive),
    choose: leastLoaded,
    place: (bin, task) => bin.active.push(task)
  })
  fillBalanced({
    bins,
    tasks: [...statelessActive].sort(compareTaskIds),
    initialCount: bin => bin.active.length,
    previousTasks: bin => previous(bin.input.previousActive, statelessActive),
    choose: leastLoaded,
    place: (bin, task) => bin.active.push(task)
  })
  fillBalanced({
    bins,
    tasks: [...standbySet].sort(compareTaskIds),
    initialCount: bin => bin.active.length,
    previousTasks: bin => [...previous(bin.input.previousStandby, standbySet), ...previous(bin.input.previousActive, standbySet)],
    choose: leastLoaded,
    place: (bin, task) => bin.standby.push(task)
  })

  const result = new Map<string, ConsumerTasks>()
  for (const bin of bins) {
    result.set(bin.id, { active: bin.active.sort(compareTaskIds), standby: bin.standby.sort(compareTaskIds) })
  }
  return result
}
