import { expect } from 'chai'
import { Topology } from '../../src/topology/topology.js'
import { noop, storeBuilder } from './topology-helpers.js'

// Expected texts are Kafka Streams' own TopologyTest expectations for stream-stream joins,
// rebuilt node by node with the Processor API and the DSL's node and store names.

/** The graph the DSL builds for stream1.join/leftJoin/outerJoin(stream2): two windowed sides, two joiners, a merge. */
function streamStreamJoin(
  thisJoin: string,
  otherJoin: string,
  stores: { windowed2: string; windowed3: string; shared?: string }
): Topology {
  const topology = new Topology()
    .addSource('KSTREAM-SOURCE-0000000000', 'input-topic1')
    .addSource('KSTREAM-SOURCE-0000000001', 'input-topic2')
    .addProcessor('KSTREAM-WINDOWED-0000000002', noop(), 'KSTREAM-SOURCE-0000000000')
    .addProcessor('KSTREAM-WINDOWED-0000000003', noop(), 'KSTREAM-SOURCE-0000000001')
    .addProcessor(thisJoin, noop(), 'KSTREAM-WINDOWED-0000000002')
    .addProcessor(otherJoin, noop(), 'KSTREAM-WINDOWED-0000000003')
    .addProcessor('KSTREAM-MERGE-0000000006', noop(), thisJoin, otherJoin)
    .addStateStore(storeBuilder(stores.windowed2), 'KSTREAM-WINDOWED-0000000002', otherJoin)
    .addStateStore(storeBuilder(stores.windowed3), 'KSTREAM-WINDOWED-0000000003', thisJoin)
  if (stores.shared !== undefined) topology.addStateStore(storeBuilder(stores.shared), thisJoin, otherJoin)
  return topology
}

describe('Topology.describe() of stream-stream joins', () => {
  it("prints a stream-stream join; the merge lists its parents in Kafka's order, not by name (TopologyTest.streamStreamJoinTopologyWithDefaultStoresNames)", () => {
    const topology = streamStreamJoin('KSTREAM-JOINTHIS-0000000004', 'KSTREAM-JOINOTHER-0000000005', {
      windowed2: 'KSTREAM-JOINTHIS-0000000004-store',
      windowed3: 'KSTREAM-JOINOTHER-0000000005-store'
    })
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic1])\n' +
        '      --> KSTREAM-WINDOWED-0000000002\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic2])\n' +
        '      --> KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n' +
        '      --> KSTREAM-JOINTHIS-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n' +
        '      --> KSTREAM-JOINOTHER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KSTREAM-JOINOTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000002\n' +
        '    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-JOINOTHER-0000000005\n\n'
    )
  })

  it('prints store sets in Java hash order (TopologyTest.streamStreamLeftJoinTopologyWithCustomStoresNames)', () => {
    const topology = streamStreamJoin('KSTREAM-JOINTHIS-0000000004', 'KSTREAM-OUTEROTHER-0000000005', {
      windowed2: 'custom-name-this-join-store',
      windowed3: 'custom-name-outer-other-join-store',
      shared: 'custom-name-left-shared-join-store'
    })
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic1])\n' +
        '      --> KSTREAM-WINDOWED-0000000002\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic2])\n' +
        '      --> KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-WINDOWED-0000000002 (stores: [custom-name-this-join-store])\n' +
        '      --> KSTREAM-JOINTHIS-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-WINDOWED-0000000003 (stores: [custom-name-outer-other-join-store])\n' +
        '      --> KSTREAM-OUTEROTHER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [custom-name-outer-other-join-store, custom-name-left-shared-join-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000002\n' +
        '    Processor: KSTREAM-OUTEROTHER-0000000005 (stores: [custom-name-this-join-store, custom-name-left-shared-join-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-OUTEROTHER-0000000005\n\n'
    )
  })

  it('prints an outer join with supplied stores (TopologyTest.streamStreamOuterJoinTopologyWithCustomStoresSuppliers)', () => {
    const topology = streamStreamJoin('KSTREAM-OUTERTHIS-0000000004', 'KSTREAM-OUTEROTHER-0000000005', {
      windowed2: 'in-memory-join-store',
      windowed3: 'in-memory-join-store-other',
      shared: 'in-memory-join-store-outer-shared-join-store'
    })
    expect(topology.describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic1])\n' +
        '      --> KSTREAM-WINDOWED-0000000002\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic2])\n' +
        '      --> KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-WINDOWED-0000000002 (stores: [in-memory-join-store])\n' +
        '      --> KSTREAM-OUTERTHIS-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-WINDOWED-0000000003 (stores: [in-memory-join-store-other])\n' +
        '      --> KSTREAM-OUTEROTHER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KSTREAM-OUTEROTHER-0000000005 (stores: [in-memory-join-store-outer-shared-join-store, in-memory-join-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-OUTERTHIS-0000000004 (stores: [in-memory-join-store-other, in-memory-join-store-outer-shared-join-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000002\n' +
        '    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-OUTERTHIS-0000000004, KSTREAM-OUTEROTHER-0000000005\n\n'
    )
  })
})
