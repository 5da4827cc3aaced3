/**
 * ProducerPort transactions contract against a real broker: a newer producer with the same
 * transactional id fences the older one (and aborts its open transaction), a restarted producer
 * initialises again, and TxnOffsetCommit with the group's generation and metadata; whether a
 * stale generation is refused (KIP-447) is a capability.
 */
import { expect } from 'chai'
import { isKafkaError } from '@kstreams/core'
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
import { rejoin, soleMember } from './group-coordinator.contract.js'

export function transactionsContract(adapter: AdapterUnderTest): void {
  describeWithBroker(`${adapter.name} ProducerPort transactions (broker)`, function () {
    this.timeout(60_000)
    const clients = clientsPerTest(() => adapter.client(testSettings()))

    it('declares exactlyOnceV2 exactly when it has TxnOffsetCommit with the generation and require_stable', () => {
      const { txnOffsetCommitGeneration, requireStable } = adapter.capabilities
      expect(clients().factory.exactlyOnceV2).to.equal(txnOffsetCommitGeneration && requireStable)
    })

    it('a newer producer with the same transactional id fences the older one and aborts its open transaction; every later step of the older is refused', async () => {
      // A transactional id used before gets a producer id other than 0 on a broker that has seen
      // others (an InitProducerId sent with 0/0 instead of -1/-1 would be answered PRODUCER_FENCED).
      await clients().producer(uniqueName('tx-warmup')).transactions!.init()
      const topic = await createTopic(clients().admin, 1)
      const transactionalId = uniqueName('tx')
      const old = clients().producer(transactionalId)
      await old.transactions!.begin() // InitProducerId at the first begin(), without init()
      await old.send([record(topic, 0, 'zombie')])

      const fresh = clients().producer(transactionalId)
      await fresh.transactions!.init()
      await fresh.transactions!.begin()
      await fresh.send([record(topic, 0, 'owner')])
      await fresh.transactions!.commit()
      await waitForEnd(clients().admin, topic, 0, 4) // zombie 0, abort marker 1, owner 2, commit marker 3

      const fencing = ['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'] as const
      const sendError = await rejectionOf(old.send([record(topic, 0, 'late')]))
      expect(isKafkaError(sendError, ...fencing), String(sendError)).to.equal(true)
      const commitError = await rejectionOf(old.transactions!.commit())
      expect(isKafkaError(commitError, ...fencing), String(commitError)).to.equal(true)
      const abortError = await rejectionOf(old.transactions!.abort())
      if (adapter.capabilities.abortAfterFailedCommit) expect(isKafkaError(abortError, ...fencing), String(abortError)).to.equal(true)
      else expect((abortError as { errorName?: string }).errorName, String(abortError)).to.equal('CLIENT_ERROR')

      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['owner'])
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_UNCOMMITTED'))).to.deep.equal(['zombie', 'owner'])
    })

    it('a restarted producer (same transactional id, new process state) initialises again and writes', async () => {
      const topic = await createTopic(clients().admin, 1)
      const transactionalId = uniqueName('tx')
      for (const value of ['run-1', 'run-2', 'run-3']) {
        const producer = clients().factory.producer({ clientId: uniqueName('p'), transactionalId })
        try {
          await producer.transactions!.init()
          await producer.transactions!.begin()
          await producer.send([record(topic, 0, value)])
          await producer.transactions!.commit()
        } finally {
          await producer.close()
        }
      }
      await waitForEnd(clients().admin, topic, 0, 6)
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['run-1', 'run-2', 'run-3'])
    })

    it('commits offsets in a group generation, with metadata; OffsetFetch shows them after the commit', async () => {
      const topic = await createTopic(clients().admin, 2)
      const groupId = uniqueName('g')
      const member = clients().coordinator(groupId)
      const joined = await soleMember(member)
      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      await tx.init()
      await tx.begin()
      await producer.send([record(topic, 0, 'out')])
      await tx.sendOffsets(groupId, { generationId: joined.generationId, memberId: joined.memberId }, [
        { topic, partition: 0, offset: 11, metadata: '{"partitionTime":1700000000000}' },
        { topic, partition: 1, offset: 3 }
      ])
      await tx.commit()
      const committed = await offsetsAfterTransaction(
        adapter,
        member,
        [
          { topic, partition: 0 },
          { topic, partition: 1 }
        ],
        2
      )
      expect([...committed]).to.deep.equal([
        [`${topic}-0`, { offset: 11, metadata: '{"partitionTime":1700000000000}' }],
        [`${topic}-1`, { offset: 3, metadata: undefined }]
      ])
    })

    const generation = adapter.capabilities.txnOffsetCommitGeneration
      ? 'refuses sendOffsets with a stale generation (KIP-447 zombie fencing), after which only abort() is left'
      : 'cannot fence a zombie by its generation (no KIP-447): sendOffsets of a stale generation commits'
    it(generation, async () => {
      const topic = await createTopic(clients().admin, 1)
      const groupId = uniqueName('g')
      const member = clients().coordinator(groupId)
      const old = await soleMember(member)
      const current = await rejoin(member, old.memberId)
      expect(current.generationId).to.equal(old.generationId + 1)

      const producer = clients().producer(uniqueName('tx'))
      const tx = producer.transactions!
      await tx.init()
      await tx.begin()
      await producer.send([record(topic, 0, 'zombie output')])
      const staleOffsets = tx.sendOffsets(groupId, { generationId: old.generationId, memberId: old.memberId }, [
        { topic, partition: 0, offset: 1 }
      ])
      if (!adapter.capabilities.txnOffsetCommitGeneration) {
        await staleOffsets
        await tx.commit()
        await waitForEnd(clients().admin, topic, 0, 2)
        expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['zombie output'])
        expect([...(await offsetsAfterTransaction(adapter, member, [{ topic, partition: 0 }], 1))]).to.deep.equal([
          [`${topic}-0`, { offset: 1, metadata: undefined }]
        ])
        return
      }
      const stale = await rejectionOf(staleOffsets)
      expect(isKafkaError(stale, 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID'), String(stale)).to.equal(true)
      const unknown = await rejectionOf(
        tx.sendOffsets(groupId, { generationId: current.generationId, memberId: 'not-a-member' }, [{ topic, partition: 0, offset: 1 }])
      )
      expect((unknown as { code: string }).code).to.equal('ILLEGAL_STATE')
      expect(((await rejectionOf(tx.commit())) as { code: string }).code).to.equal('ILLEGAL_STATE')
      await tx.abort()
      await waitForEnd(clients().admin, topic, 0, 2)
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal([])
      expect((await offsetsAfterTransaction(adapter, member, [{ topic, partition: 0 }], 0)).size).to.equal(0)

      // The producer goes on with the next transaction, in the current generation.
      await tx.begin()
      await producer.send([record(topic, 0, 'owner output')])
      await tx.sendOffsets(groupId, { generationId: current.generationId, memberId: current.memberId }, [
        { topic, partition: 0, offset: 1 }
      ])
      await tx.commit()
      await waitForEnd(clients().admin, topic, 0, 4)
      expect(values(await readPartition(clients().fetcher, topic, 0, 'READ_COMMITTED'))).to.deep.equal(['owner output'])
      expect([...(await offsetsAfterTransaction(adapter, member, [{ topic, partition: 0 }], 1))]).to.deep.equal([
        [`${topic}-0`, { offset: 1, metadata: undefined }]
      ])
    })
  })
}
