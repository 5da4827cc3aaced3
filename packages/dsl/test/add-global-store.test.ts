/**
 * StreamsBuilder.addGlobalStore (Kafka Streams' DSL variant of Topology.addGlobalStore): a user
 * store filled by a user processor from every partition of a topic. Ported from Kafka Streams'
 * StreamsBuilderTest (shouldAddGlobalStore, shouldUseSpecifiedNameForGlobalStoreProcessor,
 * shouldUseDefaultNameForGlobalStoreProcessor); logging is turned off as InternalStreamsBuilder does.
 */
import { expect } from 'chai'
import { Serdes, StreamsError } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext, Record, StateStore, StoreBuilder } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()

function putting(storeName: string): () => Processor<string, string, never, never> {
  return () => {
    let store: KeyValueStore<string, string>
    return {
      init(context: ProcessorContext<never, never>) {
        store = context.getStateStore(storeName)
      },
      process(record: Record<string, string>) {
        store.put(record.key, record.value)
      }
    }
  }
}

const storeBuilder = (name = 'store') => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), S, S)

describe('StreamsBuilder.addGlobalStore', () => {
  it('fills the store from the topic through the processor (StreamsBuilderTest.shouldAddGlobalStore)', () => {
    const builder = new StreamsBuilder()
    builder.addGlobalStore(storeBuilder(), 'topic', Consumed.with(S, S), putting('store'))
    const driver = new TopologyTestDriver(builder.build())
    try {
      driver.createInputTopic('topic', S, S).pipeInput('hey', 'there')
      expect(driver.getKeyValueStore<string, string>('store')!.get('hey')).to.equal('there')
    } finally {
      driver.close()
    }
  })

  it('names the nodes KSTREAM-SOURCE- and KTABLE-SOURCE- by default (StreamsBuilderTest.shouldUseDefaultNameForGlobalStoreProcessor)', () => {
    // Kafka prints a global store without the blank line that ends a sub-topology.
    const builder = new StreamsBuilder()
    builder.addGlobalStore(storeBuilder(), 'topic', Consumed.with(S, S), putting('store'))
    builder.stream('input', Consumed.with(S, S)).to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0 for global store (will not generate tasks)\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KTABLE-SOURCE-0000000001\n' +
        '    Processor: KTABLE-SOURCE-0000000001 (stores: [store])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000002 (topics: [input])\n' +
        '      --> KSTREAM-SINK-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000003 (topic: output)\n' +
        '      <-- KSTREAM-SOURCE-0000000002\n\n'
    )
  })

  it("names the nodes '<name>-source' and '<name>' after the Consumed, still drawing both indexes (StreamsBuilderTest.shouldUseSpecifiedNameForGlobalStoreProcessor)", () => {
    const builder = new StreamsBuilder()
    builder.addGlobalStore(storeBuilder(), 'topic', Consumed.with(S, S).withName('test'), putting('store'))
    builder.stream('input', Consumed.with(S, S)).to('output')
    const description = builder.build().describe()
    const global = description.globalStores[0]!
    expect([global.source.name, global.processor.name]).to.deep.equal(['test-source', 'test'])
    expect(description.subtopologies[0]!.nodes.map(n => n.name)).to.deep.equal(['KSTREAM-SOURCE-0000000002', 'KSTREAM-SINK-0000000003'])
  })

  it('turns logging off on the store builder: the topic is the changelog', () => {
    const builder = storeBuilder()
    expect(builder.loggingEnabled).to.equal(true)
    new StreamsBuilder().addGlobalStore(builder, 'topic', Consumed.with(S, S), putting('store')).build()
    expect(builder.loggingEnabled).to.equal(false)
  })

  it('rejects a store builder that logs and cannot turn logging off, a missing Consumed, and a taken topic', () => {
    const logging: StoreBuilder<StateStore> = {
      name: 'custom',
      loggingEnabled: true,
      logConfig: {},
      build: () => Stores.inMemoryKeyValueStore('custom').get()
    }
    const expectCode = (fn: () => unknown, code: string, mentions: string): void => {
      try {
        fn()
        expect.fail(`expected ${code}`)
      } catch (error) {
        expect(error).to.be.instanceOf(StreamsError)
        expect((error as StreamsError).code).to.equal(code)
        expect((error as StreamsError).message).to.contain(mentions)
      }
    }
    expectCode(
      () => new StreamsBuilder().addGlobalStore(logging, 'topic', Consumed.with(S, S), putting('custom')),
      'TOPOLOGY_INVALID',
      'custom'
    )
    expectCode(
      () =>
        new StreamsBuilder().addGlobalStore(storeBuilder(), 'topic', undefined as unknown as Consumed<string, string>, putting('store')),
      'TOPOLOGY_INVALID',
      'Consumed'
    )
    const builder = new StreamsBuilder()
    builder.stream('topic')
    expectCode(() => builder.addGlobalStore(storeBuilder(), 'topic', Consumed.with(S, S), putting('store')), 'DUPLICATE_TOPIC', 'topic')
  })
})
