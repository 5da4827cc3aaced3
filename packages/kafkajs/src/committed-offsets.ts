/**
 * The offsets (and metadata) a consumer group committed for some partitions, read with a kafkajs
 * admin client (the admin port's `committedOffsets()`); partitions without a commit are absent.
 * The group's own members read theirs through the GroupCoordinatorPort instead. @internal
 */
import type { Admin } from 'kafkajs'
import { tpKey, type TopicPartition } from '@kstreams/core'

export async function fetchCommittedOffsets(
  admin: Admin,
  groupId: string,
  partitions: readonly TopicPartition[]
): Promise<Map<string, { offset: number; metadata: string | undefined }>> {
  const result = new Map<string, { offset: number; metadata: string | undefined }>()
  if (partitions.length === 0) return result
  const wanted = new Set(partitions.map(tp => tpKey(tp.topic, tp.partition)))
  const fetched = await admin.fetchOffsets({ groupId, topics: [...new Set(partitions.map(tp => tp.topic))] })
  for (const { topic, partitions: list } of fetched) {
    for (const { partition, offset, metadata } of list) {
      const key = tpKey(topic, partition)
      const value = Number(offset)
      if (!wanted.has(key) || value < 0) continue
      result.set(key, { offset: value, metadata: metadata === null || metadata === '' ? undefined : metadata })
    }
  }
  return result
}
