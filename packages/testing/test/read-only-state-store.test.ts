/**
 * Topology.addReadOnlyStateStore (KIP-813) on the TopologyTestDriver: a local store written only by
 * its update processor from its source topic, which is its changelog (no changelog of its own),
 * readable by other processors once connected. Ported from Kafka Streams' ReadOnlyStoreTest and
 * TopologyTest (readOnlyStateStoresShouldHaveTheirOwnSubTopology, readOnlyStateStoresShouldNotLog).
 */
import { expect } from 'chai'
import { KeyValue, Serdes, StreamsError, Topology } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext, Record, StateStore, StoreBuilder } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/topology-test-driver.js'

const I = Serdes.Integer()
const S = Serdes.String()

function storeUpdater(storeName: string): () => Processor<number, string, never, never> {
  return () => {
    let store: KeyValueStore<number, string>
    return {
      init(context: ProcessorContext<never, never>) {
        store = context.getStateStore(storeName)
      },
      process(record: Record<number, string>) {
        store.put(record.key, record.value)
      }
    }
  }
}

function readOnlyTopology(): Topology {
  return new Topology().addReadOnlyStateStore(
    Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('readOnlyStore'), I, S),
    'readOnlySource',
    { keyDeserializer: I, valueDeserializer: S },
    'storeTopic',
    'readOnlyProcessor',
    storeUpdater('readOnlyStore')
  )
}

function expectCode(fn: () => unknown, code: string, mentions: string): void {
  try {
    fn()
    expect.fail(`expected a StreamsError ${code}`)
  } catch (error) {
    expect(error).to.be.instanceOf(StreamsError)
    expect((error as StreamsError).code).to.equal(code)
    expect((error as StreamsError).message).to.contain(mentions)
  }
}

describe('Topology.addReadOnlyStateStore', () => {
  it('connects the update processor and lets another processor read the store (ReadOnlyStoreTest.shouldConnectProcessorAndWriteDataToReadOnlyStore)', () => {
    const topology = readOnlyTopology()
      .addSource('source', 'inputTopic', { keyDeserializer: I, valueDeserializer: S })
      .addProcessor(
        'processor',
        () => {
          let context: ProcessorContext<number, string>
          let store: KeyValueStore<number, string>
          return {
            init(ctx: ProcessorContext<number, string>) {
              context = ctx
              store = ctx.getStateStore('readOnlyStore')
            },
            process(record: Record<number, string>) {
              context.forward(record.withValue(`${record.value} -- ${store.get(record.key)}`))
            }
          }
        },
        'source'
      )
      .connectProcessorAndStateStores('processor', 'readOnlyStore')
      .addSink('sink', 'outputTopic', { keySerializer: I, valueSerializer: S }, 'processor')
    const driver = new TopologyTestDriver(topology)
    try {
      const readOnlyStoreTopic = driver.createInputTopic('storeTopic', I, S)
      const input = driver.createInputTopic('inputTopic', I, S)
      const output = driver.createOutputTopic('outputTopic', I, S)
      readOnlyStoreTopic.pipeInput(1, 'foo')
      readOnlyStoreTopic.pipeInput(2, 'bar')
      input.pipeInput(1, 'bar')
      input.pipeInput(2, 'foo')
      const store = driver.getKeyValueStore<number, string>('readOnlyStore')!
      using all = store.all()
      expect([...all]).to.deep.equal([KeyValue.pair(1, 'foo'), KeyValue.pair(2, 'bar')])
      expect(output.readKeyValuesToList()).to.deep.equal([KeyValue.pair(1, 'bar -- foo'), KeyValue.pair(2, 'foo -- bar')])
      expect([...driver.producedTopicNames()]).to.deep.equal(['outputTopic'])
    } finally {
      driver.close()
    }
  })

  it('has its own sub-topology: the source and the processor with the store (TopologyTest.readOnlyStateStoresShouldHaveTheirOwnSubTopology)', () => {
    const description = new Topology()
      .addReadOnlyStateStore(
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), I, S),
        'source',
        {},
        'topic',
        'processor',
        storeUpdater('store')
      )
      .describe()
    expect(description.toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: source (topics: [topic])\n' +
        '      --> processor\n' +
        '    Processor: processor (stores: [store])\n' +
        '      --> none\n' +
        '      <-- source\n\n'
    )
    expect(description.globalStores).to.deep.equal([])
  })

  it('turns logging off and makes the source topic the changelog, read from the earliest offset (TopologyTest.readOnlyStateStoresShouldNotLog)', () => {
    const builder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), I, S)
    expect(builder.loggingEnabled).to.equal(true)
    const def = new Topology().addReadOnlyStateStore(builder, 'source', {}, 'topic', 'processor', storeUpdater('store'))[TOPOLOGY_DEF]()
    expect(builder.loggingEnabled).to.equal(false)
    expect(def.storeBuilders.get('store')!.loggingEnabled).to.equal(false)
    expect([...def.sourceChangelogs]).to.deep.equal([['store', 'topic']])
    const source = def.nodes.get('source')!
    expect(source.kind === 'source' && source.offsetReset).to.equal('earliest')
  })

  it('rejects a builder that logs and cannot turn logging off, naming the store', () => {
    const logging: StoreBuilder<StateStore> = {
      name: 'custom',
      loggingEnabled: true,
      logConfig: {},
      build: () => Stores.inMemoryKeyValueStore('custom').get()
    }
    expectCode(
      () => new Topology().addReadOnlyStateStore(logging, 'source', {}, 'topic', 'processor', storeUpdater('custom')),
      'TOPOLOGY_INVALID',
      'custom'
    )
  })

  it('rejects a taken store name, node name or topic without adding anything', () => {
    const builder = (name: string) => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), I, S)
    const topology = readOnlyTopology()
    expectCode(
      () => topology.addReadOnlyStateStore(builder('readOnlyStore'), 's2', {}, 't2', 'p2', storeUpdater('readOnlyStore')),
      'DUPLICATE_STORE',
      'readOnlyStore'
    )
    expectCode(
      () => topology.addReadOnlyStateStore(builder('x'), 's2', {}, 'storeTopic', 'p2', storeUpdater('x')),
      'DUPLICATE_TOPIC',
      'storeTopic'
    )
    expectCode(
      () => topology.addReadOnlyStateStore(builder('x'), 'readOnlySource', {}, 't2', 'p2', storeUpdater('x')),
      'DUPLICATE_NODE',
      'readOnlySource'
    )
    expectCode(() => topology.addReadOnlyStateStore(builder('x'), 'same', {}, 't2', 'same', storeUpdater('x')), 'DUPLICATE_NODE', 'same')
    expect(topology.describe().subtopologies).to.have.length(1)
    expect([...topology[TOPOLOGY_DEF]().nodes.keys()]).to.deep.equal(['readOnlySource', 'readOnlyProcessor'])
  })
})
