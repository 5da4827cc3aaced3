/**
 * Where partitions without a committed offset (or with one out of range) start, as Kafka
 * Streams' StreamThread.resetOffsets decides it from each partition's reset policy: the earliest
 * or latest offset (ListOffsets), or by duration (KIP-1106): the first offset whose timestamp is
 * at or after now minus the duration (ListOffsets by timestamp; a timestamp below 0 is 0), the
 * latest offset when no record is that recent. A partition whose policy is 'none', or a
 * by-duration policy without a way to look offsets up by timestamp, is a fatal error for the
 * consumer, returned rather than thrown (what throws is a failed request, worth retrying). @internal
 */
import { StreamsError } from '../../errors.js'
import { describeOffsetReset, type AutoOffsetReset } from '../../processor/api.js'
import { tpKey, type FetchPort, type IsolationLevel, type TopicPartition, type TopicPartitionTimestamp } from '../kafka/ports.js'

/** A partition to reset; `outOfRange` is the offset that was out of range, if that is why. */
export interface PartitionToReset extends TopicPartition {
  readonly outOfRange?: number | undefined
}

export interface ResetOffsetsOptions {
  readonly port: Pick<FetchPort, 'listOffsets'>
  readonly isolationLevel: IsolationLevel
  readonly policy: (tp: TopicPartition) => AutoOffsetReset
  readonly offsetsForTimes?:
    | ((partitions: readonly TopicPartitionTimestamp[], isolationLevel: IsolationLevel) => Promise<Map<string, number>>)
    | undefined
  readonly nowMs: number
}

/** The start offset of each partition, keyed by `topic-partition`, or the fatal error. */
export async function resetOffsets(
  partitions: readonly PartitionToReset[],
  o: ResetOffsetsOptions
): Promise<{ readonly offsets: Map<string, number> } | { readonly fatal: StreamsError }> {
  const none = partitions.find(p => o.policy(p) === 'none')
  if (none !== undefined) {
    return {
      fatal: new StreamsError(
        'KAFKA',
        `No valid committed offset found for input topic ${none.topic} (partition ${none.partition})${none.outOfRange === undefined ? '' : ` (offset ${none.outOfRange} is out of range)`} and no valid reset policy configured: set autoOffsetReset or a reset policy on the source`
      )
    }
  }
  const offsets = new Map<string, number>()
  const byDuration: TopicPartitionTimestamp[] = []
  for (const p of partitions) {
    const policy = o.policy(p)
    if (typeof policy === 'object')
      byDuration.push({ topic: p.topic, partition: p.partition, timestamp: Math.max(0, o.nowMs - policy.durationMs) })
  }
  const toEnd = new Set<string>()
  if (byDuration.length > 0) {
    if (o.offsetsForTimes === undefined) {
      const first = byDuration[0]!
      return {
        fatal: new StreamsError(
          'KAFKA',
          `Cannot reset input topic ${first.topic} (partition ${first.partition}) ${describeOffsetReset(o.policy(first))}: the Kafka client adapter cannot look offsets up by timestamp (AdminPort.offsetsForTimes)`
        )
      }
    }
    const found = await o.offsetsForTimes(byDuration, o.isolationLevel)
    for (const tp of byDuration) {
      const key = tpKey(tp.topic, tp.partition)
      const offset = found.get(key)
      if (offset === undefined) toEnd.add(key)
      else offsets.set(key, offset)
    }
  }
  for (const spec of ['earliest', 'latest'] as const) {
    const list = partitions.filter(p => o.policy(p) === spec || (spec === 'latest' && toEnd.has(tpKey(p.topic, p.partition))))
    if (list.length > 0) for (const [k, v] of await o.port.listOffsets(list, spec, o.isolationLevel)) offsets.set(k, v)
  }
  return { offsets }
}
