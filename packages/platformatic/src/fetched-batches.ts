/**
 * Turns one partition of a Fetch answer (record batches as platformatic decodes them) into a
 * FetchedBatch, the way Java's fetcher does: under READ_COMMITTED the aborted transactions the
 * broker lists are applied batch by batch (a producer's batches are dropped from its aborted
 * transaction's first offset until its abort marker, across the whole answer), control batches
 * never become records, records below the fetch offset (inside the first batch) are left out,
 * and the next offset is past the last batch the answer carried, whatever was dropped.
 */
import type { FetchedBatch, FetchedRecord } from '@kstreams/core'
import { Headers } from '@kstreams/core'
import type { fetchV12 } from '@platformatic/kafka'

type FetchResponsePartition = fetchV12.FetchResponsePartition
type RecordsBatch = NonNullable<FetchResponsePartition['records']>[number]

const TIMESTAMP_LOG_APPEND_TIME = 0x08
const TRANSACTIONAL = 0x10
const CONTROL = 0x20
/** The type in a control record's key (version int16, type int16). */
const ABORT_MARKER = 0

export function toFetchedBatch(topic: string, fetchOffset: number, data: FetchResponsePartition, readCommitted: boolean): FetchedBatch {
  const aborted = readCommitted
    ? [...(data.abortedTransactions ?? [])].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
    : []
  const abortedProducers = new Set<bigint>()
  let nextAborted = 0
  let nextOffset = fetchOffset
  const records: FetchedRecord[] = []
  const start = BigInt(fetchOffset)
  for (const batch of data.records ?? []) {
    const lastOffset = batch.firstOffset + BigInt(batch.lastOffsetDelta)
    nextOffset = Math.max(nextOffset, Number(lastOffset) + 1)
    const transactional = (batch.attributes & TRANSACTIONAL) !== 0
    const control = (batch.attributes & CONTROL) !== 0
    if (readCommitted && batch.producerId >= 0n) {
      while (nextAborted < aborted.length && aborted[nextAborted]!.firstOffset <= lastOffset)
        abortedProducers.add(aborted[nextAborted++]!.producerId)
      if (control && isAbortMarker(batch)) abortedProducers.delete(batch.producerId)
      else if (transactional && abortedProducers.has(batch.producerId)) continue
    }
    if (control) continue
    const logAppendTime = (batch.attributes & TIMESTAMP_LOG_APPEND_TIME) !== 0
    for (const record of batch.records) {
      const offset = batch.firstOffset + BigInt(record.offsetDelta)
      if (offset < start) continue
      records.push({
        topic,
        partition: data.partitionIndex,
        offset: Number(offset),
        timestamp: Number(logAppendTime ? batch.maxTimestamp : batch.firstTimestamp + record.timestampDelta),
        key: record.key,
        value: record.value,
        headers: toHeaders(record.headers)
      })
    }
  }
  const lastStable = Number(data.lastStableOffset)
  return {
    topic,
    partition: data.partitionIndex,
    records,
    highWatermark: readCommitted && lastStable >= 0 ? lastStable : Number(data.highWatermark),
    nextOffset,
    logStartOffset: Number(data.logStartOffset)
  }
}

function isAbortMarker(batch: RecordsBatch): boolean {
  const key = batch.records[0]?.key
  return key !== null && key !== undefined && key.length >= 4 && key.readInt16BE(2) === ABORT_MARKER
}

function toHeaders(headers: ReadonlyArray<[Buffer | null, Buffer | null]>): Headers {
  const result = new Headers()
  for (const [key, value] of headers) result.add(key === null ? '' : key.toString('utf8'), value)
  return result
}
