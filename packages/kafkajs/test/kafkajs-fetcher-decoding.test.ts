/**
 * The fetch path without a broker: Fetch v11 responses built byte by byte, decoded by kafkajs'
 * real decoder through the port. Positions past record batches compaction emptied (invisible to
 * kafkajs' decoder), per-partition errors next to data, partitions nobody asked for, a
 * response-level error, and record batches kafkajs cannot decode (no codec registered, corrupt
 * compressed bytes): they fail their own partition with a RecordBatchDecodeError, after the
 * records before them, and the other partitions of the response come back as usual.
 */
import { createRequire } from 'node:module'
import { expect } from 'chai'
import kafkajsModule, { CompressionTypes } from 'kafkajs'
import {
  decodedRecords,
  isKafkaError,
  isPartitionError,
  RecordBatchDecodeError,
  type FetchedBatch,
  type PartitionError
} from '@kstreams/core'
import { registerKafkajsCodecs } from '../src/kafkajs-codecs.js'
import { resolveKafkajsConfig } from '../src/kafkajs-client-config.js'
import { KafkajsFetcher } from '../src/kafkajs-fetcher.js'
import { KafkajsInternals, type InternalBroker, type InternalCluster, type RawMessage } from '../src/kafkajs-internals.js'
import { nextOffsetAfter, recordBatchEnds } from '../src/record-batch-ends.js'
import { brokerAnswering, fetchResponseV11, recordBatch } from './fetch-response-fixture.js'
import { RecordingLogger, rejectionOf, testSettings } from '../../../tests/adapter-contract/contract-env.js'

const { CompressionCodecs } = kafkajsModule

const require = createRequire(import.meta.url)
const { KafkaJSNotImplemented } = require('kafkajs/src/errors.js') as { KafkaJSNotImplemented: new (message: string) => Error }
const codecs = CompressionCodecs as unknown as Record<number, () => unknown>
const decodeV11 = (
  require('kafkajs/src/protocol/requests/fetch/v11/response.js') as {
    decode: (raw: Buffer) => Promise<{ responses: Array<{ partitions: Array<{ messages: RawMessage[] }> }> }>
  }
).decode

function clusterWith(broker: InternalBroker): InternalCluster {
  return {
    connect: async () => {},
    disconnect: async () => {},
    refreshMetadata: async () => {},
    refreshMetadataIfNecessary: async () => {},
    findBroker: async () => broker,
    findGroupCoordinator: async () => broker,
    brokerPool: { findConnectedBroker: async () => broker }
  }
}

