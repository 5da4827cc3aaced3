/**
 * Fetch v11 response bodies built byte by byte (record batches encoded by kafkajs' own record
 * batch encoder), and a stand-in kafkajs broker that answers a Fetch with such a body through
 * kafkajs' real request definitions: the decode-only fetch path without a broker.
 */
import { createRequire } from 'node:module'
import type { InternalBroker } from '../src/kafkajs-internals.js'

const require = createRequire(import.meta.url)
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
  RecordBatch: (options: Record<string, unknown>) => Promise<{ buffer: Buffer }>
}
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (options: Record<string, unknown>) => unknown
const { lookup } = require('kafkajs/src/protocol/requests/index.js') as {
  lookup: (versions: Record<number, { minVersion: number; maxVersion: number }>) => InternalBroker['lookupRequest']
}
const Broker = require('kafkajs/src/broker/index.js') as { prototype: object }

/**
 * A record batch at `firstOffset` spanning `lastOffsetDelta + 1` offsets, with the given values (at
 * offset deltas 0, 1, ...), none for an empty batch; compressed by kafkajs' codec of `compression`.
 */
export async function recordBatch(
  firstOffset: number,
  lastOffsetDelta: number,
  values: readonly string[],
  compression = 0
): Promise<Buffer> {
  const records = values.map((value, i) => Record({ offsetDelta: i, key: null, value: Buffer.from(value) }))
  const encoded = await RecordBatch({
    compression,
    firstOffset: String(firstOffset),
    lastOffsetDelta,
    firstTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_000,
    records
  })
  return encoded.buffer
}

export interface PartitionFixture {
  readonly partition: number
  readonly errorCode?: number
  readonly highWatermark?: number
  readonly lastStableOffset?: number
  readonly logStartOffset?: number
  /** Concatenated record batches; undefined for a null record set. */
  readonly records?: Buffer
}

/** A Fetch v11 response body (after the correlation id) of one topic. */
export function fetchResponseV11(topic: string, partitions: readonly PartitionFixture[], errorCode = 0): Buffer {
  const parts: Buffer[] = [int32(0), int16(errorCode), int32(0), int32(1), string(topic), int32(partitions.length)]
  for (const p of partitions) {
    parts.push(
      int32(p.partition),
      int16(p.errorCode ?? 0),
      int64(p.highWatermark ?? 0),
      int64(p.lastStableOffset ?? p.highWatermark ?? 0),
      int64(p.logStartOffset ?? 0),
      int32(-1), // aborted_transactions: null
      int32(-1), // preferred_read_replica
      p.records === undefined ? int32(-1) : Buffer.concat([int32(p.records.length), p.records])
    )
  }
  return Buffer.concat(parts)
}

/** A kafkajs broker stand-in: real request definitions (Fetch up to v11), answering every request with `body`. */
export function brokerAnswering(body: () => Buffer, nodeId = 1): InternalBroker {
  const sendSymbol = Object.getOwnPropertySymbols(Broker.prototype).find(s => s.description === 'private:Broker:sendRequest')!
  const broker = {
    nodeId,
    lookupRequest: lookup({ 1: { minVersion: 4, maxVersion: 11 } }),
    offsetCommit: async () => {
      throw new Error('not used')
    },
    offsetFetch: async () => {
      throw new Error('not used')
    },
    listOffsets: async () => {
      throw new Error('not used')
    },
    [sendSymbol]: async (request: { response: { decode: (raw: Buffer) => Promise<unknown>; parse: (d: unknown) => Promise<unknown> } }) =>
      await request.response.parse(await request.response.decode(body()))
  }
  return broker as unknown as InternalBroker
}

function int16(value: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeInt16BE(value)
  return b
}
function int32(value: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(value)
  return b
}
function int64(value: number): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(BigInt(value))
  return b
}
function string(value: string): Buffer {
  const bytes = Buffer.from(value)
  return Buffer.concat([int16(bytes.length), bytes])
}
