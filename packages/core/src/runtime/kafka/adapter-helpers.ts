/**
 * Small helpers the Kafka client adapters (@kstreams/kafkajs, @kstreams/platformatic) share.
 */
import type { GroupCoordinatorPort, GroupGeneration, TopicPartition, TopicPartitionOffset } from './ports.js'

/**
 * Runs async tasks one at a time, in call order (a mutex without a lock object): a producer's
 * sends and transaction steps, an admin's calls. A failed task does not stop the ones queued after it.
 */
export class SerialExecutor {
  #tail: Promise<unknown> = Promise.resolve()

  /** Runs `task` after every task submitted before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task)
    this.#tail = result.catch(() => undefined)
    return result
  }

  /** Resolves once everything submitted so far has settled. */
  async idle(): Promise<void> {
    await this.#tail
  }
}

/**
 * Per-partition items grouped by topic, the shape Kafka requests take (`[{ topic, partitions }]`);
 * topics and partitions keep their first-seen order.
 */
export function groupByTopic<T extends TopicPartition>(
  items: readonly T[]
): Array<{
  /** The topic. */
  topic: string
  /** Its items, in first-seen order. */
  items: T[]
}> {
  const byTopic = new Map<string, T[]>()
  for (const item of items) {
    let list = byTopic.get(item.topic)
    if (list === undefined) byTopic.set(item.topic, (list = []))
    list.push(item)
  }
  return [...byTopic].map(([topic, list]) => ({ topic, items: list }))
}

/** What an offset commit from outside the group carries: no generation, no member (Kafka's admin commits). */
const OUTSIDE_ANY_GENERATION: GroupGeneration = { generationId: -1, memberId: '' }

/**
 * `AdminPort.alterConsumerGroupOffsets` on a GroupCoordinatorPort of the group: an OffsetCommit
 * with generation -1 and no member id, which the coordinator takes only while the group has no
 * members. Closes `coordinator` after.
 */
export async function commitOffsetsFromOutside(coordinator: GroupCoordinatorPort, offsets: readonly TopicPartitionOffset[]): Promise<void> {
  try {
    if (offsets.length > 0) await coordinator.commitOffsets(OUTSIDE_ANY_GENERATION, offsets)
  } finally {
    await coordinator.close()
  }
}

/**
 * `AdminPort.removeMembersFromConsumerGroup` on a GroupCoordinatorPort of the group: a LeaveGroup
 * on behalf of each member, one after the other. Closes `coordinator` after.
 */
export async function removeMembers(
  coordinator: GroupCoordinatorPort,
  members: ReadonlyArray<{ readonly memberId: string; readonly groupInstanceId?: string | undefined }>
): Promise<void> {
  try {
    for (const { memberId, groupInstanceId } of members)
      await coordinator.leaveGroup({ memberId, groupInstanceId, reason: 'removed by an admin request' })
  } finally {
    await coordinator.close()
  }
}
