import { expect } from 'chai'
import { AssignorError } from '../../../src/runtime/assignment/assignor-error.js'
import { assignorFor, decodeAll, InMemoryAdmin, sub, subscription, topologyOf } from './assignment-helpers.js'

describe('StreamsPartitionAssignor: internal topics', () => {
  it('creates changelogs compacted, with one partition per task and the configured replication factor', async () => {
    const admin = new InMemoryAdmin({ a: 3, b: 1 })
    const topology = topologyOf(
      [
        sub(0, { sourceTopics: ['a'], changelogTopics: ['app-counts-changelog', 'app-other-changelog'] }),
        sub(1, { sourceTopics: ['b'], changelogTopics: ['app-totals-changelog'] })
      ],
      { changelogConfigs: new Map([['app-other-changelog', { 'min.insync.replicas': '2' }]]) }
    )
    await assignorFor(topology, admin, { replicationFactor: 3 }).assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)
    expect(admin.created).to.deep.equal([
      {
        topic: 'app-counts-changelog',
        numPartitions: 3,
        replicationFactor: 3,
        configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact' }
      },
      {
        topic: 'app-other-changelog',
        numPartitions: 3,
        replicationFactor: 3,
        configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact', 'min.insync.replicas': '2' }
      },
      {
        topic: 'app-totals-changelog',
        numPartitions: 1,
        replicationFactor: 3,
        configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact' }
      }
    ])
  })

  it('creates repartition topics with delete policy, 50 MB segments, infinite retention, sized from upstream sources', async () => {
    const admin = new InMemoryAdmin({ input: 4, table: 4 })
    const topology = topologyOf(
      [
        sub(0, { sourceTopics: ['input'], repartitionSinkTopics: ['app-agg-repartition'] }),
        sub(1, { sourceTopics: ['table'], repartitionSourceTopics: ['app-agg-repartition'], changelogTopics: ['app-agg-changelog'] })
      ],
      { repartitionTopics: new Map([['app-agg-repartition', {}]]), copartitionGroups: [['app-agg-repartition', 'table']] }
    )
    const info = decodeAll(await assignorFor(topology, admin).assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)).get(
      'm1'
    )!
    expect(admin.created[0]).to.deep.equal({
      topic: 'app-agg-repartition',
      numPartitions: 4,
      replicationFactor: -1,
      configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'delete', 'segment.bytes': '52428800', 'retention.ms': '-1' }
    })
    expect(admin.created[1]).to.deep.include({ topic: 'app-agg-changelog', numPartitions: 4 })
    expect(info.activeTasks.get('1_3')).to.deep.equal([
      { topic: 'app-agg-repartition', partition: 3 },
      { topic: 'table', partition: 3 }
    ])
  })

  it('forces a repartition topic to the partition count of the user topics it is co-partitioned with', async () => {
    const admin = new InMemoryAdmin({ input: 8, table: 3 })
    const topology = topologyOf(
      [
        sub(0, { sourceTopics: ['input'], repartitionSinkTopics: ['app-r-repartition'] }),
        sub(1, { sourceTopics: ['table'], repartitionSourceTopics: ['app-r-repartition'] })
      ],
      { repartitionTopics: new Map([['app-r-repartition', {}]]), copartitionGroups: [['app-r-repartition', 'table']] }
    )
    await assignorFor(topology, admin).assign([subscription({ memberId: 'm1', process: 1 })], admin.topics)
    expect(admin.created.map(t => [t.topic, t.numPartitions])).to.deep.equal([['app-r-repartition', 3]])
  })

  it('applies global topic configs over the defaults and per-topic configs over both', async () => {
    const admin = new InMemoryAdmin({ input: 1 })
    const topology = topologyOf(
      [
        sub(0, { sourceTopics: ['input'], repartitionSinkTopics: ['app-r-repartition'] }),
        sub(1, { repartitionSourceTopics: ['app-r-repartition'] })
      ],
      { repartitionTopics: new Map([['app-r-repartition', { numPartitions: 2, configs: { 'retention.ms': '1000' } }]]) }
    )
    await assignorFor(topology, admin, { topicConfigs: { 'retention.ms': '5', 'compression.type': 'lz4' } }).assign(
      [subscription({ memberId: 'm1', process: 1 })],
      admin.topics
    )
    expect(admin.created[0]).to.deep.include({ numPartitions: 2 })
    expect(admin.created[0]!.configs).to.deep.equal({
      'message.timestamp.type': 'CreateTime',
      'cleanup.policy': 'delete',
      'segment.bytes': '52428800',
      'retention.ms': '1000',
      'compression.type': 'lz4'
    })
  })

  it('leaves existing internal topics with the right partition count alone', async () => {
    const admin = new InMemoryAdmin({ a: 2, 'app-s-changelog': 2 })
    const info = decodeAll(
      await assignorFor(topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })]), admin).assign(
        [subscription({ memberId: 'm1', process: 1 })],
        admin.topics
      )
    ).get('m1')!
    expect(info.errorCode).to.equal(AssignorError.NONE)
    expect(admin.created).to.deep.equal([])
  })

  it('creates no changelog for a sub-topology without tasks', async () => {
    const admin = new InMemoryAdmin({})
    await assignorFor(topologyOf([sub(0, { sourcePatterns: [/none-.*/], changelogTopics: ['app-s-changelog'] })]), admin).assign(
      [subscription({ memberId: 'm1', process: 1 })],
      admin.topics
    )
    expect(admin.created).to.deep.equal([])
  })
})
