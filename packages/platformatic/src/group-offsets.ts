/**
 * OffsetFetch v9 of one group's committed offsets (with KIP-447's require_stable), shared by the
 * group coordinator port and the admin port: partitions without a commit are absent, an empty
 * metadata string reads as undefined. A group-level or partition-level error rejects (the
 * runtime retries UNSTABLE_OFFSET_COMMIT, which is retriable).
 */
import { offsetFetchV9, type Connection } from '@platformatic/kafka'
import { tpKey, type CommittedOffset, type TopicPartition, groupByTopic } from '@kstreams/core'
import type { BrokerConnections } from './broker-connections.js'
import { fromErrorCode } from './platformatic-errors.js'

export async function fetchGroupOffsets(
  connections: BrokerConnections,
  connection: Connection,
  groupId: string,
  partitions: readonly TopicPartition[],
  requireStable: boolean
): Promise<Map<string, CommittedOffset>> {
  const what = `OffsetFetch of group ${groupId} (client ${connections.clientId})`
  const topics = groupByTopic(partitions).map(({ topic, items }) => ({ name: topic, partitionIndexes: items.map(tp => tp.partition) }))
  const response = await connections.request(
    connection,
    offsetFetchV9.api,
    [[{ groupId, memberId: null, memberEpoch: -1, topics }], requireStable],
    what
  )
  const result = new Map<string, CommittedOffset>()
  for (const group of response.groups) {
    if (group.errorCode !== 0) throw fromErrorCode(group.errorCode, what, null, { api: 'OffsetFetch', group: groupId })
    for (const { name, partitions: answered } of group.topics) {
      for (const p of answered) {
        if (p.errorCode !== 0)
          throw fromErrorCode(p.errorCode, `${what} for ${tpKey(name, p.partitionIndex)}`, null, {
            api: 'OffsetFetch',
            group: groupId,
            topic: name
          })
        if (p.committedOffset < 0n) continue
        result.set(tpKey(name, p.partitionIndex), {
          offset: Number(p.committedOffset),
          metadata: p.metadata === null || p.metadata === '' ? undefined : p.metadata
        })
      }
    }
  }
  return result
}
