import { expect } from 'chai'
import type { StateStore, StoreBuilder } from '../../../src/state/state-store.js'
import { TOPOLOGY_DEF } from '../../../src/topology/internal.js'
import { Topology } from '../../../src/topology/topology.js'
import { assignorTopologyFrom, changelogTopicName } from '../../../src/runtime/assignment/topology-metadata.js'
import { noop } from '../../topology/topology-helpers.js'

function builder(name: string, loggingEnabled: boolean, logConfig: Record<string, string> = {}): StoreBuilder<StateStore> {
  return {
    name,
    build: () => {
      throw new Error('not built')
    },
    loggingEnabled,
    logConfig
  }
}

describe('assignorTopologyFrom', () => {
  it("lists each sub-topology's sources, patterns and the changelogs of its logged stores", () => {
    const def = new Topology()
      .addSource('s1', ['orders', 'payments'])
      .addProcessor('p1', noop(), 's1')
      .addStateStore(builder('counts', true, { 'min.insync.replicas': '2' }), 'p1')
      .addStateStore(builder('scratch', false), 'p1')
      .addSource('s2', /clicks-.*/)
      .addProcessor('p2', noop(), 's2')
      .addSink('out', 'output', 'p2')
      [TOPOLOGY_DEF]()
    const topology = assignorTopologyFrom(def, 'app')
    expect(topology.subtopologies).to.have.length(2)
    const [first, second] = topology.subtopologies
    expect(first).to.deep.include({
      id: 0,
      sourceTopics: ['orders', 'payments'],
      changelogTopics: ['app-counts-changelog'],
      repartitionSourceTopics: [],
      repartitionSinkTopics: []
    })
    expect(second!.sourceTopics).to.deep.equal([])
    expect(second!.sourcePatterns.map(p => p.source)).to.deep.equal(['clicks-.*'])
    expect(second!.changelogTopics).to.deep.equal([])
    expect(topology.changelogConfigs!.get('app-counts-changelog')).to.deep.equal({ 'min.insync.replicas': '2' })
    expect(topology.repartitionTopics.size).to.equal(0)
    expect(topology.copartitionGroups).to.deep.equal([])
  })

  it('turns sources and sinks on named repartition topics into repartition sources and sinks with full names', () => {
    const def = new Topology()
      .addSource('in', 'input')
      .addSink('to-repartition', 'agg-repartition', 'in')
      .addSource('from-repartition', 'agg-repartition')
      .addProcessor('agg', noop(), 'from-repartition')
      .addSource('table', 'table-topic')
      .addProcessor('join', noop(), 'table')
      [TOPOLOGY_DEF]()
    const topology = assignorTopologyFrom(def, 'app', {
      repartitionTopics: new Map([['agg-repartition', { numPartitions: 3 }]]),
      copartitionGroups: [['agg-repartition', 'table-topic']]
    })
    const [writer, reader] = topology.subtopologies
    expect(writer!.repartitionSinkTopics).to.deep.equal(['app-agg-repartition'])
    expect(writer!.sourceTopics).to.deep.equal(['input'])
    expect(reader!.repartitionSourceTopics).to.deep.equal(['app-agg-repartition'])
    expect(reader!.sourceTopics).to.deep.equal([])
    expect([...topology.repartitionTopics]).to.deep.equal([['app-agg-repartition', { numPartitions: 3 }]])
    expect(topology.copartitionGroups).to.deep.equal([['app-agg-repartition', 'table-topic']])
  })

  it('names changelogs <applicationId>-<store>-changelog', () => {
    expect(changelogTopicName('my-app', 'KSTREAM-AGGREGATE-STATE-STORE-0000000003')).to.equal(
      'my-app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog'
    )
  })
})
