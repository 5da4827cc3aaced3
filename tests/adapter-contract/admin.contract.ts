/**
 * AdminPort contract against a real broker: topic creation (idempotent, configs applied,
 * broker-default replication, a bad config named), topic configs, partition counts with missing
 * topics absent, committed offsets, beginning and end offsets (whether an open transaction counts
 * is a capability), record deletion, listing, offsets by timestamp; and the requests of tools
 * (the application reset tool): topic deletion, group description, member removal, and offset
 * commits from outside a group.
 */
import { expect } from 'chai'
import { isKafkaError } from '@kstreams/core'
import type { AdapterUnderTest } from './adapter-under-test.js'
import { soleMember } from './group-coordinator.contract.js'
import {
  clientsPerTest,
  createTopic,
  describeWithBroker,
  record,
  rejectionOf,
  testSettings,
  uniqueName,
  waitFor,
  waitForEnd,
  whenCoordinatorReady
} from './contract-env.js'

export function adminContract(adapter: AdapterUnderTest): void {
  describeWithBroker(`${adapter.name} AdminPort (broker)`, function () {
    this.timeout(60_000)
    const clients = clientsPerTest(() => adapter.client(testSettings()))

    it('reads the offsets a group committed; partitions without a commit are absent', async () => {
      const topic = await createTopic(clients().admin, 2)
      const groupId = uniqueName('g')
      // A commit outside any generation (generation -1, no member), as an admin tool makes it.
      const coordinator = clients().coordinator(groupId)
      await whenCoordinatorReady(async () => {
        await coordinator.commitOffsets({ generationId: -1, memberId: '' }, [{ topic, partition: 1, offset: 7 }])
      })
      const committed = await clients().admin.committedOffsets(groupId, [
        { topic, partition: 0 },
        { topic, partition: 1 }
      ])
      expect([...committed]).to.deep.equal([[`${topic}-1`, 7]])
      expect((await clients().admin.committedOffsets(uniqueName('none'), [{ topic, partition: 0 }])).size).to.equal(0)
    })

    it("topicConfigs: each topic's configs, max.message.bytes included (set or the broker default); missing topics absent", async () => {
      const small = uniqueName('kst-configs')
      await clients().admin.createTopics([
        { topic: small, numPartitions: 1, replicationFactor: -1, configs: { 'max.message.bytes': '2000' } }
      ])
      const plain = await createTopic(clients().admin, 1)
      const configs = await clients().admin.topicConfigs!([small, plain, uniqueName('missing')])
      expect([...configs.keys()].sort()).to.deep.equal([small, plain].sort())
      expect(configs.get(small)!['max.message.bytes']).to.equal('2000')
      expect(Number(configs.get(plain)!['max.message.bytes'])).to.be.greaterThan(1_000_000)
    })

    it('creates topics with the given partitions and configs, and leaves existing topics as they are', async () => {
      const topic = uniqueName('kst-admin')
      await clients().admin.createTopics([
        { topic, numPartitions: 3, replicationFactor: -1, configs: { 'cleanup.policy': 'compact', 'retention.ms': '123456' } }
      ])
      await clients().admin.createTopics([
        { topic, numPartitions: 5, replicationFactor: -1, configs: {} },
        { topic: `${topic}-b`, numPartitions: 2, replicationFactor: 1, configs: {} }
      ])

      const counts = await clients().admin.partitionCounts([topic, `${topic}-b`])
      expect(counts.get(topic)).to.equal(3)
      expect(counts.get(`${topic}-b`)).to.equal(2)

      // The configs as the broker describes them.
      const entries = (await clients().admin.topicConfigs!([topic])).get(topic)!
      expect(entries['cleanup.policy']).to.equal('compact')
      expect(entries['retention.ms']).to.equal('123456')
    })

    it('leaves missing topics out of partitionCounts instead of failing', async () => {
      const topic = await createTopic(clients().admin, 2)
      const counts = await clients().admin.partitionCounts([topic, uniqueName('kst-missing')])
      expect([...counts]).to.deep.equal([[topic, 2]])
      expect((await clients().admin.partitionCounts([])).size).to.equal(0)
    })

    it('lists topics', async () => {
      const topic = await createTopic(clients().admin, 1)
      expect(await clients().admin.listTopics()).to.include(topic)
    })

    it('reports beginning and end offsets, and deletes records before an offset', async () => {
      const topic = await createTopic(clients().admin, 2)
      const producer = clients().producer()
      await producer.send([0, 1, 2, 3, 4].map(i => record(topic, 0, `v${i}`)).concat([record(topic, 1, 'x')]))
      const tps = [
        { topic, partition: 0 },
        { topic, partition: 1 }
      ]

      // The end offset (the last stable offset where it is not the high watermark) may trail the acknowledgement by a moment.
      let ends = await clients().admin.endOffsets(tps)
      for (let i = 0; i < 50 && (ends.get(`${topic}-0`) !== 5 || ends.get(`${topic}-1`) !== 1); i++) {
        await new Promise(resolve => setTimeout(resolve, 100))
        ends = await clients().admin.endOffsets(tps)
      }
      expect([...ends]).to.deep.equal([
        [`${topic}-0`, 5],
        [`${topic}-1`, 1]
      ])
      expect([...(await clients().admin.beginningOffsets(tps))]).to.deep.equal([
        [`${topic}-0`, 0],
        [`${topic}-1`, 0]
      ])

      await clients().admin.deleteRecords([{ topic, partition: 0, offset: 3 }])
      expect((await clients().admin.beginningOffsets(tps)).get(`${topic}-0`)).to.equal(3)
      expect((await clients().admin.endOffsets(tps)).get(`${topic}-0`)).to.equal(5)
    })

    it('offsetsForTimes: the first offset whose timestamp is at or after the one asked for; absent when no record is that recent', async () => {
      const topic = await createTopic(clients().admin, 2)
      // Recent timestamps (base + 1000 ... base + 5000), so that retention leaves the records alone.
      const base = Date.now() - 60_000
      const at = (value: string, timestamp: number) => ({ ...record(topic, 0, value), timestamp: base + timestamp })
      await clients()
        .producer()
        .send([at('a', 1000), at('b', 3000), at('c', 2000), at('d', 5000), { ...record(topic, 1, 'x'), timestamp: base }])
      await waitForEnd(clients().admin, topic, 0, 4)
      const lookUp = async (timestamp: number, partition = 0): Promise<number | undefined> =>
        (
          await clients().admin.offsetsForTimes!(
            [{ topic, partition, timestamp: timestamp === 0 ? 0 : base + timestamp }],
            'READ_UNCOMMITTED'
          )
        ).get(`${topic}-${partition}`)
      expect(await lookUp(0)).to.equal(0)
      expect(await lookUp(1000)).to.equal(0)
      expect(await lookUp(1001)).to.equal(1)
      // The first record at or after 2500 in offset order is b (3000), not c (2000 < 2500).
      expect(await lookUp(2500)).to.equal(1)
      expect(await lookUp(4000)).to.equal(3)
      expect(await lookUp(5001)).to.equal(undefined)
      const both = await clients().admin.offsetsForTimes!(
        [
          { topic, partition: 0, timestamp: base + 5000 },
          { topic, partition: 1, timestamp: base }
        ],
        'READ_UNCOMMITTED'
      )
      expect([...both].sort()).to.deep.equal([
        [`${topic}-0`, 3],
        [`${topic}-1`, 0]
      ])
    })

    it('names UNKNOWN_TOPIC_OR_PARTITION for offsets of a missing topic or partition, and fails with ILLEGAL_STATE once closed', async () => {
      const missingTopic = await rejectionOf(clients().admin.endOffsets([{ topic: uniqueName('kst-missing'), partition: 0 }]))
      expect(isKafkaError(missingTopic, 'UNKNOWN_TOPIC_OR_PARTITION'), String(missingTopic)).to.equal(true)
      const topic = await createTopic(clients().admin, 1)
      const missingPartition = await rejectionOf(clients().admin.beginningOffsets([{ topic, partition: 3 }]))
      expect(isKafkaError(missingPartition, 'UNKNOWN_TOPIC_OR_PARTITION'), String(missingPartition)).to.equal(true)

      await clients().admin.close()
      await clients().admin.close()
      const closed = await rejectionOf(clients().admin.listTopics())
      expect((closed as { code: string }).code).to.equal('ILLEGAL_STATE')
    })

    const endOffsets = adapter.capabilities.endOffsetsAreHighWatermarks
      ? "gives the high watermark as the end offset, an open transaction's records included"
      : "gives the last stable offset as the end offset: an open transaction's records are not counted until it ends"
    it(endOffsets, async () => {
      const topic = await createTopic(clients().admin, 1)
      const producer = clients().producer(uniqueName('tx'))
      await producer.transactions!.begin()
      await producer.send([record(topic, 0, 'open')])
      const end = adapter.capabilities.endOffsetsAreHighWatermarks ? 1 : 0
      expect([...(await clients().admin.endOffsets([{ topic, partition: 0 }]))]).to.deep.equal([[`${topic}-0`, end]])
      await producer.transactions!.abort()
      // Once the transaction ended, its records and marker count either way.
      await waitForEnd(clients().admin, topic, 0, 2)
    })

    it('deleteTopics deletes topics; a missing topic is UNKNOWN_TOPIC_OR_PARTITION naming it', async () => {
      const admin = clients().admin
      const [a, b, kept] = [await createTopic(admin, 2), await createTopic(admin, 1), await createTopic(admin, 1)]
      await admin.deleteTopics!([a, b])
      await waitFor('the deleted topics to leave the topic list', async () => {
        const topics = await admin.listTopics()
        return !topics.includes(a) && !topics.includes(b)
      })
      expect(await admin.listTopics()).to.include(kept)
      const missing = uniqueName('kst-missing')
      const error = await rejectionOf(admin.deleteTopics!([missing]))
      expect(isKafkaError(error, 'UNKNOWN_TOPIC_OR_PARTITION'), String(error)).to.equal(true)
      expect(String(error)).to.include(missing)
    })

    it('describeGroup lists the members; removeMembersFromConsumerGroup empties the group; only then alterConsumerGroupOffsets commits', async () => {
      const admin = clients().admin
      const topic = await createTopic(admin, 2)
      const groupId = uniqueName('g')
      expect(await admin.describeGroup!(groupId)).to.deep.equal({ groupId, state: 'Dead', protocolType: '', protocol: '', members: [] })

      const member = await soleMember(clients().coordinator(groupId))
      const stable = await admin.describeGroup!(groupId)
      expect(stable).to.include({ groupId, state: 'Stable', protocolType: 'consumer' })
      expect(stable.members.map(m => m.memberId)).to.deep.equal([member.memberId])
      expect(stable.members[0]!.clientHost).to.match(/127\.0\.0\.1/)

      const refused = await rejectionOf(admin.alterConsumerGroupOffsets!(groupId, [{ topic, partition: 0, offset: 1 }]))
      expect(isKafkaError(refused, 'UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION'), String(refused)).to.equal(true)
      expect((await admin.committedOffsets(groupId, [{ topic, partition: 0 }])).size).to.equal(0)

      await admin.removeMembersFromConsumerGroup!(groupId, [{ memberId: member.memberId }])
      const empty = await admin.describeGroup!(groupId)
      expect({ state: empty.state, members: empty.members }).to.deep.equal({ state: 'Empty', members: [] })
      const unknown = await rejectionOf(admin.removeMembersFromConsumerGroup!(groupId, [{ memberId: member.memberId }]))
      expect(isKafkaError(unknown, 'UNKNOWN_MEMBER_ID'), String(unknown)).to.equal(true)

      await admin.alterConsumerGroupOffsets!(groupId, [
        { topic, partition: 0, offset: 0 },
        { topic, partition: 1, offset: 3 }
      ])
      const committed = await admin.committedOffsets(groupId, [
        { topic, partition: 0 },
        { topic, partition: 1 }
      ])
      expect([...committed]).to.deep.equal([
        [`${topic}-0`, 0],
        [`${topic}-1`, 3]
      ])
    })

    it("refuses CreateTopics with a bad config value with the broker's error name", async () => {
      const error = await rejectionOf(
        clients().admin.createTopics([
          { topic: uniqueName('kst-bad'), numPartitions: 1, replicationFactor: -1, configs: { 'cleanup.policy': 'no-such-policy' } }
        ])
      )
      expect(isKafkaError(error), String(error)).to.equal(true)
      expect((error as { errorName: string }).errorName).to.equal('INVALID_CONFIG')
    })
  })
}
