/**
 * Where a fetched partition's next fetch starts: past the end of the last record batch the
 * response covered (Java's `batch.nextOffset()`), which skips transaction markers, aborted data,
 * offsets removed by compaction and record batches compaction emptied. kafkajs' decoder returns
 * records only, so a batch without records (compaction keeps empty batches to remember a
 * producer's sequence) would be invisible and a reader positioned on one would never move:
 * `recordBatchEnds` reads the batch headers straight from the raw Fetch response.
 */
import { tpKey } from '@kstreams/core'
import { readFetchPartitions, recordBatches } from './fetch-partitions.js'
import type { RawMessage } from './kafkajs-internals.js'

/** + magic (1), crc (4), attributes (2): last_offset_delta (int32), in record batches (magic 2). */
const LAST_OFFSET_DELTA_AT = 23
const MAGIC_AT = 16

/**
 * The end (last offset + 1) of the last complete record batch of every partition in a raw Fetch
 * response body (after the correlation id), keyed by `topic-partition`; partitions without a
 * complete batch are absent. Versions 4 to 11 (the ones kafkajs can send to a Kafka 4 broker);
 * an empty map for others. A legacy message set entry (magic 0 or 1) ends at its offset + 1.
 */
export function recordBatchEnds(raw: Buffer, apiVersion: number): Map<string, number> {
  const ends = new Map<string, number>()
  try {
    for (const { topic, partition, records } of readFetchPartitions(raw, apiVersion).partitions) {
      const end = records === null ? undefined : lastBatchEnd(records)
      if (end !== undefined) ends.set(tpKey(topic, partition), end)
    }
  } catch {
    // A response this reader does not understand: none of it is trusted; the records' own batch
    // offsets (nextOffsetAfter) still move the position.
    ends.clear()
  }
  return ends
}

/**
 * Where the next fetch starts after these raw (unfiltered) records: past the end of the last
 * record batch they came from; the fetch offset when nothing came back.
 */
export function nextOffsetAfter(rawMessages: readonly RawMessage[], fetchedOffset: number): number {
  let next = fetchedOffset
  for (const message of rawMessages) {
    const context = message.batchContext
    const end = context === undefined ? Number(message.offset) + 1 : Number(context.firstOffset) + context.lastOffsetDelta + 1
    if (end > next) next = end
  }
  return next
}

function lastBatchEnd(records: Buffer): number | undefined {
  const last = recordBatches(records).at(-1)
  if (last === undefined) return undefined
  const baseOffset = Number(last.readBigInt64BE(0))
  return last.length > MAGIC_AT && last.readInt8(MAGIC_AT) === 2 && last.length >= LAST_OFFSET_DELTA_AT + 4
    ? baseOffset + last.readInt32BE(LAST_OFFSET_DELTA_AT) + 1
    : baseOffset + 1
}
