/**
 * Plugs a GroupAssignor into kafkajs' custom assigner API. Subscriptions and assignments use the
 * classic consumer protocol layout at version 0 (ConsumerProtocolSubscription/Assignment v0:
 * version, topics or topic-partitions, userData), so any parser of that protocol reads them.
 * Partition counts come from the leader's cluster metadata, which kafkajs refreshes just before
 * it calls assign(); topics missing from the cluster are absent from the map.
 */
import { AssignerProtocol, type Assigner, type GroupMemberAssignment, type PartitionAssigner } from 'kafkajs'
import { StreamsError } from '../../../errors.js'
import type { GroupAssignor, GroupMemberSubscription, MemberAssignment, TopicPartition } from '../ports.js'

const PROTOCOL_VERSION = 0
const EMPTY = Buffer.alloc(0)

export function createPartitionAssigner (assignor: GroupAssignor): PartitionAssigner {
  return ({ cluster }): Assigner => ({
    name: assignor.name,
    version: PROTOCOL_VERSION,
    protocol ({ topics }) {
      return {
        name: assignor.name,
        metadata: AssignerProtocol.MemberMetadata.encode({
          version: PROTOCOL_VERSION,
          topics,
          userData: assignor.subscriptionUserData(topics)
        })
      }
    },
    async assign ({ members, topics }): Promise<GroupMemberAssignment[]> {
      try {
        const subscriptions: GroupMemberSubscription[] = members.map(member => {
          const decoded = AssignerProtocol.MemberMetadata.decode(member.memberMetadata)
          return {
            memberId: member.memberId,
            topics: decoded?.topics ?? [],
            userData: decoded?.userData ?? EMPTY
          }
        })
        const allTopics = new Set<string>(topics)
        for (const s of subscriptions) for (const t of s.topics) allTopics.add(t)
        const partitionCounts = new Map<string, number>()
        for (const topic of allTopics) {
          const count = cluster.findTopicPartitionMetadata(topic).length
          if (count > 0) partitionCounts.set(topic, count)
        }
        const plan = await assignor.assign(subscriptions, partitionCounts)
        return members.map(member => ({
          memberId: member.memberId,
          memberAssignment: encodeAssignment(plan.get(member.memberId))
        }))
      } catch (error) {
        // Not retriable: kafkajs would otherwise retry the whole join with the same input.
        throw error instanceof StreamsError
          ? error
          : new StreamsError('ASSIGNMENT_ERROR', `Assignor ${assignor.name} failed: ${String((error as Error)?.message ?? error)}`, { cause: error })
      }
    }
  })
}

export function encodeAssignment (assignment: MemberAssignment | undefined): Buffer {
  const byTopic: Record<string, number[]> = {}
  for (const { topic, partition } of assignment?.partitions ?? []) {
    (byTopic[topic] ??= []).push(partition)
  }
  for (const partitions of Object.values(byTopic)) partitions.sort((a, b) => a - b)
  return AssignerProtocol.MemberAssignment.encode({
    version: PROTOCOL_VERSION,
    assignment: byTopic,
    userData: assignment?.userData ?? EMPTY
  })
}

/** kafkajs' `[{ topic, partitions }]` as a flat, sorted list. */
export function flattenTopicPartitions (topicPartitions: ReadonlyArray<{ topic: string, partitions: readonly number[] }>): TopicPartition[] {
  const out: TopicPartition[] = []
  for (const { topic, partitions } of topicPartitions) {
    for (const partition of partitions) out.push({ topic, partition })
  }
  return out.sort((a, b) => a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1)
}

/** A flat list as kafkajs' `[{ topic, partitions }]`. */
export function groupByTopic (partitions: readonly TopicPartition[]): Array<{ topic: string, partitions: number[] }> {
  const byTopic = new Map<string, number[]>()
  for (const { topic, partition } of partitions) {
    const list = byTopic.get(topic) ?? []
    if (!list.includes(partition)) list.push(partition)
    byTopic.set(topic, list)
  }
  return [...byTopic].map(([topic, list]) => ({ topic, partitions: list }))
}
