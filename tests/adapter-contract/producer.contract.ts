/**
 * ProducerPort contract against a real broker: per-partition last offsets of a send, records and
 * headers as written (header order and null header values are capabilities), error names, and
 * transactions as READ_COMMITTED and READ_UNCOMMITTED readers see them, with offsets sent to a
 * group. Fencing and KIP-447 are in transactions.contract.ts.
 */
import { expect } from 'chai'
import { Headers, isKafkaError } from '@kstreams/core'
import { offsetsAfterTransaction, type AdapterUnderTest } from './adapter-under-test.js'
import {
  clientsPerTest,
  createTopic,
  describeWithBroker,
  readPartition,
  record,
  rejectionOf,
  testSettings,
  uniqueName,
  values,
  waitForEnd
} from './contract-env.js'

export function producerContract(adapter: AdapterUnderTest): void {
  describeWithBroker(`${adapter.name} ProducerPort (broker)`, function () {
    this.timeout(60_000)
    const clients = clientsPerTest(() => adapter.client(testSettings()))

    it('returns the offset of the last record per partition, across topics, in one send', async () => {
      const a = await createTopic(clients().admin, 2, 'a')
      const b = await createTopic(clients().admin, 1, 'b')
      const producer = clients().producer()

      const first = await producer.send([record(a, 0, 'a0'), record(a, 1, 'a1'), record(a, 0, 'a2'), record(b, 0, 'b0')])
      expect([...first].sort()).to.deep.equal([
        [`${a}-0`, 1],
        [`${a}-1`, 0],
        [`${b}-0`, 0]
      ])
      const second = await producer.send([record(a, 0, 'a3'), record(a, 0, 'a4'), record(a, 0, 'a5')])
      expect([...second]).to.deep.equal([[`${a}-0`, 4]])
      expect((await producer.send([])).size).to.equal(0)
    })

    const { interleavedHeaderOrder, nullHeaderValues } = adapter.capabilities
    /** Headers as read back: in the order written, or grouped by key (first seen first) without interleavedHeaderOrder. */
    const headersAsRead = (written: Array<[string, string | null]>): Array<[string, string | null]> =>
      interleavedHeaderOrder ? written : [...new Set(written.map(([key]) => key))].flatMap(key => written.filter(h => h[0] === key))
    const headerOrder = interleavedHeaderOrder ? 'repeated keys in their order' : 'repeated keys grouped by key'

    it(`writes keys, values, timestamps and headers (${headerOrder}, empty values) as given`, async () => {
      const topic = await createTopic(clients().admin, 1)
      const headers = new Headers().add('h1', 'x').add('empty', Buffer.alloc(0)).add('h1', 'y')
      await clients()
        .producer()
        .send([
          { topic, partition: 0, key: Buffer.from('k'), value: Buffer.from('v'), headers, timestamp: 1234 },
          { topic, partition: 0, key: null, value: null, headers: new Headers(), timestamp: 5678 }
        ])
      const [first, tombstone] = await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED')
      expect(first!.key?.toString()).to.equal('k')
      expect(first!.value?.toString()).to.equal('v')
      expect(first!.timestamp).to.equal(1234)
      expect(first!.offset).to.equal(0)
      expect(first!.headers.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal(
        headersAsRead([
          ['h1', 'x'],
          ['empty', ''],
          ['h1', 'y']
        ])
      )
      expect(tombstone).to.deep.include({ key: null, value: null, timestamp: 5678, offset: 1 })
    })

    it('writes timestamps as given when the records of a partition lie more than 2^31 ms apart, in and outside a transaction', async () => {
      const topic = await createTopic(clients().admin, 1)
      const base = 1_700_000_000_000
      // Far into the past, far into the future, and back: record timestamp deltas past 32 bits.
      const stamps = [base, base - 2 ** 33, base + 2 ** 32 + 7, base + 1]
      const at = (prefix: string) => stamps.map((timestamp, i) => ({ ...record(topic, 0, `${prefix}${i}`), timestamp }))
      await clients().producer().send(at('p'))
      const transactional = clients().producer(uniqueName('tx'))
      await transactional.transactions!.begin()
      await transactional.send(at('t'))
      await transactional.transactions!.commit()
      await waitForEnd(clients().admin, topic, 0, 9)
      const read = await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED')
      expect(read.map(r => [r.value?.toString(), r.timestamp])).to.deep.equal([
        ...stamps.map((t, i) => [`p${i}`, t]),
        ...stamps.map((t, i) => [`t${i}`, t])
      ])
    })

    const nullHeader = nullHeaderValues
      ? `writes null header values as null (${headerOrder})`
      : 'refuses a record with a null header value (SERIALIZATION, naming topic and key) and sends nothing of that call'
    it(nullHeader, async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer()
      const withNull = record(topic, 0, 'v', null, new Headers().add('a', '1').add('trace-id', null).add('a', '2'))
      if (nullHeaderValues) {
        await producer.send([withNull])
        const [read] = await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED')
        expect(read!.headers.toArray().map(h => [h.key, h.value?.toString() ?? null])).to.deep.equal(
          headersAsRead([
            ['a', '1'],
            ['trace-id', null],
            ['a', '2']
          ])
        )
        return
      }
      const error = await rejectionOf(producer.send([record(topic, 0, 'fine'), withNull]))
      expect((error as { code?: string }).code).to.equal('SERIALIZATION')
      expect((error as Error).message)
        .to.include(topic)
        .and.include('trace-id')
      // The producer still works, and nothing of the refused call was written.
      expect([...(await producer.send([record(topic, 0, 'after')]))]).to.deep.equal([[`${topic}-0`, 0]])
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal(['after'])
    })

    const unknownPartition = adapter.capabilities.unknownPartitionRefusedBeforeSending
      ? 'refuses a partition the topic does not have (UNKNOWN_TOPIC_OR_PARTITION) and sends nothing of that call'
      : 'refuses a partition the topic does not have (UNKNOWN_TOPIC_OR_PARTITION) after writing the records of that call for the partitions that exist'
    it(unknownPartition, async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer()
      const error = await rejectionOf(producer.send([record(topic, 0, 'ok'), record(topic, 7, 'nope')]))
      expect(isKafkaError(error, 'UNKNOWN_TOPIC_OR_PARTITION'), String(error)).to.equal(true)
      expect((error as Error).message).to.include(`${topic}-7`)
      const missing = await rejectionOf(producer.send([record(uniqueName('kst-missing'), 0, 'x')]))
      expect(isKafkaError(missing, 'UNKNOWN_TOPIC_OR_PARTITION'), String(missing)).to.equal(true)
      const written = adapter.capabilities.unknownPartitionRefusedBeforeSending ? [] : ['ok']
      expect([...(await producer.send([record(topic, 0, 'after')]))]).to.deep.equal([[`${topic}-0`, written.length]])
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal([...written, 'after'])
    })

    it('has no transactions without a transactional id, and refuses to send once closed', async () => {
      const producer = clients().factory.producer({ clientId: uniqueName('p') })
      expect(producer.transactions).to.equal(undefined)
      await producer.close()
      await producer.close()
      const error = await rejectionOf(producer.send([record('x', 0, 'v')]))
      expect((error as { code: string }).code).to.equal('ILLEGAL_STATE')
    })

    it('commits and aborts transactions: READ_COMMITTED sees only committed records, READ_UNCOMMITTED sees all', async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!

      await tx.begin()
      const sent = await producer.send([record(topic, 0, 'c1'), record(topic, 0, 'c2')])
      expect(sent.get(`${topic}-0`)).to.equal(1)
      await tx.commit()
      await tx.begin()
      await producer.send([record(topic, 0, 'a1')])
      await tx.abort()
      await tx.begin()
      await producer.send([record(topic, 0, 'c3')])
      await tx.commit()
      await waitForEnd(clients().admin, topic, 0, 7)

      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['c1', 'c2', 'c3'])
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal(['c1', 'c2', 'a1', 'c3'])
    })

    it('allows one open transaction at a time and no send outside one', async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      expect(((await rejectionOf(producer.send([record(topic, 0, 'v')]))) as { code: string }).code).to.equal('ILLEGAL_STATE')
      expect(((await rejectionOf(tx.commit())) as { code: string }).code).to.equal('ILLEGAL_STATE')

      await tx.begin()
      expect(((await rejectionOf(tx.begin())) as { code: string }).code).to.equal('ILLEGAL_STATE')
      // Nothing was sent in it: it ends without EndTxn (a coordinator would answer INVALID_TXN_STATE).
      await tx.abort()
      await tx.begin()
      await tx.commit()
      await tx.begin()
      await producer.send([record(topic, 0, 'v')])
      await tx.commit()
      await waitForEnd(clients().admin, topic, 0, 2)
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['v'])
    })

    it('commits consumer offsets (with metadata) in the transaction (sendOffsets)', async () => {
      const topic = await createTopic(clients().admin, 2)
      const groupId = uniqueName('g')
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      await tx.begin()
      await producer.send([record(topic, 0, 'v0'), record(topic, 0, 'v1'), record(topic, 0, 'v2')])
      await tx.sendOffsets(groupId, { generationId: -1, memberId: '' }, [
        { topic, partition: 0, offset: 2, metadata: 'task-0_0' },
        { topic, partition: 1, offset: 0 }
      ])
      await tx.commit()

      // The coordinator writes the offsets after EndTxn returns.
      const tps = [
        { topic, partition: 0 },
        { topic, partition: 1 }
      ]
      const committed = await offsetsAfterTransaction(adapter, clients().coordinator(groupId), tps, 2)
      expect([...committed]).to.deep.equal([
        [`${topic}-0`, { offset: 2, metadata: 'task-0_0' }],
        [`${topic}-1`, { offset: 0, metadata: undefined }]
      ])
      expect([...(await clients().admin.committedOffsets(groupId, [{ topic, partition: 0 }]))]).to.deep.equal([[`${topic}-0`, 2]])
    })
  })
}
