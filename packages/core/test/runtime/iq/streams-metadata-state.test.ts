import { expect } from 'chai'
import type { TopologyDef } from '../../../src/topology/definitions.js'
import type { StateStore, StoreBuilder } from '../../../src/state/state-store.js'
import { partitionFor } from '../../../src/partitioner/murmur2.js'
import { KEY_QUERY_METADATA_NOT_AVAILABLE, StreamsMetadataState, hostKey } from '../../../src/runtime/iq/streams-metadata-state.js'
import { localStorePartitionLags } from '../../../src/runtime/iq/local-store-lags.js'
import type { TopicPartition } from '../../../src/runtime/kafka/ports.js'
import { stringSerializer } from '../../state/helpers/test-serdes.js'
import { codeOf } from '../../state/helpers/expect-code.js'

const builder = {} as StoreBuilder<StateStore>
const def: TopologyDef = {
  nodes: new Map(),
  children: new Map(),
  subtopologies: [
    { id: 0, nodes: [], sourceTopics: ['lines'], sourcePatterns: [], stores: [] },
    { id: 1, nodes: [], sourceTopics: ['words', 'more-words'], sourcePatterns: [], stores: ['counts', 'totals'] }
  ],
  globalStores: [],
  storeBuilders: new Map([
    ['counts', builder],
    ['totals', builder],
    ['global', builder]
  ]),
  globalStoreNames: new Set(['global']),
  internalTopics: new Map(),
  copartitionGroups: [],
  sourceChangelogs: new Map()
}
const tps = (topic: string, ...partitions: number[]): TopicPartition[] => partitions.map(partition => ({ topic, partition }))

