import { expect } from 'chai'
import type { Processor, RecordContext } from '../../src/processor/api.js'
import { Serdes } from '../../src/serialization/serdes.js'
import type { ProcessorNodeDef, SinkNodeDef, SourceNodeDef } from '../../src/topology/definitions.js'
import { ADD_INTERNAL_TOPIC, COPARTITION_SOURCES, TOPOLOGY_DEF } from '../../src/topology/internal.js'
import { TopologyError } from '../../src/errors.js'
import { Topology } from '../../src/topology/topology.js'
import { noop, storeBuilder } from './topology-helpers.js'

describe('Topology[TOPOLOGY_DEF]()', () => {
  it('is a symbol-keyed method that does not show up on the instance', () => {
    const topology = new Topology()
    expect(typeof topology[TOPOLOGY_DEF]).to.equal('function')
    expect(Object.keys(topology)).to.deep.equal([])
    expect(Object.getOwnPropertyNames(Topology.prototype)).to.not.include('build')
    expect(Object.getOwnPropertyDescriptor(Topology.prototype, TOPOLOGY_DEF)!.enumerable).to.equal(false)
  })

  it("records co-partition groups: the topics of the sources upstream of the given nodes (a join's inputs)", () => {
    const topology = new Topology()
      .addSource('left', ['a', 'b'])
      .addSource('right', 'x-repartition')
      .addProcessor('leftMap', noop(), 'left')
      .addProcessor('rightMap', noop(), 'right')
      .addProcessor('merged', noop(), 'leftMap', 'rightMap')
      .addSource('byPattern', /p-.*/)
    topology[ADD_INTERNAL_TOPIC]('x-repartition')
    topology[COPARTITION_SOURCES](['leftMap', 'merged'])
    expect(topology[TOPOLOGY_DEF]().copartitionGroups).to.deep.equal([['a', 'b', 'x-repartition']])
    const codeOf = (fn: () => unknown): string | undefined => {
      try {
        fn()
      } catch (err) {
        return err instanceof TopologyError ? err.code : 'other'
      }
    }
    expect(codeOf(() => topology[COPARTITION_SOURCES](['left', 'nope']))).to.equal('UNKNOWN_NODE')
    topology[COPARTITION_SOURCES](['left', 'byPattern'])
    expect(codeOf(() => topology[TOPOLOGY_DEF]())).to.equal('TOPOLOGY_INVALID')
    expect(new Topology().addSource('s', 't')[TOPOLOGY_DEF]().copartitionGroups).to.deep.equal([])
  })

  it('lists nodes in insertion order with their options; serdes become (de)serializers', () => {
    const extractTimestamp = (): number => 42
    const partition = (): number => 0
    const def = new Topology()
      .addSource('in', ['a', 'b'], {
        keyDeserializer: Serdes.String(),
        valueDeserializer: Serdes.String().deserializer(),
        timestampExtractor: extractTimestamp,
        offsetReset: 'earliest'
      })
      .addProcessor('upper', noop(), 'in')
      .addSink(
        'out',
        'output',
        { keySerializer: Serdes.String(), valueSerializer: Serdes.String().serializer(), partitioner: partition },
        'upper'
      )
      [TOPOLOGY_DEF]()
    expect([...def.nodes.keys()]).to.deep.equal(['in', 'upper', 'out'])
    const source = def.nodes.get('in') as SourceNodeDef
    expect(source).to.include({
      kind: 'source',
      name: 'in',
      pattern: undefined,
      timestampExtractor: extractTimestamp,
      offsetReset: 'earliest'
    })
    expect(source.topics).to.deep.equal(['a', 'b'])
    expect(source.keyDeserializer!.deserialize('a', Buffer.from('k'))).to.equal('k')
    expect(source.valueDeserializer!.deserialize('a', Buffer.from('v'))).to.equal('v')
    const processor = def.nodes.get('upper') as ProcessorNodeDef
    expect(processor.parents).to.deep.equal(['in'])
    expect([...processor.stores]).to.deep.equal([])
    const sink = def.nodes.get('out') as SinkNodeDef
    expect(sink).to.include({ kind: 'sink', topic: 'output', topicExtractor: undefined, partitioner: partition })
    expect(sink.keySerializer!.serialize('output', 'k')).to.deep.equal(Buffer.from('k'))
    expect(sink.valueSerializer!.serialize('output', 'v')).to.deep.equal(Buffer.from('v'))
  })

  it('accepts addSink without options, with undefined options, and with a topic name extractor', () => {
    const extractor = (key: string, _value: string, _context: RecordContext): string => `to-${key}`
    const def = new Topology()
      .addSource('in', 'input')
      .addSink('plain', 'p', 'in')
      .addSink('undefined-options', 'u', undefined, 'in')
      .addSink('dynamic', extractor, 'in')
      [TOPOLOGY_DEF]()
    const plain = def.nodes.get('plain') as SinkNodeDef
    expect(plain).to.include({ topic: 'p', keySerializer: undefined, valueSerializer: undefined, partitioner: undefined })
    expect(plain.parents).to.deep.equal(['in'])
    expect((def.nodes.get('undefined-options') as SinkNodeDef).parents).to.deep.equal(['in'])
    expect(def.nodes.get('dynamic')).to.include({ topic: undefined, topicExtractor: extractor })
  })

  it('gives each node its children in the order they were connected', () => {
    const def = new Topology()
      .addSource('s', 't')
      .addProcessor('b', noop(), 's')
      .addProcessor('a', noop(), 's')
      .addProcessor('c', noop(), 'a', 'b')
      .addSink('k', 'out', 'c', 's')
      [TOPOLOGY_DEF]()
    expect(Object.fromEntries([...def.children].map(([name, children]) => [name, [...children]]))).to.deep.equal({
      s: ['b', 'a', 'k'],
      b: ['c'],
      a: ['c'],
      c: ['k'],
      k: []
    })
  })

  it('groups nodes into sub-topologies through parents and shared stores, numbered by first node; global stores share the numbering', () => {
    const topology = new Topology()
      .addSource('s1', 't1') // 0
      .addGlobalStore(storeBuilder('global'), 'gs', { keyDeserializer: Serdes.String() }, 'g', 'gp', noop()) // 1
      .addSource('s2', ['t2', 't3']) // 2, until merged into 0 by the shared store
      .addSource('s3', /t4-.*/) // 3 -> 2 once s2 is merged away
      .addProcessor('p1', noop(), 's1')
      .addProcessor('p2', noop(), 's2')
      .addProcessor('p3', noop(), 's3')
      .addStateStore(storeBuilder('shared'), 'p1')
      .addStateStore(storeBuilder('own'), 'p3')
    expect(topology[TOPOLOGY_DEF]().subtopologies.map(s => s.id)).to.deep.equal([0, 2, 3])
    topology.connectProcessorAndStateStores('p2', 'shared')
    const def = topology[TOPOLOGY_DEF]()
    expect(def.subtopologies).to.deep.equal([
      { id: 0, nodes: ['s1', 's2', 'p1', 'p2'], sourceTopics: ['t1', 't2', 't3'], sourcePatterns: [], stores: ['shared'] },
      { id: 2, nodes: ['s3', 'p3'], sourceTopics: [], sourcePatterns: [/t4-.*/], stores: ['own'] }
    ])
    expect(def.globalStores).to.deep.equal([{ id: 1, storeName: 'global', sourceName: 'gs', processorName: 'gp', topic: 'g' }])
    expect([...def.storeBuilders.keys()]).to.deep.equal(['global', 'shared', 'own'])
    expect([...def.globalStoreNames]).to.deep.equal(['global'])
    const globalProcessor = def.nodes.get('gp') as ProcessorNodeDef
    expect(globalProcessor.parents).to.deep.equal(['gs'])
    expect([...globalProcessor.stores]).to.deep.equal(['global'])
    expect((def.nodes.get('gs') as SourceNodeDef).keyDeserializer!.deserialize('g', Buffer.from('x'))).to.equal('x')
    expect(topology.describe().toString()).to.contain('  Sub-topology: 1 for global store (will not generate tasks)\n')
  })

  it('returns a snapshot that later additions do not change', () => {
    const topology = new Topology().addSource('s', 't').addProcessor('p', noop(), 's')
    const def = topology[TOPOLOGY_DEF]()
    topology.addStateStore(storeBuilder('store'), 'p').addSink('k', 'out', 'p')
    expect([...(def.nodes.get('p') as ProcessorNodeDef).stores]).to.deep.equal([])
    expect(def.children.get('p')).to.deep.equal([])
    expect(def.storeBuilders.size).to.equal(0)
    expect([...(topology[TOPOLOGY_DEF]().nodes.get('p') as ProcessorNodeDef).stores]).to.deep.equal(['store'])
  })

  it('keeps the suppliers, which return a new processor on every call', () => {
    let created = 0
    const supplier = (): Processor<unknown, unknown> => {
      created++
      return { process() {} }
    }
    const def = new Topology().addSource('s', 't').addProcessor('p', supplier, 's')[TOPOLOGY_DEF]()
    const node = def.nodes.get('p') as ProcessorNodeDef
    expect(node.supplier).to.equal(supplier)
    const before = created
    expect(node.supplier()).to.not.equal(node.supplier())
    expect(created).to.equal(before + 2)
  })
})
