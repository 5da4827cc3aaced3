import { expect } from 'chai'
import type { TopicNameExtractor } from '../../src/processor/api.js'
import { Topology } from '../../src/topology/topology.js'
import type { ProcessorNodeDescription, SinkNodeDescription, SourceNodeDescription } from '../../src/topology/topology-description.js'
import { noop, storeBuilder } from './topology-helpers.js'

// Expected texts are Kafka Streams' own test expectations (TopologyTest, KStreamImplTest,
// KStreamKTableJoinTest), rebuilt here node by node with the Processor API and the DSL's node names.

describe('Topology.describe()', () => {
  it('prints only the header for an empty topology', () => {
    const description = new Topology().describe()
    expect(description.toString()).to.equal('Topologies:\n ')
    expect(description.subtopologies).to.deep.equal([])
    expect(description.globalStores).to.deep.equal([])
  })

  it('prints a repartitioned stream as two sub-topologies (KStreamImplTest, map().toTable())', () => {
    const topology = new Topology()
      .addSource('KSTREAM-SOURCE-0000000000', 'input')
      .addProcessor('KSTREAM-MAP-0000000001', noop(), 'KSTREAM-SOURCE-0000000000')
      .addProcessor('KSTREAM-FILTER-0000000005', noop(), 'KSTREAM-MAP-0000000001')
      .addSink('KSTREAM-SINK-0000000004', 'KSTREAM-TOTABLE-0000000002-repartition', 'KSTREAM-FILTER-0000000005')
      .addSource('KSTREAM-SOURCE-0000000006', 'KSTREAM-TOTABLE-0000000002-repartition')
      .addProcessor('KSTREAM-TOTABLE-0000000002', noop(), 'KSTREAM-SOURCE-0000000006')
      .addProcessor('KTABLE-TOSTREAM-0000000007', noop(), 'KSTREAM-TOTABLE-0000000002')
      .addSink('KSTREAM-SINK-0000000008', 'output', 'KTABLE-TOSTREAM-0000000007')
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-MAP-0000000001\n' +
        '    Processor: KSTREAM-MAP-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-MAP-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-TOTABLE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-TOTABLE-0000000002-repartition])\n' +
        '      --> KSTREAM-TOTABLE-0000000002\n' +
        '    Processor: KSTREAM-TOTABLE-0000000002 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-TOTABLE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000007\n\n'
    )
  })

  it('prints stores of a table aggregation (TopologyTest.tableZeroArgCountShouldPreserveTopologyStructure)', () => {
    const topology = new Topology()
      .addSource('KSTREAM-SOURCE-0000000001', 'input-topic')
      .addProcessor('KTABLE-SOURCE-0000000002', noop(), 'KSTREAM-SOURCE-0000000001')
      .addStateStore(storeBuilder('input-topic-STATE-STORE-0000000000'), 'KTABLE-SOURCE-0000000002')
      .addProcessor('KTABLE-SELECT-0000000003', noop(), 'KTABLE-SOURCE-0000000002')
      .addSink('KSTREAM-SINK-0000000005', 'KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition', 'KTABLE-SELECT-0000000003')
      .addSource('KSTREAM-SOURCE-0000000006', 'KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition')
      .addProcessor('KTABLE-AGGREGATE-0000000007', noop(), 'KSTREAM-SOURCE-0000000006')
      .addStateStore(storeBuilder('KTABLE-AGGREGATE-STATE-STORE-0000000004'), 'KTABLE-AGGREGATE-0000000007')
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])\n' +
        '      --> KTABLE-SELECT-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-SELECT-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition)\n' +
        '      <-- KTABLE-SELECT-0000000003\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition])\n' +
        '      --> KTABLE-AGGREGATE-0000000007\n' +
        '    Processor: KTABLE-AGGREGATE-0000000007 (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000004])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '\n'
    )
  })

  it('merges the sub-topologies of processors sharing a store (KStreamKTableJoinTest, generated repartition names)', () => {
    const topology = new Topology()
      .addSource('KSTREAM-SOURCE-0000000000', 'topic')
      .addSource('KSTREAM-SOURCE-0000000002', 'topic2')
      .addProcessor('KTABLE-SOURCE-0000000003', noop(), 'KSTREAM-SOURCE-0000000002')
      .addStateStore(storeBuilder('topic2-STATE-STORE-0000000001'), 'KTABLE-SOURCE-0000000003')
      .addSource('KSTREAM-SOURCE-0000000005', 'topic3')
      .addProcessor('KTABLE-SOURCE-0000000006', noop(), 'KSTREAM-SOURCE-0000000005')
      .addStateStore(storeBuilder('topic3-STATE-STORE-0000000004'), 'KTABLE-SOURCE-0000000006')
      .addProcessor('KSTREAM-MAP-0000000007', noop(), 'KSTREAM-SOURCE-0000000000')
      .addProcessor('KSTREAM-FILTER-0000000009', noop(), 'KSTREAM-MAP-0000000007')
      .addSink('KSTREAM-SINK-0000000008', 'KSTREAM-MAP-0000000007-repartition', 'KSTREAM-FILTER-0000000009')
      .addSource('KSTREAM-SOURCE-0000000010', 'KSTREAM-MAP-0000000007-repartition')
      .addProcessor('KSTREAM-JOIN-0000000011', noop(), 'KSTREAM-SOURCE-0000000010')
      .connectProcessorAndStateStores('KSTREAM-JOIN-0000000011', 'topic2-STATE-STORE-0000000001')
      .addSink('KSTREAM-SINK-0000000012', 'out-one', 'KSTREAM-JOIN-0000000011')
      .addProcessor('KSTREAM-JOIN-0000000016', noop(), 'KSTREAM-SOURCE-0000000010')
      .connectProcessorAndStateStores('KSTREAM-JOIN-0000000016', 'topic3-STATE-STORE-0000000004')
      .addSink('KSTREAM-SINK-0000000017', 'out-two', 'KSTREAM-JOIN-0000000016')
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KSTREAM-MAP-0000000007\n' +
        '    Processor: KSTREAM-MAP-0000000007 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000009\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000009 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-MAP-0000000007\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: KSTREAM-MAP-0000000007-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000009\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000010 (topics: [KSTREAM-MAP-0000000007-repartition])\n' +
        '      --> KSTREAM-JOIN-0000000011, KSTREAM-JOIN-0000000016\n' +
        '    Processor: KSTREAM-JOIN-0000000011 (stores: [topic2-STATE-STORE-0000000001])\n' +
        '      --> KSTREAM-SINK-0000000012\n' +
        '      <-- KSTREAM-SOURCE-0000000010\n' +
        '    Processor: KSTREAM-JOIN-0000000016 (stores: [topic3-STATE-STORE-0000000004])\n' +
        '      --> KSTREAM-SINK-0000000017\n' +
        '      <-- KSTREAM-SOURCE-0000000010\n' +
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n' +
        '      --> KTABLE-SOURCE-0000000003\n' +
        '    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n' +
        '      --> KTABLE-SOURCE-0000000006\n' +
        '    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n' +
        '      <-- KSTREAM-JOIN-0000000011\n' +
        '    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n' +
        '      <-- KSTREAM-JOIN-0000000016\n' +
        '    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000005\n\n'
    )
  })

  it('numbers sub-topologies by their first node (KStreamKTableJoinTest, user-provided repartition names)', () => {
    const topology = new Topology()
      .addSource('KSTREAM-SOURCE-0000000000', 'topic')
      .addSource('KSTREAM-SOURCE-0000000002', 'topic2')
      .addProcessor('KTABLE-SOURCE-0000000003', noop(), 'KSTREAM-SOURCE-0000000002')
      .addStateStore(storeBuilder('topic2-STATE-STORE-0000000001'), 'KTABLE-SOURCE-0000000003')
      .addSource('KSTREAM-SOURCE-0000000005', 'topic3')
      .addProcessor('KTABLE-SOURCE-0000000006', noop(), 'KSTREAM-SOURCE-0000000005')
      .addStateStore(storeBuilder('topic3-STATE-STORE-0000000004'), 'KTABLE-SOURCE-0000000006')
      .addProcessor('KSTREAM-MAP-0000000007', noop(), 'KSTREAM-SOURCE-0000000000')
    for (const [join, store, out] of [
      ['first-join', 'topic2-STATE-STORE-0000000001', ['KSTREAM-SINK-0000000012', 'out-one']],
      ['second-join', 'topic3-STATE-STORE-0000000004', ['KSTREAM-SINK-0000000017', 'out-two']]
    ] as const) {
      topology
        .addProcessor(`${join}-repartition-filter`, noop(), 'KSTREAM-MAP-0000000007')
        .addSink(`${join}-repartition-sink`, `${join}-repartition`, `${join}-repartition-filter`)
        .addSource(`${join}-repartition-source`, `${join}-repartition`)
        .addProcessor(join, noop(), `${join}-repartition-source`)
        .connectProcessorAndStateStores(join, store)
        .addSink(out[0], out[1], join)
    }
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KSTREAM-MAP-0000000007\n' +
        '    Processor: KSTREAM-MAP-0000000007 (stores: [])\n' +
        '      --> first-join-repartition-filter, second-join-repartition-filter\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: first-join-repartition-filter (stores: [])\n' +
        '      --> first-join-repartition-sink\n' +
        '      <-- KSTREAM-MAP-0000000007\n' +
        '    Processor: second-join-repartition-filter (stores: [])\n' +
        '      --> second-join-repartition-sink\n' +
        '      <-- KSTREAM-MAP-0000000007\n' +
        '    Sink: first-join-repartition-sink (topic: first-join-repartition)\n' +
        '      <-- first-join-repartition-filter\n' +
        '    Sink: second-join-repartition-sink (topic: second-join-repartition)\n' +
        '      <-- second-join-repartition-filter\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: first-join-repartition-source (topics: [first-join-repartition])\n' +
        '      --> first-join\n' +
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n' +
        '      --> KTABLE-SOURCE-0000000003\n' +
        '    Processor: first-join (stores: [topic2-STATE-STORE-0000000001])\n' +
        '      --> KSTREAM-SINK-0000000012\n' +
        '      <-- first-join-repartition-source\n' +
        '    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n' +
        '      <-- first-join\n' +
        '    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000002\n' +
        '\n' +
        '  Sub-topology: 2\n' +
        '    Source: second-join-repartition-source (topics: [second-join-repartition])\n' +
        '      --> second-join\n' +
        '    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n' +
        '      --> KTABLE-SOURCE-0000000006\n' +
        '    Processor: second-join (stores: [topic3-STATE-STORE-0000000004])\n' +
        '      --> KSTREAM-SINK-0000000017\n' +
        '      <-- second-join-repartition-source\n' +
        '    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n' +
        '      <-- second-join\n' +
        '    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000005\n\n'
    )
  })

  it("prints a dynamic sink with its extractor's toString() (TopologyTest.topologyWithDynamicRoutingShouldDescribeExtractorClass)", () => {
    const extractor: TopicNameExtractor<unknown, unknown> = Object.assign(
      (key: unknown, _value: unknown, context: { topic: string | undefined }) => `${context.topic}-${String(key)}`,
      { toString: () => 'anonymous topic name extractor. topic is [recordContext.topic()]-[key]' }
    )
    const topology = new Topology()
      .addSource('KSTREAM-SOURCE-0000000000', 'input-topic')
      .addSink('KSTREAM-SINK-0000000001', extractor, 'KSTREAM-SOURCE-0000000000')
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic])\n' +
        '      --> KSTREAM-SINK-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000001 (extractor class: anonymous topic name extractor. topic is [recordContext.topic()]-[key])\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n'
    )
    const sink = topology.describe().subtopologies[0]!.nodes[1] as SinkNodeDescription
    expect(sink.topic).to.equal(undefined)
    expect(sink.topicNameExtractor).to.equal(extractor)
  })

  it("prints a dynamic sink's extractor by function name when it has no toString of its own", () => {
    function routeByKey(key: unknown): string {
      return String(key)
    }
    const text = new Topology().addSource('in', 'in').addSink('out', routeByKey, 'in').describe().toString()
    expect(text).to.contain('    Sink: out (extractor class: routeByKey)\n')
  })

  it('prints pattern sources by their regex, global stores interleaved by id, and topic sets in hash order', () => {
    // Expected text printed by Kafka Streams 4.1.1 for the same calls (fixtures/DescribeOracle.java).
    const topology = new Topology()
      .addSource('source1', 'topic0')
      .addSource('source2', /topic[1-9]/)
      .addProcessor('processor', noop(), 'source1', 'source2')
      .addGlobalStore(storeBuilder('globalStore'), 'gsource', {}, 'globalTopic', 'gprocessor', noop())
      .addSource('source3', ['topic-b', 'topic-a', 'topic-c'])
      .addSink('sink', 'output', 'source3')
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: source1 (topics: [topic0])\n' +
        '      --> processor\n' +
        '    Source: source2 (topics: topic[1-9])\n' +
        '      --> processor\n' +
        '    Processor: processor (stores: [])\n' +
        '      --> none\n' +
        '      <-- source1, source2\n' +
        '\n' +
        '  Sub-topology: 1 for global store (will not generate tasks)\n' +
        '    Source: gsource (topics: [globalTopic])\n' +
        '      --> gprocessor\n' +
        '    Processor: gprocessor (stores: [globalStore])\n' +
        '      --> none\n' +
        '      <-- gsource\n' +
        '  Sub-topology: 2\n' +
        '    Source: source3 (topics: [topic-a, topic-b, topic-c])\n' +
        '      --> sink\n' +
        '    Sink: sink (topic: output)\n' +
        '      <-- source3\n' +
        '\n'
    )
  })

  it('describes several global stores with consecutive ids (TopologyTest.shouldDescribeMultipleGlobalStoreTopology)', () => {
    const description = new Topology()
      .addGlobalStore(storeBuilder('globalStore1'), 'source1', {}, 'globalTopic1', 'processor1', noop())
      .addGlobalStore(storeBuilder('globalStore2'), 'source2', {}, 'globalTopic2', 'processor2', noop())
      .describe()
    expect(description.subtopologies).to.have.length(0)
    expect(
      description.globalStores.map(g => [g.id, g.source.name, [...g.source.topicSet!], g.processor.name, [...g.processor.stores]])
    ).to.deep.equal([
      [0, 'source1', ['globalTopic1'], 'processor1', ['globalStore1']],
      [1, 'source2', ['globalTopic2'], 'processor2', ['globalStore2']]
    ])
    expect(description.toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0 for global store (will not generate tasks)\n' +
        '    Source: source1 (topics: [globalTopic1])\n' +
        '      --> processor1\n' +
        '    Processor: processor1 (stores: [globalStore1])\n' +
        '      --> none\n' +
        '      <-- source1\n' +
        '  Sub-topology: 1 for global store (will not generate tasks)\n' +
        '    Source: source2 (topics: [globalTopic2])\n' +
        '      --> processor2\n' +
        '    Processor: processor2 (stores: [globalStore2])\n' +
        '      --> none\n' +
        '      <-- source2\n'
    )
    expect(String(description.globalStores[0])).to.equal(
      'Sub-topology: 0 for global store (will not generate tasks)\n' +
        '    Source: source1 (topics: [globalTopic1])\n' +
        '      --> processor1\n' +
        '    Processor: processor1 (stores: [globalStore1])\n' +
        '      --> none\n' +
        '      <-- source1\n'
    )
  })

  it('is a structured object: sub-topologies by id, nodes in print order, linked predecessors and successors', () => {
    const description = new Topology()
      .addSource('a', ['t1', 't2'])
      .addProcessor('p', noop(), 'a')
      .addStateStore(storeBuilder('s'), 'p')
      .addSink('k', 'out', 'p')
      .addSource('b', /b-.*/)
      .describe()
    expect(description.subtopologies.map(s => s.id)).to.deep.equal([0, 1])
    const [first, second] = description.subtopologies
    expect(first!.nodes.map(n => `${n.kind}:${n.name}`)).to.deep.equal(['source:a', 'processor:p', 'sink:k'])
    const [source, processor, sink] = first!.nodes as [SourceNodeDescription, ProcessorNodeDescription, SinkNodeDescription]
    expect([...source.topicSet!]).to.deep.equal(['t1', 't2'])
    expect(source.topicPattern).to.equal(undefined)
    expect(source.successors).to.deep.equal([processor])
    expect(processor.predecessors[0]).to.equal(source)
    expect(processor.successors[0]).to.equal(sink)
    expect([...processor.stores]).to.deep.equal(['s'])
    expect(sink.topic).to.equal('out')
    expect(sink.topicNameExtractor).to.equal(undefined)
    expect(String(processor)).to.equal('Processor: p (stores: [s])\n      --> k\n      <-- a')
    const pattern = second!.nodes[0] as SourceNodeDescription
    expect(pattern.topicSet).to.equal(undefined)
    expect(pattern.topicPattern!.source).to.equal('b-.*')
    expect(String(second)).to.equal('Sub-topology: 1\n    Source: b (topics: b-.*)\n      --> none\n\n')
  })

  it('reflects nodes added after an earlier describe()', () => {
    const topology = new Topology().addSource('a', 't')
    const before = topology.describe().toString()
    topology.addProcessor('p', noop(), 'a')
    expect(topology.describe().toString()).to.not.equal(before)
    expect(topology.describe().subtopologies[0]!.nodes.map(n => n.name)).to.deep.equal(['a', 'p'])
  })
})
