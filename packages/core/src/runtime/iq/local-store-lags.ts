/**
 * Per store and partition lags of the local tasks (Kafka Streams' allLocalStorePartitionLags):
 * each changelog's position against its end offset, read through the admin client. A RUNNING
 * active task counts as caught up (position = end). Positions are the next offset to apply, so a
 * caught-up standby has lag 0. @internal
 */
import { tpKey, type AdminPort, type TopicPartition } from '../kafka/ports.js'

/** How far a local store is behind its changelog (Kafka Streams' LagInfo). */
export interface LagInfo {
  /** The next changelog offset the store applies. */
  readonly currentOffsetPosition: number
  /** The changelog's end offset. */
  readonly endOffsetPosition: number
  /** end - current: 0 when caught up. */
  readonly offsetLag: number
}

export interface ChangelogPosition {
  readonly storeName: string
  readonly changelog: TopicPartition
  /** Next offset to apply, or 'latest' for a caught-up (running) active task. */
  readonly position: number | 'latest'
}

export async function localStorePartitionLags(
  positions: readonly ChangelogPosition[],
  admin: Pick<AdminPort, 'endOffsets'>
): Promise<Map<string, Map<number, LagInfo>>> {
  const lags = new Map<string, Map<number, LagInfo>>()
  if (positions.length === 0) return lags
  const ends = await admin.endOffsets(positions.map(p => p.changelog))
  for (const p of positions) {
    const end = ends.get(tpKey(p.changelog.topic, p.changelog.partition))
    if (end === undefined) continue
    const current = p.position === 'latest' ? end : Math.min(p.position, end)
    let byPartition = lags.get(p.storeName)
    if (byPartition === undefined) lags.set(p.storeName, (byPartition = new Map()))
    byPartition.set(p.changelog.partition, {
      currentOffsetPosition: current,
      endOffsetPosition: end,
      offsetLag: Math.max(0, end - current)
    })
  }
  for (const [store, byPartition] of lags) lags.set(store, new Map([...byPartition].sort((a, b) => a[0] - b[0])))
  return lags
}