describe('StreamsMetadataState', () => {
  function state() {
    const s = new StreamsMetadataState(def, 'app')
    s.onAssignment(
      new Map([
        ['a:1', [...tps('words', 0, 1, 2), ...tps('more-words', 0, 1, 2), ...tps('lines', 0)]],
        ['b:2', [...tps('words', 3, 4, 5), ...tps('more-words', 3, 4, 5), ...tps('lines', 1)]]
      ]),
      new Map([
        ['b:2', tps('words', 0, 1)],
        ['c:3', [...tps('words', 0, 3)]]
      ])
    )
    return s
  }

  it("IPv6 hosts of the host maps ('[::1]:8080') are HostInfos without brackets, as Kafka's", () => {
    const s = new StreamsMetadataState(def, 'app', '::1:8080')
    s.onAssignment(new Map([['[::1]:8080', [...tps('words', 0, 1, 2, 3, 4, 5), ...tps('lines', 0, 1)]]]), new Map())
    expect(s.allMetadata().map(m => m.hostInfo)).to.deep.equal([{ host: '::1', port: 8080 }])
    expect(s.keyQueryMetadataForKey('counts', 'x', stringSerializer).activeHost).to.deep.equal({ host: '::1', port: 8080 })
    // A global store is answered by this instance: its own applicationServer, bare IPv6 as configured.
    expect(s.keyQueryMetadataForKey('global', 'x', stringSerializer).activeHost).to.deep.equal({ host: '::1', port: 8080 })
    expect(hostKey({ host: '::1', port: 8080 })).to.equal('[::1]:8080')
  })

  it('is NOT_AVAILABLE before the first assignment', () => {
    const s = new StreamsMetadataState(def, 'app')
    expect(s.initialized).to.equal(false)
    expect(s.keyQueryMetadataForKey('counts', 'x', stringSerializer)).to.equal(KEY_QUERY_METADATA_NOT_AVAILABLE)
    expect(KEY_QUERY_METADATA_NOT_AVAILABLE.partition).to.equal(-1)
    expect(s.allMetadata()).to.deep.equal([])
    expect(s.partitionExists('counts', 0)).to.equal(undefined)
  })

  it('queryMetadataForKey: murmur2 partition over the source partition count, the active host and the standby hosts', () => {
    const s = state()
    const seen = new Set<number>()
    for (let i = 0; i < 200; i++) {
      const key = `key-${i}`
      const partition = partitionFor(Buffer.from(key), 6)
      seen.add(partition)
      const meta = s.keyQueryMetadataForKey('counts', key, stringSerializer)
      expect(meta.partition).to.equal(partition)
      expect(meta.activeHost).to.deep.equal(partition < 3 ? { host: 'a', port: 1 } : { host: 'b', port: 2 })
      const standbys = meta.standbyHosts.map(h => `${h.host}:${h.port}`)
      expect(standbys).to.deep.equal([...(partition < 2 ? ['b:2'] : []), ...(partition === 0 || partition === 3 ? ['c:3'] : [])])
    }
    expect(seen.size).to.equal(6)
    expect(codeOf(() => s.keyQueryMetadataForKey('nope', 'x', stringSerializer))).to.equal('UNKNOWN_STATE_STORE')
  })

  // StreamsMetadataStateTest: shouldGetInstanceWithKeyAndCustomPartitioner, shouldGetInstanceWithKeyWithMergedStreams,
  // shouldFailWhenIqQueriedWithCustomPartitionerReturningMultiplePartitions, shouldGetQueryMetadataForGlobalStoreWithKeyAndPartitioner.
  it('queryMetadataForKey with a StreamPartitioner: its one partition, asked with the source topic with the most partitions and no value', () => {
    const s = new StreamsMetadataState(def, 'app', 'a:1')
    s.onAssignment(
      new Map([
        ['a:1', [...tps('words', 0, 1, 2), ...tps('more-words', 0, 1, 2, 3, 4, 5, 6, 7)]],
        ['b:2', [...tps('words', 3, 4, 5)]]
      ]),
      new Map([['c:3', tps('words', 4)]])
    )
    const calls: unknown[][] = []
    const meta = s.keyQueryMetadataForKey('counts', 'the-key', (...args: [string, string, never, number]) => {
      calls.push(args)
      return 4
    })
    expect(calls).to.deep.equal([['more-words', 'the-key', undefined, 8]])
    expect(meta).to.deep.equal({ activeHost: { host: 'a', port: 1 }, standbyHosts: [{ host: 'c', port: 3 }], partition: 4 })
    expect(s.keyQueryMetadataForKey('counts', 'the-key', () => new Set([2])).partition).to.equal(2)
    expect(s.keyQueryMetadataForKey('counts', 'the-key', () => [1, 1]).partition).to.equal(1)
    for (const bad of [() => new Set([0, 1]), () => [0, 1], () => new Set<number>(), () => undefined]) {
      expect(codeOf(() => s.keyQueryMetadataForKey('counts', 'the-key', bad))).to.equal('ILLEGAL_ARGUMENT')
    }
    expect(s.keyQueryMetadataForKey('global', 'key', () => 0)).to.deep.equal({
      activeHost: { host: 'a', port: 1 },
      standbyHosts: [],
      partition: -1
    })
    expect(new StreamsMetadataState(def, 'app').keyQueryMetadataForKey('counts', 'x', () => 0)).to.equal(KEY_QUERY_METADATA_NOT_AVAILABLE)
    expect(codeOf(() => s.keyQueryMetadataForKey('nope', 'x', () => 0))).to.equal('UNKNOWN_STATE_STORE')
  })

  it('metadataForAllStreamsClients: hosts with their partitions and the stores those partitions hold', () => {
    const all = state().allMetadata()
    expect(all.map(m => m.hostInfo)).to.deep.equal([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
      { host: 'c', port: 3 }
    ])
    expect([...all[0]!.stateStoreNames].sort()).to.deep.equal(['counts', 'global', 'totals'])
    expect(all[0]!.topicPartitions.length).to.equal(7)
    expect([...all[1]!.standbyStateStoreNames].sort()).to.deep.equal(['counts', 'totals'])
    expect(all[1]!.standbyTopicPartitions).to.deep.equal(tps('words', 0, 1))
    expect([...all[2]!.stateStoreNames], 'global stores are on every instance').to.deep.equal(['global'])
    expect(state().allMetadataForStore('counts').length).to.equal(3)
  })

  it('a global store is answered by this instance (partition -1)', () => {
    const s = new StreamsMetadataState(def, 'app', 'me:9')
    expect(s.keyQueryMetadataForKey('global', 'x', stringSerializer)).to.deep.equal({
      activeHost: { host: 'me', port: 9 },
      standbyHosts: [],
      partition: -1
    })
  })

  it("a store fed by an internal (repartition) topic is found under the topic's runtime name <applicationId>-<name>", () => {
    const internal: TopologyDef = {
      ...def,
      subtopologies: [{ id: 0, nodes: [], sourceTopics: ['by-word-repartition'], sourcePatterns: [], stores: ['counts'] }],
      internalTopics: new Map([['by-word-repartition', {}]])
    }
    const s = new StreamsMetadataState(internal, 'app')
    s.onAssignment(
      new Map([
        ['a:1', tps('app-by-word-repartition', 0, 1)],
        ['b:2', tps('app-by-word-repartition', 2, 3)]
      ]),
      new Map()
    )
    const meta = s.keyQueryMetadataForKey('counts', 'k', stringSerializer)
    expect(meta.partition).to.equal(partitionFor(Buffer.from('k'), 4))
    expect(meta.activeHost.port).to.equal(meta.partition < 2 ? 1 : 2)
    expect([...s.allMetadata()[0]!.stateStoreNames]).to.include('counts')
  })

  it('knows which partitions of a store exist', () => {
    const s = state()
    expect(s.partitionCount('counts')).to.equal(6)
    expect(s.partitionExists('counts', 5)).to.equal(true)
    expect(s.partitionExists('counts', 6)).to.equal(false)
  })
})

describe('localStorePartitionLags', () => {
  it('position against the end offset per store and partition; running active tasks are caught up', async () => {
    const admin = {
      endOffsets: async (ps: readonly TopicPartition[]) => new Map(ps.map(p => [`${p.topic}-${p.partition}`, 100 + p.partition]))
    }
    const lags = await localStorePartitionLags(
      [
        { storeName: 'counts', changelog: { topic: 'app-counts-changelog', partition: 2 }, position: 40 },
        { storeName: 'counts', changelog: { topic: 'app-counts-changelog', partition: 0 }, position: 'latest' },
        { storeName: 'totals', changelog: { topic: 'app-totals-changelog', partition: 1 }, position: 0 }
      ],
      admin
    )
    expect([...lags.keys()]).to.deep.equal(['counts', 'totals'])
    expect([...lags.get('counts')!]).to.deep.equal([
      [0, { currentOffsetPosition: 100, endOffsetPosition: 100, offsetLag: 0 }],
      [2, { currentOffsetPosition: 40, endOffsetPosition: 102, offsetLag: 62 }]
    ])
    expect(lags.get('totals')!.get(1)).to.deep.equal({ currentOffsetPosition: 0, endOffsetPosition: 101, offsetLag: 101 })
  })
})
