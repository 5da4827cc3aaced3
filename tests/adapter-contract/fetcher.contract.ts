/**
 * FetchPort contract against a real broker: leaders, one Fetch from explicit offsets (records,
 * positions, log start), a partition out of range answered as a PartitionError while another
 * partition of the same request brings its records, transactions under both isolation levels
 * (aborted records hidden, positions past markers, the last stable offset as the end),
 * ListOffsets, and the request-level failures.
 */
import { expect } from 'chai'
import {
  decodedRecords,
  isKafkaError,
  isPartitionError,
  tpKey,
  type FetchedBatch,
  type FetchRequest,
  type IsolationLevel,
  type PartitionError,
  type TopicPartitionOffset
} from '@kstreams/core'
import type { AdapterUnderTest } from './adapter-under-test.js'
import {
  clientsPerTest,
  createTopic,
  describeWithBroker,
  record,
  rejectionOf,
  testSettings,
  uniqueName,
  waitForEnd
} from './contract-env.js'

const values = (batch: FetchedBatch | PartitionError | undefined): string[] =>
  batch === undefined || isPartitionError(batch) ? [] : batch.records.map(r => r.value?.toString() ?? 'null')

export function fetcherContract(adapter: AdapterUnderTest): void {
  describeWithBroker(`${adapter.name} FetchPort (broker)`, function () {
    this.timeout(60_000)
    const clients = clientsPerTest(() => adapter.client(testSettings()))

    /** One Fetch of `partitions` from their leader. */
    async function fetchOnce(
      partitions: TopicPartitionOffset[],
      isolationLevel: IsolationLevel = 'READ_UNCOMMITTED',
      overrides: Partial<FetchRequest> = {}
    ): Promise<Map<string, FetchedBatch | PartitionError>> {
      const leaders = await clients().fetcher.leaders(partitions, false)
      const nodes = new Set(partitions.map(tp => leaders.get(tpKey(tp.topic, tp.partition))))
      expect(nodes.size).to.equal(1)
      const node = [...nodes][0]!
      const answer = await clients().fetcher.fetch({
        node,
        partitions,
        isolationLevel,
        maxWaitMs: 100,
        maxBytes: 1_048_576,
        maxPartitionBytes: 1_048_576,
        ...overrides
      })
      // Every record decoded (an adapter may leave them to the consumer's polls).
      return new Map(
        answer.map(x => [tpKey(x.topic, x.partition), isPartitionError(x) ? x : { ...x, records: decodedRecords(x), undecoded: undefined }])
      )
    }

    /** Fetches from `offset` until the position reaches the partition's end; all batches in order. */
    async function readToEnd(topic: string, partition: number, offset: number, isolationLevel: IsolationLevel): Promise<FetchedBatch[]> {
      const batches: FetchedBatch[] = []
      for (let i = 0; i < 30; i++) {
        const batch = (await fetchOnce([{ topic, partition, offset }], isolationLevel)).get(tpKey(topic, partition))
        if (batch === undefined || isPartitionError(batch))
          throw new Error(`no batch: ${String(batch === undefined ? 'absent' : batch.error)}`)
        batches.push(batch)
        offset = batch.nextOffset
        if (offset >= batch.highWatermark) return batches
      }
      throw new Error('did not reach the end')
    }

    it('finds the leader of each partition; unknown topics and partitions are absent', async () => {
      const topic = await createTopic(clients().admin, 2)
      const missing = uniqueName('kst-missing')
      const tps = [
        { topic, partition: 0 },
        { topic, partition: 1 },
        { topic, partition: 5 },
        { topic: missing, partition: 0 }
      ]
      const leaders = await clients().fetcher.leaders(tps, false)
      expect([...leaders.keys()].sort()).to.deep.equal([`${topic}-0`, `${topic}-1`])
      for (const node of leaders.values()) expect(node).to.be.a('number').and.at.least(0)
      expect([...(await clients().fetcher.leaders(tps, true))]).to.deep.equal([...leaders])
      expect((await clients().fetcher.leaders([], true)).size).to.equal(0)
    })

    it('fetches from explicit offsets: records, next offset, high watermark and log start offset', async () => {
      const topic = await createTopic(clients().admin, 2)
      await clients()
        .producer()
        .send([0, 1, 2, 3, 4].map(i => record(topic, 0, `a${i}`, `k${i}`)).concat([record(topic, 1, 'b0')]))
      const answer = await fetchOnce([
        { topic, partition: 0, offset: 2 },
        { topic, partition: 1, offset: 0 }
      ])
      const p0 = answer.get(`${topic}-0`) as FetchedBatch
      expect(values(p0)).to.deep.equal(['a2', 'a3', 'a4'])
      expect(p0.records[0]).to.deep.include({ topic, partition: 0, offset: 2, timestamp: 1_700_000_000_000 })
      expect(p0.records[0]!.key?.toString()).to.equal('k2')
      expect(p0).to.deep.include({ nextOffset: 5, highWatermark: 5, logStartOffset: 0 })
      expect(values(answer.get(`${topic}-1`))).to.deep.equal(['b0'])

      // At the end: no records, the position stays.
      const idle = (await fetchOnce([{ topic, partition: 0, offset: 5 }])).get(`${topic}-0`) as FetchedBatch
      expect(idle).to.deep.include({ records: [], nextOffset: 5, highWatermark: 5 })

      // After records were deleted, the log start offset moves.
      await clients().admin.deleteRecords([{ topic, partition: 0, offset: 3 }])
      expect((await fetchOnce([{ topic, partition: 0, offset: 3 }])).get(`${topic}-0`)).to.deep.include({ logStartOffset: 3 })
    })

    it('answers OFFSET_OUT_OF_RANGE as a PartitionError while another partition of the same Fetch brings its records', async () => {
      const topic = await createTopic(clients().admin, 3)
      await clients()
        .producer()
        .send([record(topic, 0, 'x0'), record(topic, 0, 'x1'), record(topic, 1, 'y0'), record(topic, 1, 'y1'), record(topic, 2, 'z0')])
      const answer = await fetchOnce([
        { topic, partition: 0, offset: 100 },
        { topic, partition: 1, offset: 1 },
        { topic, partition: 2, offset: 0 }
      ])
      const error = answer.get(`${topic}-0`)
      expect(error !== undefined && isPartitionError(error)).to.equal(true)
      expect(isKafkaError((error as PartitionError).error, 'OFFSET_OUT_OF_RANGE')).to.equal(true)
      expect((error as PartitionError).error.errorCode).to.equal(1)
      expect(values(answer.get(`${topic}-1`))).to.deep.equal(['y1'])
      expect(values(answer.get(`${topic}-2`))).to.deep.equal(['z0'])
    })

    it('hides aborted records and markers under READ_COMMITTED, moves past them, and reports the last stable offset', async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      await tx.begin()
      await producer.send([record(topic, 0, 'c0'), record(topic, 0, 'c1')])
      await tx.commit() // 0,1 + marker 2
      await tx.begin()
      await producer.send([record(topic, 0, 'x0'), record(topic, 0, 'x1')])
      await tx.abort() // 3,4 + marker 5
      await tx.begin()
      await producer.send([record(topic, 0, 'c2')])
      await tx.commit() // 6 + marker 7
      await waitForEnd(clients().admin, topic, 0, 8)

      const committed = await readToEnd(topic, 0, 0, 'READ_COMMITTED')
      expect(committed.flatMap(b => values(b))).to.deep.equal(['c0', 'c1', 'c2'])
      expect(committed.flatMap(b => b.records.map(r => r.offset))).to.deep.equal([0, 1, 6])
      expect(committed.at(-1)).to.deep.include({ nextOffset: 8, highWatermark: 8 })

      // A fetch that ends inside the aborted transaction (its marker in a later answer) shows none of it either.
      const small = (await fetchOnce([{ topic, partition: 0, offset: 3 }], 'READ_COMMITTED', { maxPartitionBytes: 1 })).get(
        `${topic}-0`
      ) as FetchedBatch
      expect(values(small)).to.deep.equal([])
      expect(small.nextOffset).to.be.greaterThan(3)

      // Starting inside the aborted transaction: nothing of it, and the position still moves past it.
      const fromAborted = await readToEnd(topic, 0, 4, 'READ_COMMITTED')
      expect(fromAborted.flatMap(b => values(b))).to.deep.equal(['c2'])

      const uncommitted = await readToEnd(topic, 0, 0, 'READ_UNCOMMITTED')
      expect(uncommitted.flatMap(b => values(b))).to.deep.equal(['c0', 'c1', 'x0', 'x1', 'c2'])
      expect(uncommitted.at(-1)!.nextOffset).to.equal(8)

      // An open transaction: READ_COMMITTED ends at the last stable offset, READ_UNCOMMITTED at the high watermark.
      await tx.begin()
      await producer.send([record(topic, 0, 'pending')]) // 8
      const open = (await fetchOnce([{ topic, partition: 0, offset: 8 }], 'READ_COMMITTED')).get(`${topic}-0`) as FetchedBatch
      expect(open).to.deep.include({ records: [], nextOffset: 8, highWatermark: 8 })
      const dirty = (await fetchOnce([{ topic, partition: 0, offset: 8 }], 'READ_UNCOMMITTED')).get(`${topic}-0`) as FetchedBatch
      expect(values(dirty)).to.deep.equal(['pending'])
      expect(dirty.highWatermark).to.equal(9)
      expect([...(await clients().fetcher.listOffsets([{ topic, partition: 0 }], 'latest', 'READ_COMMITTED'))]).to.deep.equal([
        [`${topic}-0`, 8]
      ])
      expect([...(await clients().fetcher.listOffsets([{ topic, partition: 0 }], 'latest', 'READ_UNCOMMITTED'))]).to.deep.equal([
        [`${topic}-0`, 9]
      ])
      await tx.abort()
    })

    it('keeps the per-partition byte limit (one record batch at least) and moves by what came back', async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer()
      for (let i = 0; i < 5; i++) await producer.send([record(topic, 0, `v${i}-${'x'.repeat(200)}`)]) // one record batch each
      const batch = (await fetchOnce([{ topic, partition: 0, offset: 0 }], 'READ_UNCOMMITTED', { maxPartitionBytes: 300 })).get(
        `${topic}-0`
      ) as FetchedBatch
      expect(batch.records.length).to.be.at.least(1).and.below(5)
      expect(batch.nextOffset).to.equal(batch.records.at(-1)!.offset + 1)
    })

    it('lists earliest and latest offsets', async () => {
      const topic = await createTopic(clients().admin, 2)
      await clients()
        .producer()
        .send([0, 1, 2, 3].map(i => record(topic, 0, `v${i}`)).concat([record(topic, 1, 'w')]))
      await clients().admin.deleteRecords([{ topic, partition: 0, offset: 2 }])
      const tps = [
        { topic, partition: 0 },
        { topic, partition: 1 }
      ]
      expect([...(await clients().fetcher.listOffsets(tps, 'earliest', 'READ_UNCOMMITTED'))].sort()).to.deep.equal([
        [`${topic}-0`, 2],
        [`${topic}-1`, 0]
      ])
      expect([...(await clients().fetcher.listOffsets(tps, 'latest', 'READ_UNCOMMITTED'))].sort()).to.deep.equal([
        [`${topic}-0`, 4],
        [`${topic}-1`, 1]
      ])
      expect((await clients().fetcher.listOffsets([], 'latest', 'READ_COMMITTED')).size).to.equal(0)

      const unknown = await rejectionOf(
        clients().fetcher.listOffsets([{ topic: uniqueName('kst-missing'), partition: 0 }], 'earliest', 'READ_UNCOMMITTED')
      )
      expect(isKafkaError(unknown, 'UNKNOWN_TOPIC_OR_PARTITION'), String(unknown)).to.equal(true)
    })

    it('rejects a Fetch to a node that does not exist with NETWORK_EXCEPTION, and requests once closed with ILLEGAL_STATE', async () => {
      const topic = await createTopic(clients().admin, 1)
      const error = await rejectionOf(
        clients().fetcher.fetch({
          node: 4242,
          partitions: [{ topic, partition: 0, offset: 0 }],
          isolationLevel: 'READ_UNCOMMITTED',
          maxWaitMs: 10,
          maxBytes: 1000,
          maxPartitionBytes: 1000
        })
      )
      expect(isKafkaError(error, 'NETWORK_EXCEPTION'), String(error)).to.equal(true)
      expect((error as { retriable: boolean }).retriable).to.equal(true)
      expect(
        await clients().fetcher.fetch({
          node: 1,
          partitions: [],
          isolationLevel: 'READ_UNCOMMITTED',
          maxWaitMs: 10,
          maxBytes: 1000,
          maxPartitionBytes: 1000
        })
      ).to.deep.equal([])

      await clients().fetcher.close()
      await clients().fetcher.close()
      const closed = await rejectionOf(clients().fetcher.leaders([{ topic, partition: 0 }], false))
      expect((closed as { code: string }).code).to.equal('ILLEGAL_STATE')
    })
  })
}
