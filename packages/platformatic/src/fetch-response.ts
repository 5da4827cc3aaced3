/**
 * Fetch v12 with an answer decoded our way: every field as platformatic's fetchV12 reads it,
 * except that each partition's records stay the bytes the broker sent (one Buffer), for
 * fetched-batches.ts to turn into records in one pass. platformatic's own decoder builds an
 * object per record batch and per record, with BigInt timestamps, before kstreams builds its
 * own records from them; this is the read path of every input, changelog and restore record.
 * Partition errors are left in the answer (not thrown), for the fetcher to name.
 */
import { createAPI, fetchV12, type Reader } from '@platformatic/kafka'

/** An aborted transaction the broker lists for a READ_COMMITTED fetch. */
export interface AbortedTransaction {
  readonly producerId: bigint
  readonly firstOffset: bigint
}

/** One partition of a Fetch answer. */
export interface FetchedPartition {
  readonly partitionIndex: number
  readonly errorCode: number
  readonly highWatermark: bigint
  readonly lastStableOffset: bigint
  readonly logStartOffset: bigint
  readonly abortedTransactions: readonly AbortedTransaction[] | null
  /** The record batches as sent (the last one may be cut short); null or empty for none. */
  readonly records: Buffer | null
}

export interface FetchAnswer {
  readonly errorCode: number
  readonly responses: ReadonlyArray<{ readonly topic: string; readonly partitions: readonly FetchedPartition[] }>
}

function parseResponse(_correlationId: number, _apiKey: number, _apiVersion: number, reader: Reader): FetchAnswer {
  reader.readInt32() // throttle_time_ms
  const errorCode = reader.readInt16()
  reader.readInt32() // session_id
  const responses = reader.readArray(r => ({
    topic: r.readString(),
    partitions: r.readArray(
      (r): FetchedPartition => {
        const partitionIndex = r.readInt32()
        const errorCode = r.readInt16()
        const highWatermark = r.readInt64()
        const lastStableOffset = r.readInt64()
        const logStartOffset = r.readInt64()
        const abortedTransactions = r.readNullableArray(r => ({ producerId: r.readInt64(), firstOffset: r.readInt64() }))
        r.readInt32() // preferred_read_replica
        const size = r.readUnsignedVarInt() - 1
        let records: Buffer | null = null
        if (size > 0) {
          records = r.buffer.slice(r.position, r.position + size)
          r.skip(size)
        }
        // Tagged fields: diverging epoch, current leader, snapshot id (not used).
        r.readTaggedFields()
        return { partitionIndex, errorCode, highWatermark, lastStableOffset, logStartOffset, abortedTransactions, records }
      },
      true,
      false
    )
  }))
  reader.readTaggedFields()
  return { errorCode, responses }
}

type FetchArgs = Parameters<typeof fetchV12.createRequest>

/** Fetch v12: platformatic's request, our answer (above). */
export const fetchRecords = createAPI<FetchArgs, FetchAnswer>(fetchV12.api.key, fetchV12.api.version, fetchV12.createRequest, parseResponse)
