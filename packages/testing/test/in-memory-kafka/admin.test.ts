import { expect } from 'chai'
import type { AdminPort } from '@kstreams/core'
import { errorNameOf, manualKafka } from './helpers.js'

describe('InMemoryKafka admin port', () => {
  let cleanup: () => void = () => {}
  afterEach(() => cleanup())

  const setup = (options: Parameters<typeof manualKafka>[0] = {}): ReturnType<typeof manualKafka> & { admin: AdminPort } => {
    const made = manualKafka(options)
    cleanup = () => made.kafka.close()
    return { ...made, admin: made.kafka.clientFactory().admin({ clientId: 'admin' }) }
  }

  it('createTopics creates missing topics with their configs, leaves existing ones alone and takes -1 as the broker default', async () => {
    const { kafka, admin } = setup({ defaultPartitions: 3 })
    kafka.createTopic('existing', 2)
    kafka.produce('existing', { value: 'keep', partition: 1 })
    await admin.createTopics([
      { topic: 'existing', numPartitions: 8, replicationFactor: 1, configs: {} },
      { topic: 'changelog', numPartitions: 4, replicationFactor: -1, configs: { 'cleanup.policy': 'compact' } },
      { topic: 'defaulted', numPartitions: -1, replicationFactor: -1, configs: {} }
    ])
    expect([...(await admin.partitionCounts(['existing', 'changelog', 'defaulted', 'missing']))]).to.deep.equal([
      ['existing', 2],
      ['changelog', 4],
      ['defaulted', 3]
    ])
    expect(kafka.topic('changelog').configs).to.deep.equal({ 'cleanup.policy': 'compact' })
    expect(kafka.topic('existing').records(1)).to.have.length(1)
    expect((await admin.listTopics()).sort()).to.deep.equal(['changelog', 'defaulted', 'existing'])
  })

  it('createTopics rejects an illegal name, a bad partition count and a replication factor above the node count, creating the valid ones', async () => {
    const { kafka, admin } = setup({ nodes: 2 })
    expect(
      await errorNameOf(
        admin.createTopics([
          { topic: 'bad name!', numPartitions: 1, replicationFactor: 1, configs: {} },
          { topic: 'good', numPartitions: 1, replicationFactor: 2, configs: {} }
        ])
      )
    ).to.equal('INVALID_TOPIC_EXCEPTION')
    expect(kafka.topics()).to.deep.equal(['good'])
    expect(await errorNameOf(admin.createTopics([{ topic: 'zero', numPartitions: 0, replicationFactor: 1, configs: {} }]))).to.equal(
      'INVALID_PARTITIONS'
    )
    expect(await errorNameOf(admin.createTopics([{ topic: 'wide', numPartitions: 1, replicationFactor: 3, configs: {} }]))).to.equal(
      'INVALID_REPLICATION_FACTOR'
    )
  })

  it('endOffsets, beginningOffsets and deleteRecords (-1 deletes up to the high watermark; beyond it is OFFSET_OUT_OF_RANGE)', async () => {
    const { kafka, admin } = setup()
    kafka.createTopic('t', 2)
    kafka.produce('t', [
      { value: 'a', partition: 0 },
      { value: 'b', partition: 0 },
      { value: 'c', partition: 1 }
    ])
    const tps = [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 }
    ]
    expect([...(await admin.endOffsets(tps))]).to.deep.equal([
      ['t-0', 2],
      ['t-1', 1]
    ])
    await admin.deleteRecords([
      { topic: 't', partition: 0, offset: 1 },
      { topic: 't', partition: 1, offset: -1 }
    ])
    expect([...(await admin.beginningOffsets(tps))]).to.deep.equal([
      ['t-0', 1],
      ['t-1', 1]
    ])
    expect(
      kafka
        .topic('t')
        .records(0)
        .map(r => r.value?.toString())
    ).to.deep.equal(['b'])
    expect(await errorNameOf(admin.deleteRecords([{ topic: 't', partition: 0, offset: 3 }]))).to.equal('OFFSET_OUT_OF_RANGE')
    expect(await errorNameOf(admin.endOffsets([{ topic: 'nope', partition: 0 }]))).to.equal('UNKNOWN_TOPIC_OR_PARTITION')
  })
})
