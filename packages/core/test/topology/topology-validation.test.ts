import { expect } from 'chai'
import { TopologyError } from '../../src/errors.js'
import type { StreamsErrorCode } from '../../src/errors.js'
import type { Processor } from '../../src/processor/api.js'
import type { StateStore, StoreBuilder } from '../../src/state/state-store.js'
import { TOPOLOGY_DEF } from '../../src/topology/internal.js'
import { Topology } from '../../src/topology/topology.js'
import { noop, storeBuilder } from './topology-helpers.js'

/** Asserts a TopologyError with `code` whose message names `name`. */
function expectTopologyError(action: () => unknown, code: StreamsErrorCode, name: string): void {
  let thrown: unknown
  try {
    action()
  } catch (error) {
    thrown = error
  }
  expect(thrown, 'expected a TopologyError').to.be.instanceOf(TopologyError)
  expect(thrown).to.have.property('code', code)
  expect((thrown as Error).message).to.contain(name)
}

/** A source 'source' on topic-1 and a processor 'processor' below it. */
function base(): Topology {
  return new Topology().addSource('source', 'topic-1').addProcessor('processor', noop(), 'source')
}

// Cases mirror Kafka Streams' TopologyTest (named after its test methods where one exists).
describe('Topology validation', () => {
  describe('DUPLICATE_NODE', () => {
    it('rejects a second source with the same name (shouldNotAllowToAddSourcesWithSameName)', () => {
      expectTopologyError(() => base().addSource('source', 'topic-2'), 'DUPLICATE_NODE', 'source')
    })

    it('rejects a processor or sink reusing any node name', () => {
      expectTopologyError(() => base().addProcessor('processor', noop(), 'source'), 'DUPLICATE_NODE', 'processor')
      expectTopologyError(() => base().addProcessor('source', noop(), 'processor'), 'DUPLICATE_NODE', 'source')
      expectTopologyError(() => base().addSink('sink', 'out', 'source').addSink('sink', 'out-2', 'source'), 'DUPLICATE_NODE', 'sink')
    })

    it('rejects global store nodes reusing a name, or the same name for its source and processor', () => {
      expectTopologyError(() => base().addGlobalStore(storeBuilder('g'), 'source', {}, 'global', 'gp', noop()), 'DUPLICATE_NODE', 'source')
      expectTopologyError(
        () => base().addGlobalStore(storeBuilder('g'), 'gs', {}, 'global', 'processor', noop()),
        'DUPLICATE_NODE',
        'processor'
      )
      expectTopologyError(() => base().addGlobalStore(storeBuilder('g'), 'same', {}, 'global', 'same', noop()), 'DUPLICATE_NODE', 'same')
    })
  })

  describe('TOPOLOGY_INVALID', () => {
    it("rejects a global store whose builder has logging enabled, before adding anything (Kafka's validateGlobalStoreArguments)", () => {
      const logged: StoreBuilder<StateStore> = { ...storeBuilder('logged-global'), loggingEnabled: true }
      const topology = base()
      expectTopologyError(
        () => topology.addGlobalStore(logged, 'gs', {}, 'global', 'gp', noop()),
        'TOPOLOGY_INVALID',
        'StateStore logged-global for global table must not have logging enabled.'
      )
      // Nothing was added: the same names and topic are still free.
      topology.addGlobalStore(storeBuilder('logged-global'), 'gs', {}, 'global', 'gp', noop())
    })
  })

  describe('UNKNOWN_NODE', () => {
    it('rejects a parent that has not been added (shouldFailOnUnknownSource, shouldFailWithUnknownParent)', () => {
      expectTopologyError(() => new Topology().addProcessor('processor', noop(), 'source'), 'UNKNOWN_NODE', 'source')
      expectTopologyError(() => new Topology().addSink('sink', 'topic-2', 'source'), 'UNKNOWN_NODE', 'source')
    })

    it('rejects connecting a store to a processor that has not been added (shouldNotAllowToAddStateStoreToNonExistingProcessor)', () => {
      expectTopologyError(() => base().addStateStore(storeBuilder('store'), 'no-such-processor'), 'UNKNOWN_NODE', 'no-such-processor')
      const topology = base().addStateStore(storeBuilder('store'))
      expectTopologyError(() => topology.connectProcessorAndStateStores('no-such-processor', 'store'), 'UNKNOWN_NODE', 'no-such-processor')
    })
  })

  describe('INVALID_PARENT', () => {
    it('rejects a node that is its own parent (shouldFailIfNodeIsItsOwnParent, shouldFailIfSinkIsItsOwnParent)', () => {
      expectTopologyError(() => new Topology().addProcessor('processor', noop(), 'processor'), 'INVALID_PARENT', 'processor')
      expectTopologyError(() => new Topology().addSink('sink', 'topic-2', 'sink'), 'INVALID_PARENT', 'sink')
    })

    it('rejects a sink as parent (shouldFailIfSinkIsParent)', () => {
      const topology = base().addSink('sink-1', 'topic-2', 'source')
      expectTopologyError(() => topology.addSink('sink-2', 'topic-3', 'sink-1'), 'INVALID_PARENT', 'sink-1')
      expectTopologyError(() => topology.addProcessor('child', noop(), 'processor', 'sink-1'), 'INVALID_PARENT', 'sink-1')
    })

    it('rejects the source or processor of a global store as parent', () => {
      const topology = new Topology().addGlobalStore(storeBuilder('g'), 'gs', {}, 'global', 'gp', noop())
      expectTopologyError(() => topology.addProcessor('child', noop(), 'gs'), 'INVALID_PARENT', 'gs')
      expectTopologyError(() => topology.addSink('sink', 'out', 'gp'), 'INVALID_PARENT', 'gp')
    })
  })

  describe('SINK_WITHOUT_PARENT', () => {
    it('rejects a sink with no parents, with or without options (shouldNotAllowToAddSinkWithEmptyParents)', () => {
      expectTopologyError(() => base().addSink('sink', 'topic-2'), 'SINK_WITHOUT_PARENT', 'sink')
      expectTopologyError(() => base().addSink('sink', 'topic-2', {}), 'SINK_WITHOUT_PARENT', 'sink')
    })
  })

  describe('DUPLICATE_TOPIC', () => {
    it('rejects a topic read by two sources (shouldNotAllowToAddTopicTwice)', () => {
      expectTopologyError(() => base().addSource('source-2', 'topic-1'), 'DUPLICATE_TOPIC', 'topic-1')
      expectTopologyError(() => new Topology().addSource('source', ['a', 'b', 'a']), 'DUPLICATE_TOPIC', 'a')
    })

    it('rejects a pattern matching a sourced topic, and a topic matching a pattern (testPatternMatchesAlreadyProvidedTopicSource)', () => {
      expectTopologyError(() => new Topology().addSource('source-1', 'foo').addSource('source-2', /f.*/), 'DUPLICATE_TOPIC', 'foo')
      expectTopologyError(() => new Topology().addSource('source-1', /f.*/).addSource('source-2', 'foo'), 'DUPLICATE_TOPIC', 'foo')
    })

    it("matches patterns against whole topic names only, like Java's Matcher.matches()", () => {
      const topology = new Topology().addSource('source-1', /f.o/g).addSource('source-2', ['xfoo', 'fo', 'foox'])
      expect(topology.describe().subtopologies).to.have.length(2)
      expectTopologyError(() => topology.addSource('source-3', 'foo'), 'DUPLICATE_TOPIC', 'foo')
      expectTopologyError(() => topology.addSource('source-4', 'fxo'), 'DUPLICATE_TOPIC', 'fxo')
    })

    it('rejects a global store topic that a source reads, and the other way round', () => {
      expectTopologyError(() => base().addGlobalStore(storeBuilder('g'), 'gs', {}, 'topic-1', 'gp', noop()), 'DUPLICATE_TOPIC', 'topic-1')
      const topology = new Topology().addGlobalStore(storeBuilder('g'), 'gs', {}, 'global', 'gp', noop())
      expectTopologyError(() => topology.addSource('source', 'global'), 'DUPLICATE_TOPIC', 'global')
      expectTopologyError(() => topology.addSource('source', /glob.*/), 'DUPLICATE_TOPIC', 'global')
    })
  })

  describe('DUPLICATE_STORE / UNKNOWN_STORE', () => {
    it('rejects another builder with the same store name (shouldNotAllowToAddStoreWithSameNameAndDifferentInstance)', () => {
      const topology = base().addStateStore(storeBuilder('store'))
      expectTopologyError(() => topology.addStateStore(storeBuilder('store')), 'DUPLICATE_STORE', 'store')
    })

    it('accepts the same builder again to connect more processors (shouldAllowToShareStoreUsingSameStoreBuilder)', () => {
      const builder = storeBuilder('store')
      const topology = base()
        .addProcessor('processor-2', noop(), 'source')
        .addStateStore(builder, 'processor')
        .addStateStore(builder, 'processor-2')
      const def = topology[TOPOLOGY_DEF]()
      expect(def.subtopologies[0]!.stores).to.deep.equal(['store'])
      expect([...(def.nodes.get('processor-2') as { stores: ReadonlySet<string> }).stores]).to.deep.equal(['store'])
    })

    it('rejects clashes between local and global store names', () => {
      const topology = base().addStateStore(storeBuilder('local')).addGlobalStore(storeBuilder('global'), 'gs', {}, 'g', 'gp', noop())
      expectTopologyError(() => topology.addStateStore(storeBuilder('global')), 'DUPLICATE_STORE', 'global')
      expectTopologyError(() => topology.addGlobalStore(storeBuilder('local'), 'gs2', {}, 'g2', 'gp2', noop()), 'DUPLICATE_STORE', 'local')
      expectTopologyError(
        () => topology.addGlobalStore(storeBuilder('global'), 'gs2', {}, 'g2', 'gp2', noop()),
        'DUPLICATE_STORE',
        'global'
      )
    })

    it('rejects connecting a store that has not been added', () => {
      expectTopologyError(() => base().connectProcessorAndStateStores('processor', 'missing'), 'UNKNOWN_STORE', 'missing')
    })
  })

  describe('TOPOLOGY_INVALID', () => {
    it('rejects a source without topics (shouldNotAllowZeroTopicsWhenAddingSource)', () => {
      expectTopologyError(() => new Topology().addSource('source', []), 'TOPOLOGY_INVALID', 'source')
    })

    it('rejects a processor without parents, as Kafka does (shouldNotAllowToAddProcessorWithEmptyParents)', () => {
      expectTopologyError(() => base().addProcessor('orphan', noop()), 'TOPOLOGY_INVALID', 'orphan')
    })

    it('rejects empty and non-string names and topics', () => {
      expectTopologyError(() => new Topology().addSource('', 't'), 'TOPOLOGY_INVALID', 'Source')
      expectTopologyError(() => new Topology().addSource(undefined as unknown as string, 't'), 'TOPOLOGY_INVALID', 'Source')
      expectTopologyError(() => new Topology().addSource('s', ['t', '']), 'TOPOLOGY_INVALID', 'Topic')
      expectTopologyError(() => base().addProcessor('', noop(), 'source'), 'TOPOLOGY_INVALID', 'Processor')
      expectTopologyError(() => base().addProcessor('p', noop(), ''), 'TOPOLOGY_INVALID', 'p')
      expectTopologyError(() => base().addSink('sink', '', 'source'), 'TOPOLOGY_INVALID', 'sink')
      expectTopologyError(() => base().addSink('sink', 'out', 'processor', null as unknown as string), 'TOPOLOGY_INVALID', 'sink')
      expectTopologyError(() => base().addStateStore(storeBuilder('')), 'TOPOLOGY_INVALID', 'Store')
      expectTopologyError(() => base().connectProcessorAndStateStores('', 'store'), 'TOPOLOGY_INVALID', 'Processor')
    })

    it('rejects a supplier that is not a function, a broken store builder and unknown options', () => {
      expectTopologyError(
        () => base().addProcessor('p', {} as unknown as () => Processor<unknown, unknown>, 'source'),
        'TOPOLOGY_INVALID',
        'p'
      )
      expectTopologyError(() => base().addStateStore({ name: 'store' } as unknown as StoreBuilder<StateStore>), 'TOPOLOGY_INVALID', 'build')
      expectTopologyError(() => new Topology().addSource('s', 't', { offsetReset: 'oldest' as 'earliest' }), 'TOPOLOGY_INVALID', 'oldest')
      expectTopologyError(() => base().addSink('sink', 'out', 42 as unknown as string, 'processor'), 'TOPOLOGY_INVALID', 'sink')
    })

    it('rejects connecting a store to a source or a sink (shouldNotAllowToAddStateStoreToSource / ToSink)', () => {
      const topology = base().addSink('sink-1', 'topic-2', 'source')
      expectTopologyError(() => topology.addStateStore(storeBuilder('store'), 'source'), 'TOPOLOGY_INVALID', 'source')
      expectTopologyError(() => topology.addStateStore(storeBuilder('store'), 'sink-1'), 'TOPOLOGY_INVALID', 'sink-1')
    })

    it("rejects connecting no store, a global store, or a store to a global store's processor", () => {
      const topology = base().addStateStore(storeBuilder('local')).addGlobalStore(storeBuilder('global'), 'gs', {}, 'g', 'gp', noop())
      expectTopologyError(() => topology.connectProcessorAndStateStores('processor'), 'TOPOLOGY_INVALID', 'processor')
      expectTopologyError(() => topology.connectProcessorAndStateStores('processor', 'global'), 'TOPOLOGY_INVALID', 'global')
      expectTopologyError(() => topology.connectProcessorAndStateStores('gp', 'local'), 'TOPOLOGY_INVALID', 'gp')
    })
  })

  describe('ILLEGAL_ARGUMENT', () => {
    it("rejects a supplier that returns the same processor twice, like Kafka's ApiUtils.checkSupplier", () => {
      const shared: Processor<unknown, unknown> = { process() {} }
      expectTopologyError(() => base().addProcessor('p', () => shared, 'source'), 'ILLEGAL_ARGUMENT', 'p')
      expectTopologyError(
        () => new Topology().addGlobalStore(storeBuilder('g'), 'gs', {}, 'g', 'gp', () => shared),
        'ILLEGAL_ARGUMENT',
        'gp'
      )
    })
  })

  describe('failed calls', () => {
    it('leave the topology unchanged', () => {
      const topology = base()
      const before = topology.describe().toString()
      expect(() => topology.addSource('s2', ['fresh', 'topic-1'])).to.throw(TopologyError)
      expect(() => topology.addStateStore(storeBuilder('store'), 'processor', 'source')).to.throw(TopologyError)
      expect(() => topology.addProcessor('p2', noop(), 'source', 'missing')).to.throw(TopologyError)
      expect(topology.describe().toString()).to.equal(before)
      // neither the topic nor the store was registered by the failed calls
      topology.addSource('s3', 'fresh').addStateStore(storeBuilder('store'), 'processor')
      expect(topology[TOPOLOGY_DEF]().storeBuilders.has('store')).to.equal(true)
    })
  })
})