describe('kafkajs fetch decoding (no broker)', () => {
  const internals = KafkajsInternals.load(new RecordingLogger())

  describe('recordBatchEnds', () => {
    it('ends past the last record batch, an empty one (compacted) included, where kafkajs sees only records', async () => {
      const records = Buffer.concat([await recordBatch(10, 2, ['a', 'b', 'c']), await recordBatch(13, 4, [])])
      const body = fetchResponseV11('orders', [
        { partition: 0, highWatermark: 20, records },
        { partition: 1, errorCode: 1 }
      ])
      const decoded = await decodeV11(body)
      const messages = decoded.responses[0]!.partitions[0]!.messages
      expect(messages.map(m => m.offset)).to.deep.equal(['10', '11', '12'])
      expect(nextOffsetAfter(messages, 10)).to.equal(13)
      expect([...recordBatchEnds(body, 11)]).to.deep.equal([['orders-0', 18]])
    })

    it('ignores a partial record batch at the tail (max bytes cut it)', async () => {
      const whole = await recordBatch(0, 1, ['x', 'y'])
      const partial = (await recordBatch(2, 0, ['z'])).subarray(0, 30)
      const body = fetchResponseV11('t', [{ partition: 3, records: Buffer.concat([whole, partial]) }])
      expect([...recordBatchEnds(body, 11)]).to.deep.equal([['t-3', 2]])
    })

    it('trusts nothing of a response it cannot read, and reads only versions 4 to 11', async () => {
      const body = fetchResponseV11('t', [{ partition: 0, records: await recordBatch(0, 0, ['x']) }])
      expect(recordBatchEnds(body.subarray(0, body.length - 20), 11).size).to.equal(0)
      expect(recordBatchEnds(Buffer.from([1, 2, 3]), 11).size).to.equal(0)
      expect(recordBatchEnds(body, 12).size).to.equal(0)
      expect(recordBatchEnds(body, 3).size).to.equal(0)
    })
  })

  describe('KafkajsFetcher.fetch on a stand-in broker', () => {
    const fetcherAnswering = (body: Buffer): KafkajsFetcher =>
      new KafkajsFetcher({
        cluster: clusterWith(brokerAnswering(() => body)),
        internals,
        config: resolveKafkajsConfig(testSettings()),
        clientId: 'unit'
      })
    const request = { node: 1, isolationLevel: 'READ_UNCOMMITTED' as const, maxWaitMs: 10, maxBytes: 1000, maxPartitionBytes: 1000 }

    it('returns each partition on its own: a batch past an emptied record batch, a PartitionError, nothing for partitions not asked for', async () => {
      const records = Buffer.concat([await recordBatch(10, 2, ['a', 'b', 'c']), await recordBatch(13, 4, [])])
      const body = fetchResponseV11('orders', [
        { partition: 0, highWatermark: 20, lastStableOffset: 19, logStartOffset: 4, records },
        { partition: 1, errorCode: 1, highWatermark: -1 },
        { partition: 2, errorCode: 6 },
        { partition: 9, highWatermark: 1, records: await recordBatch(0, 0, ['stray']) }
      ])
      const fetcher = fetcherAnswering(body)
      const answer = await fetcher.fetch({
        ...request,
        partitions: [0, 1, 2].map(partition => ({ topic: 'orders', partition, offset: partition === 0 ? 11 : 5 }))
      })
      expect(answer.map(x => x.partition)).to.deep.equal([0, 1, 2])

      const batch = answer[0] as FetchedBatch
      expect(batch.records).to.deep.equal([]) // converted as the polls take them
      expect(decodedRecords(batch).map(r => [r.offset, r.value?.toString()])).to.deep.equal([
        [11, 'b'],
        [12, 'c']
      ])
      expect(batch).to.deep.include({ topic: 'orders', partition: 0, nextOffset: 18, highWatermark: 20, logStartOffset: 4 })

      const outOfRange = answer[1] as PartitionError
      expect(isPartitionError(outOfRange)).to.equal(true)
      expect(isKafkaError(outOfRange.error, 'OFFSET_OUT_OF_RANGE')).to.equal(true)
      expect(outOfRange.error.message).to.include('orders-1').and.include('offset 5')
      expect(outOfRange.error.cause).to.have.property('name', 'KafkaJSProtocolError')
      expect(isKafkaError((answer[2] as PartitionError).error, 'NOT_LEADER_OR_FOLLOWER')).to.equal(true)
      await fetcher.close()
    })

    it('reports the last stable offset as the end under READ_COMMITTED', async () => {
      const body = fetchResponseV11('orders', [
        { partition: 0, highWatermark: 20, lastStableOffset: 15, records: await recordBatch(10, 0, ['a']) }
      ])
      const fetcher = fetcherAnswering(body)
      const [batch] = await fetcher.fetch({
        ...request,
        isolationLevel: 'READ_COMMITTED',
        partitions: [{ topic: 'orders', partition: 0, offset: 10 }]
      })
      expect(batch).to.deep.include({ highWatermark: 15, nextOffset: 11 })
      await fetcher.close()
    })

    /** Every record of `batch`, or the RecordBatchDecodeError its polls fail with. */
    const decodeError = (batch: FetchedBatch): RecordBatchDecodeError => {
      try {
        decodedRecords(batch)
      } catch (error) {
        expect(error).to.be.instanceOf(RecordBatchDecodeError)
        return error as RecordBatchDecodeError
      }
      throw new Error('the records were decoded')
    }

    it('a batch whose codec kafkajs has none for: the records before it, then a RecordBatchDecodeError naming it; other partitions as usual', async () => {
      registerKafkajsCodecs()
      const lz4 = await recordBatch(12, 2, ['c', 'd', 'e'], CompressionTypes.LZ4)
      const records = Buffer.concat([await recordBatch(10, 1, ['a', 'b']), lz4, await recordBatch(15, 0, ['f'])])
      const body = fetchResponseV11('orders', [
        { partition: 0, highWatermark: 16, records },
        { partition: 1, highWatermark: 1, records: await recordBatch(0, 0, ['other']) }
      ])
      const ours = codecs[CompressionTypes.LZ4]!
      // kafkajs' own placeholder for a codec nobody registered.
      codecs[CompressionTypes.LZ4] = () => {
        throw new KafkaJSNotImplemented('LZ4 compression not implemented')
      }
      try {
        const fetcher = fetcherAnswering(body)
        const partitions = [
          { topic: 'orders', partition: 0, offset: 10 },
          { topic: 'orders', partition: 1, offset: 0 }
        ]
        const [first, other] = (await fetcher.fetch({ ...request, partitions })) as FetchedBatch[]
        expect(decodedRecords(first!).map(r => [r.offset, r.value?.toString()])).to.deep.equal([
          [10, 'a'],
          [11, 'b']
        ])
        expect(first!.nextOffset).to.equal(12)
        expect(decodedRecords(other!).map(r => r.value?.toString())).to.deep.equal(['other'])
        expect(other!.nextOffset).to.equal(1)

        const [atBatch] = (await fetcher.fetch({
          ...request,
          partitions: [{ topic: 'orders', partition: 0, offset: 13 }]
        })) as FetchedBatch[]
        expect(atBatch!.nextOffset).to.equal(13)
        const error = decodeError(atBatch!)
        expect(error).to.include({ code: 'KAFKA', topic: 'orders', partition: 0, offset: 12, codec: 'lz4' })
        expect(error.message).to.include('orders-0').and.include('offset 12').and.include('lz4').and.include('not implemented')
        expect(decodeError(atBatch!)).to.equal(error)
        await fetcher.close()
      } finally {
        codecs[CompressionTypes.LZ4] = ours
      }
    })

    it('a compressed batch whose bytes are corrupt fails its partition the same way', async () => {
      const gzip = await recordBatch(0, 1, ['x', 'y'], CompressionTypes.GZIP)
      gzip[61] = gzip[61]! ^ 0xff // the gzip magic
      const fetcher = fetcherAnswering(fetchResponseV11('t', [{ partition: 2, highWatermark: 2, records: gzip }]))
      const [batch] = (await fetcher.fetch({ ...request, partitions: [{ topic: 't', partition: 2, offset: 0 }] })) as FetchedBatch[]
      expect(decodeError(batch!)).to.include({ topic: 't', partition: 2, offset: 0, codec: 'gzip' })
      await fetcher.close()
    })

    it('rejects the whole call with what kafkajs threw when the response cannot be read either way', async () => {
      // One topic whose name is said to be 99 bytes long, and nothing after.
      const fetcher = fetcherAnswering(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 99]))
      const error = await rejectionOf(fetcher.fetch({ ...request, partitions: [{ topic: 't', partition: 0, offset: 0 }] }))
      expect(error).to.not.be.instanceOf(RecordBatchDecodeError)
      expect((error as Error).cause)
        .to.be.instanceOf(RangeError)
        .with.property('message')
        .that.includes('offset')
      await fetcher.close()
    })

    it('rejects the whole call for a response-level error', async () => {
      const fetcher = fetcherAnswering(fetchResponseV11('orders', [], 70)) // FETCH_SESSION_ID_NOT_FOUND
      const error = await rejectionOf(fetcher.fetch({ ...request, partitions: [{ topic: 'orders', partition: 0, offset: 0 }] }))
      expect((error as { errorName?: string }).errorName).to.equal('FETCH_SESSION_ID_NOT_FOUND')
      expect((error as { errorCode?: number }).errorCode).to.equal(70)
      await fetcher.close()
    })
  })
})
