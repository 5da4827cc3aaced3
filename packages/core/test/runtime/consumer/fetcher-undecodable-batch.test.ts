/**
 * A fetched batch the client cannot decode (its adapter's decoder throws a RecordBatchDecodeError)
 * fails the consumer's poll with that error as it is, naming the codec, the partition and the
 * offset, after what the same poll already has went out; the position stays on the batch, so
 * every later poll fails the same way. Other decoding failures stay wrapped, naming the partition.
 */
import { expect } from 'chai'
import { silentLogger } from '../../../src/logger.js'
import { StreamsError } from '../../../src/errors.js'
import { Headers } from '../../../src/record.js'
import { Fetcher } from '../../../src/runtime/consumer/fetcher.js'
import { RecordBatchDecodeError } from '../../../src/runtime/kafka/record-batch-decode-error.js'
import type { FetchedBatch, FetchPort, FetchRequest } from '../../../src/runtime/kafka/ports.js'

/** A port whose one leader is node 1 and whose fetches answer `answer(request)`. */
function port(answer: (request: FetchRequest) => FetchedBatch[]): FetchPort {
  return {
    leaders: async partitions => new Map(partitions.map(p => [`${p.topic}-${p.partition}`, 1])),
    fetch: async request => answer(request),
    listOffsets: async () => new Map(),
    close: async () => {}
  }
}

const fetcherOn = (fetchPort: FetchPort): Fetcher =>
  new Fetcher({
    port: fetchPort,
    clientId: 'unit',
    isolationLevel: 'READ_UNCOMMITTED',
    maxWaitMs: 10,
    maxBytes: 1000,
    maxPartitionBytes: 1000,
    retryBackoffMs: 10,
    resetPolicy: () => 'earliest',
    logger: silentLogger
  })

const record = (partition: number, offset: number) => ({
  topic: 't',
  partition,
  offset,
  timestamp: 0,
  key: null,
  value: Buffer.from(`v${offset}`),
  headers: new Headers()
})

/** Polls until one throws (or `max` polls came back); the records handed out before and the error. */
async function pollUntilFailure(fetcher: Fetcher, max = 50): Promise<{ offsets: string[]; error: unknown }> {
  const offsets: string[] = []
  for (let i = 0; i < max; i++) {
    try {
      for (const b of await fetcher.poll(20)) for (const r of b.records) offsets.push(`${r.partition}:${r.offset}`)
    } catch (error) {
      return { offsets, error }
    }
  }
  return { offsets, error: undefined }
}

describe('Fetcher: a batch the client cannot decode', () => {
  it('fails the poll with the RecordBatchDecodeError itself, after the records before it, and again at every poll', async () => {
    const undecodable = new RecordBatchDecodeError({ topic: 't', partition: 0, offset: 2, attributes: 3, cause: new Error('no lz4 codec') })
    const fetcher = fetcherOn(
      port(request =>
        request.partitions.map(p => {
          const common = { topic: 't', partition: p.partition, highWatermark: 10, logStartOffset: 0 }
          if (p.partition === 1 || p.offset === 0) {
            // Partition 1 is fine; partition 0 has two records, then the batch at offset 2.
            const records = p.partition === 1 ? [record(1, p.offset)] : [record(0, 0), record(0, 1)]
            return { ...common, records, nextOffset: p.offset + records.length }
          }
          return {
            ...common,
            records: [],
            undecoded: {
              next: () => {
                throw undecodable
              }
            },
            nextOffset: p.offset
          }
        })
      )
    )
    fetcher.assign([
      { topic: 't', partition: 0, offset: 0 },
      { topic: 't', partition: 1, offset: 0 }
    ])
    const { offsets, error } = await pollUntilFailure(fetcher)
    expect(error).to.equal(undecodable)
    expect(error).to.include({ code: 'KAFKA', topic: 't', partition: 0, offset: 2, codec: 'lz4' })
    expect(offsets).to.include.members(['0:0', '0:1'])
    expect(offsets.filter(o => o.startsWith('0:'))).to.deep.equal(['0:0', '0:1'])
    expect(fetcher.position({ topic: 't', partition: 0 })).to.equal(2)
    expect((await pollUntilFailure(fetcher)).error).to.equal(undecodable)
    await fetcher.close()
  })

  it('wraps any other decoding failure, naming the partition and the offset', async () => {
    const fetcher = fetcherOn(
      port(request =>
        request.partitions.map(p => ({
          topic: 't',
          partition: p.partition,
          records: [],
          undecoded: {
            next: () => {
              throw new RangeError('garbage')
            }
          },
          highWatermark: 10,
          nextOffset: p.offset,
          logStartOffset: 0
        }))
      )
    )
    fetcher.assign([{ topic: 't', partition: 0, offset: 5 }])
    const { error } = await pollUntilFailure(fetcher)
    expect(error).to.be.instanceOf(StreamsError).and.not.be.instanceOf(RecordBatchDecodeError)
    expect((error as Error).message)
      .to.include('t-0')
      .and.include('offset 5')
    expect((error as Error).cause).to.be.instanceOf(RangeError)
    await fetcher.close()
  })
})
