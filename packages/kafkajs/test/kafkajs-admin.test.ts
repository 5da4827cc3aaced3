/**
 * AdminPort on kafkajs against a real broker: topic creation (idempotent, configs applied,
 * broker-default replication), partition counts with missing topics absent, offsets, record
 * deletion, listing.
 */
import { expect } from 'chai'
import { Kafka, ConfigResourceTypes } from 'kafkajs'
import { isKafkaError, type AdminPort, type KafkaClientFactory } from '@kstreams/core'
import { bootstrapServers, Cleanup, createTopic, describeWithBroker, record, rejectionOf, testFactory, uniqueName, whenCoordinatorReady } from './kafka-test-env.js'

/** A plain kafkajs admin client, to check what the port did. */
function rawAdmin (cleanup: Cleanup): ReturnType<Kafka['admin']> {
  const admin = new Kafka({ brokers: bootstrapServers()!.split(','), logLevel: 0 }).admin()
  return cleanup.add(admin, async a => { await a.disconnect() })
}

describeWithBroker('kafkajs AdminPort (broker)', function () {
  this.timeout(60_000)
  let cleanup: Cleanup
  let factory: KafkaClientFactory
  let admin: AdminPort

  beforeEach(() => {
    cleanup = new Cleanup()
    factory = testFactory()
    admin = cleanup.add(factory.admin({ clientId: uniqueName('admin') }), async a => { await a.close() })
  })
  afterEach(async () => { await cleanup.run() })

  it('reads the offsets a group committed; partitions without a commit are absent', async () => {
    const topic = await createTopic(admin, 2)
    const groupId = uniqueName('g')
    // A commit outside any generation (generation -1, no member), as an admin tool makes it.
    const coordinator = cleanup.add(factory.groupCoordinator({ groupId, clientId: uniqueName('gc') }), async c => { await c.close() })
    await whenCoordinatorReady(async () => { await coordinator.commitOffsets({ generationId: -1, memberId: '' }, [{ topic, partition: 1, offset: 7 }]) })
    const committed = await admin.committedOffsets(groupId, [{ topic, partition: 0 }, { topic, partition: 1 }])
    expect([...committed]).to.deep.equal([[`${topic}-1`, 7]])
    expect((await admin.committedOffsets(uniqueName('none'), [{ topic, partition: 0 }])).size).to.equal(0)
  })

  it('topicConfigs: each topic\'s configs, max.message.bytes included (set or the broker default); missing topics absent', async () => {
    const small = uniqueName('kjs-configs')
    await admin.createTopics([{ topic: small, numPartitions: 1, replicationFactor: -1, configs: { 'max.message.bytes': '2000' } }])
    const plain = await createTopic(admin, 1)
    const configs = await admin.topicConfigs!([small, plain, uniqueName('missing')])
    expect([...configs.keys()].sort()).to.deep.equal([small, plain].sort())
    expect(configs.get(small)!['max.message.bytes']).to.equal('2000')
    expect(Number(configs.get(plain)!['max.message.bytes'])).to.be.greaterThan(1_000_000)
  })

  it('creates topics with the given partitions and configs, and leaves existing topics as they are', async () => {
    const topic = uniqueName('kjs-admin')
    await admin.createTopics([{ topic, numPartitions: 3, replicationFactor: -1, configs: { 'cleanup.policy': 'compact', 'retention.ms': '123456' } }])
    await admin.createTopics([
      { topic, numPartitions: 5, replicationFactor: -1, configs: {} },
      { topic: `${topic}-b`, numPartitions: 2, replicationFactor: 1, configs: {} }
    ])

    const counts = await admin.partitionCounts([topic, `${topic}-b`])
    expect(counts.get(topic)).to.equal(3)
    expect(counts.get(`${topic}-b`)).to.equal(2)

    // Read the topic configs back with kafkajs itself (the port has no describeConfigs).
    const raw = rawAdmin(cleanup)
    await raw.connect()
    const described = await raw.describeConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }], includeSynonyms: false })
    const entries = new Map(described.resources[0]!.configEntries.map(e => [e.configName, e.configValue]))
    expect(entries.get('cleanup.policy')).to.equal('compact')
    expect(entries.get('retention.ms')).to.equal('123456')
  })

  it('leaves missing topics out of partitionCounts instead of failing', async () => {
    const topic = await createTopic(admin, 2)
    const counts = await admin.partitionCounts([topic, uniqueName('kjs-missing')])
    expect([...counts]).to.deep.equal([[topic, 2]])
    expect((await admin.partitionCounts([])).size).to.equal(0)
  })

  it('lists topics', async () => {
    const topic = await createTopic(admin, 1)
    expect(await admin.listTopics()).to.include(topic)
  })

  it('reports beginning and end offsets, and deletes records before an offset', async () => {
    const topic = await createTopic(admin, 2)
    const producer = cleanup.add(factory.producer({ clientId: uniqueName('p') }), async p => { await p.close() })
    await producer.send([0, 1, 2, 3, 4].map(i => record(topic, 0, `v${i}`)).concat([record(topic, 1, 'x')]))
    const tps = [{ topic, partition: 0 }, { topic, partition: 1 }]

    // The end offset (last stable offset) may trail the acknowledgement by a moment.
    let ends = await admin.endOffsets(tps)
    for (let i = 0; i < 50 && (ends.get(`${topic}-0`) !== 5 || ends.get(`${topic}-1`) !== 1); i++) {
      await new Promise(resolve => setTimeout(resolve, 100))
      ends = await admin.endOffsets(tps)
    }
    expect([...ends]).to.deep.equal([[`${topic}-0`, 5], [`${topic}-1`, 1]])
    expect([...await admin.beginningOffsets(tps)]).to.deep.equal([[`${topic}-0`, 0], [`${topic}-1`, 0]])

    await admin.deleteRecords([{ topic, partition: 0, offset: 3 }])
    expect((await admin.beginningOffsets(tps)).get(`${topic}-0`)).to.equal(3)
    expect((await admin.endOffsets(tps)).get(`${topic}-0`)).to.equal(5)
  })

  it('names UNKNOWN_TOPIC_OR_PARTITION for offsets of a missing topic or partition, and fails with ILLEGAL_STATE once closed', async () => {
    const missingTopic = await rejectionOf(admin.endOffsets([{ topic: uniqueName('kjs-missing'), partition: 0 }]))
    expect(isKafkaError(missingTopic, 'UNKNOWN_TOPIC_OR_PARTITION'), String(missingTopic)).to.equal(true)
    const topic = await createTopic(admin, 1)
    const missingPartition = await rejectionOf(admin.beginningOffsets([{ topic, partition: 3 }]))
    expect(isKafkaError(missingPartition, 'UNKNOWN_TOPIC_OR_PARTITION'), String(missingPartition)).to.equal(true)

    await admin.close()
    await admin.close()
    const closed = await rejectionOf(admin.listTopics())
    expect((closed as { code: string }).code).to.equal('ILLEGAL_STATE')
  })
})
