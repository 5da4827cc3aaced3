/**
 * KTable.transformValues on the TopologyTestDriver: Kafka Streams' KTableTransformValuesTest
 * (same inputs and expected outputs; its mock-based unit tests observed through the public API:
 * transformer calls, describe(), joins reading the table's view, driver.close()), and the
 * transformValues cases of KTableImplTest.
 */
import { expect } from 'chai'
import { KeyValue, PunctuationType, Serdes, StreamsError } from '@kstreams/core'
import type { ProcessingContext, ProcessorContext, RecordMetadata, StreamsConfig } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { BufferConfig, Consumed, Grouped, Materialized, Named, Produced, StreamsBuilder, Suppressed, TimeWindows } from '../src/index.js'
import type { KTable, ValueTransformerWithKey, ValueTransformerWithKeySupplier } from '../src/index.js'
import { capture, readAll } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()
const QUERYABLE_NAME = 'queryable-store'
const INPUT_TOPIC = 'inputTopic'
const STORE_NAME = 'someStore'
const OTHER_STORE_NAME = 'otherStore'
const CONSUMED = Consumed.with(S, S)
/** KTableTransformValuesTest.props(): Integer default serdes. */
const PROPS: StreamsConfig = { defaultKeySerde: I, defaultValueSerde: I }

const storeBuilder = (name: string) => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.Long(), Serdes.Long())

/** Kafka's ExclamationValueTransformerSupplier: `key->value!`; init fails unless the expected stores are accessible. */
function exclamation(...expectedStoreNames: string[]): ValueTransformerWithKeySupplier<string, string, string> {
  return () => ({
    init(context) {
      const missing = expectedStoreNames.filter(name => {
        try {
          context.getStateStore(name)
          return false
        } catch {
          return true
        }
      })
      if (missing.length > 0) throw new Error(`State stores are not accessible: ${missing.join(', ')}`)
    },
    transform: (key, value) => `${key}->${String(value)}!`
  })
}

/** Kafka's StatefulTransformerSupplier: counts the calls of its instance. */
const statefulTransformer: ValueTransformerWithKeySupplier<string, string, number> = () => {
  let counter = 0
  return { transform: () => ++counter }
}

/** Kafka's StatelessTransformerSupplier: the value's length. */
const statelessTransformer: ValueTransformerWithKeySupplier<string, string, number> = () => ({
  transform: (_key, value) => (value === null ? null : value.length)
})

/** A transformer recording every call, and whether the call came with record metadata. */
function recording(): {
  supplier: ValueTransformerWithKeySupplier<string, string, string>
  calls: Array<[string, string | null]>
  metadata: Array<RecordMetadata | undefined>
  closed: number
  created: number
} {
  const state = {
    calls: [] as Array<[string, string | null]>,
    metadata: [] as Array<RecordMetadata | undefined>,
    closed: 0,
    created: 0,
    supplier: (): ValueTransformerWithKey<string, string, string> => {
      state.created++
      let context: ProcessingContext
      return {
        init(c) {
          context = c
        },
        transform(key, value) {
          state.calls.push([key, value])
          state.metadata.push(context.recordMetadata())
          return `${key}->${String(value)}!`
        },
        close() {
          state.closed++
        }
      }
    }
  }
  return state
}

describe('KTable.transformValues (KTableTransformValuesTest)', () => {
  let driver: TopologyTestDriver | undefined

  afterEach(() => {
    driver?.close()
    driver = undefined
  })

  it('shouldTransformValuesWithKey: each update through the transformer, which sees deletes; the result is not materialized', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .addStateStore(storeBuilder(STORE_NAME))
      .addStateStore(storeBuilder(OTHER_STORE_NAME))
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(exclamation(STORE_NAME, OTHER_STORE_NAME), STORE_NAME, OTHER_STORE_NAME)
      .toStream()
      .process(supplier)
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('A', 'a', 5)
    input.pipeInput('B', 'b', 10)
    input.pipeInput('D', null, 15)
    expect(processed).to.deep.equal([
      ['A', 'A->a!', 5],
      ['B', 'B->b!', 10],
      ['D', 'D->null!', 15]
    ])
    expect(driver.getKeyValueStore(QUERYABLE_NAME), 'Store should not be materialized').to.equal(undefined)
  })

  it('shouldTransformValuesWithKeyAndMaterialize: the result is stored, with its timestamps, and queryable', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .addStateStore(storeBuilder(STORE_NAME))
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(
        exclamation(STORE_NAME, QUERYABLE_NAME),
        Materialized.as<string, string>(QUERYABLE_NAME).withKeySerde(S).withValueSerde(S),
        STORE_NAME
      )
      .toStream()
      .process(supplier)
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('A', 'a', 5)
    input.pipeInput('B', 'b', 10)
    input.pipeInput('C', null, 15)
    expect(processed).to.deep.equal([
      ['A', 'A->a!', 5],
      ['B', 'B->b!', 10],
      ['C', 'C->null!', 15]
    ])
    const store = driver.getKeyValueStore<string, string>(QUERYABLE_NAME)!
    expect([store.get('A'), store.get('B'), store.get('C')]).to.deep.equal(['A->a!', 'B->b!', 'C->null!'])
    const timestamped = driver.getTimestampedKeyValueStore<string, string>(QUERYABLE_NAME)!
    expect([timestamped.get('A'), timestamped.get('B'), timestamped.get('C')].map(vt => [vt?.value, vt?.timestamp])).to.deep.equal([
      ['A->a!', 5],
      ['B->b!', 10],
      ['C->null!', 15]
    ])
  })

  it('shouldCalculateCorrectOldValuesIfMaterializedEvenIfStateful: old values come from the store, not from the transformer', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(statefulTransformer, Materialized.as<string, number>(QUERYABLE_NAME).withKeySerde(S).withValueSerde(I))
      .groupBy((key, value) => KeyValue.pair(key, value), Grouped.with(S, I))
      .reduce(
        (a, b) => a + b,
        (a, b) => a - b
      )
      .mapValues(v => String(v))
      .toStream()
      .process(supplier)
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('A', 'ignored', 5)
    input.pipeInput('A', 'ignored1', 15)
    input.pipeInput('A', 'ignored2', 10)
    expect(processed).to.deep.equal([
      ['A', '1', 5],
      ['A', '2', 15],
      ['A', '3', 15]
    ])
    expect(driver.getKeyValueStore<string, number>(QUERYABLE_NAME)!.get('A')).to.equal(3)
  })

  it('shouldCalculateCorrectOldValuesIfNotStatefulEvenIfNotMaterialized: old values are the transformed old values', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(statelessTransformer)
      .groupBy((key, value) => KeyValue.pair(key, value), Grouped.with(S, I))
      .reduce(
        (a, b) => a + b,
        (a, b) => a - b
      )
      .mapValues(v => String(v))
      .toStream()
      .process(supplier)
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('A', 'a', 5)
    input.pipeInput('A', 'aa', 15)
    input.pipeInput('A', 'aaa', 10)
    expect(processed).to.deep.equal([
      ['A', '1', 5],
      ['A', '2', 15],
      ['A', '3', 15]
    ])
  })

  it('shouldNotSendOldValuesByDefault: without a downstream need for old values the transformer sees each new value once', () => {
    const builder = new StreamsBuilder()
    const t = recording()
    builder.table(INPUT_TOPIC, CONSUMED).transformValues(t.supplier).toStream().to('out', Produced.with(S, S))
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('Key', 'oldValue', 1)
    input.pipeInput('Key', 'newValue', 2)
    expect(t.calls).to.deep.equal([
      ['Key', 'oldValue'],
      ['Key', 'newValue']
    ])
  })

  it('shouldSendOldValuesIfConfigured / shouldSetSendOldValuesOnParentIfNotMaterialized: the old value is transformed too, from the parent that now sends it', () => {
    const builder = new StreamsBuilder()
    const t = recording()
    const { supplier, processed } = capture<string, string>()
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(t.supplier)
      .groupBy((key, value) => KeyValue.pair(value, key), Grouped.with(S, S))
      .count()
      .toStream()
      .mapValues(v => String(v))
      .process(supplier)
    const topology = builder.build()
    // Asked for old values, the unmaterialized transformValues asked its parent: the source table is materialized.
    expect(topology.describe().toString()).to.contain(
      `Processor: KTABLE-SOURCE-0000000002 (stores: [${INPUT_TOPIC}-STATE-STORE-0000000000])`
    )
    driver = new TopologyTestDriver(topology, PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('Key', 'oldValue', 1)
    input.pipeInput('Key', 'newValue', 2)
    expect(t.calls).to.deep.equal([
      ['Key', 'oldValue'],
      ['Key', null],
      ['Key', 'newValue'],
      ['Key', 'oldValue']
    ])
    expect(processed).to.deep.equal([
      ['Key->oldValue!', '1', 1],
      ['Key->oldValue!', '0', 2],
      ['Key->newValue!', '1', 2]
    ])
  })

  it('shouldNotSetSendOldValuesOnParentIfMaterialized: a materialized result reads old values from its store; the parent stays unmaterialized', () => {
    const builder = new StreamsBuilder()
    const t = recording()
    const { supplier, processed } = capture<string, string>()
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(t.supplier, Materialized.as<string, string>(QUERYABLE_NAME).withValueSerde(S))
      .groupBy((key, value) => KeyValue.pair(value, key), Grouped.with(S, S))
      .count()
      .toStream()
      .mapValues(v => String(v))
      .process(supplier)
    const topology = builder.build()
    expect(topology.describe().toString()).to.contain('Processor: KTABLE-SOURCE-0000000002 (stores: [])')
    driver = new TopologyTestDriver(topology, PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    input.pipeInput('Key', 'oldValue', 1)
    input.pipeInput('Key', 'newValue', 2)
    expect(t.calls).to.deep.equal([
      ['Key', 'oldValue'],
      ['Key', 'newValue']
    ])
    expect(processed).to.deep.equal([
      ['Key->oldValue!', '1', 1],
      ['Key->oldValue!', '0', 2],
      ['Key->newValue!', '1', 2]
    ])
  })

  it('shouldTransformOnGetIfNotMaterialized / shouldGetStoreNamesFromParentIfNotMaterialized: a join reads the parent view, transformed, without record metadata', () => {
    const builder = new StreamsBuilder()
    const t = recording()
    const left = builder.table(INPUT_TOPIC, CONSUMED).transformValues(t.supplier)
    const right = builder.table('other', CONSUMED)
    left
      .join(right, (l, r) => `${l}|${r}`)
      .toStream()
      .to('joined', Produced.with(S, S))
    const topology = builder.build()
    // The join reads the parent's store (materialized for the view), not a store of transformValues.
    expect(topology.describe().toString()).to.contain(`(stores: [${INPUT_TOPIC}-STATE-STORE-0000000000])\n      --> KTABLE-MERGE`)
    driver = new TopologyTestDriver(topology, PROPS)
    driver.createInputTopic(INPUT_TOPIC, S, S).pipeInput('Key', 'Value', 73)
    driver.createInputTopic('other', S, S).pipeInput('Key', 'x', 42)
    expect(readAll(driver.createOutputTopic('joined', S, S))).to.deep.equal([['Key', 'Key->Value!|x', 73]])
    expect(t.calls).to.deep.equal([
      ['Key', 'Value'],
      ['Key', 'Value']
    ])
    // As a processor it runs under the input record; as a view, under none (Kafka's topic null, offset -1).
    expect(t.metadata).to.deep.equal([{ topic: INPUT_TOPIC, partition: 0, offset: 0 }, undefined])
  })

  it('shouldGetFromStateStoreIfMaterialized / shouldGetQueryableStoreNameIfMaterialized: a join reads the stored result, not a new transformation', () => {
    const builder = new StreamsBuilder()
    const left = builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(statefulTransformer, Materialized.as<string, number>(QUERYABLE_NAME).withValueSerde(I))
    const right = builder.table('other', CONSUMED)
    left
      .join(right, (l, r) => `${l}|${r}`)
      .toStream()
      .to('joined', Produced.with(S, S))
    const topology = builder.build()
    expect(topology.describe().toString()).to.contain(`(stores: [${QUERYABLE_NAME}])\n      --> KTABLE-MERGE`)
    driver = new TopologyTestDriver(topology, PROPS)
    driver.createInputTopic(INPUT_TOPIC, S, S).pipeInput('Key', 'ignored', 5)
    driver.createInputTopic('other', S, S).pipeInput('Key', 'x', 6)
    driver.createInputTopic('other', S, S).pipeInput('Key', 'y', 7)
    expect(readAll(driver.createOutputTopic('joined', S, S))).to.deep.equal([
      ['Key', '1|x', 6],
      ['Key', '1|y', 7]
    ])
  })

  it('shouldCloseTransformerOnProcessorClose / shouldCloseTransformerOnGetterClose / shouldCloseParentGetterClose', () => {
    // Every transformer that was initialised (the processor's, and those of the join's views of the table) is closed once.
    const instances: Array<{ inits: number; closes: number }> = []
    const supplier: ValueTransformerWithKeySupplier<string, string, string> = () => {
      const instance = { inits: 0, closes: 0 }
      instances.push(instance)
      return {
        init: () => void instance.inits++,
        transform: (_key, value) => value,
        close: () => void instance.closes++
      }
    }
    const builder = new StreamsBuilder()
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(supplier)
      .join(builder.table('other', CONSUMED), (l, r) => `${l}|${r}`)
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const initialised = instances.filter(i => i.inits > 0)
    expect(initialised.length).to.be.at.least(2)
    expect(initialised.every(i => i.inits === 1 && i.closes === 0)).to.equal(true)
    driver.close()
    driver = undefined
    expect(initialised.map(i => i.closes)).to.deep.equal(initialised.map(() => 1))
  })

  it('shouldThrowOnGetIfSupplierReturnsNull / shouldThrowOnViewGetIfSupplierReturnsNull: ILLEGAL_ARGUMENT naming the operator', () => {
    // As Kafka's InternalTopologyBuilder, the topology asks each processor supplier for two processors when it is added.
    const nullSupplier = (() => null) as unknown as ValueTransformerWithKeySupplier<string, string, string>
    const table = new StreamsBuilder().table(INPUT_TOPIC, CONSUMED)
    expect(() => table.transformValues(nullSupplier, Materialized.as<string, string>(QUERYABLE_NAME)))
      .to.throw(StreamsError, 'KTABLE-TRANSFORMVALUES-0000000003')
      .with.property('code', 'ILLEGAL_ARGUMENT')

    // The processor's transformers are fine; the ones for the join's view of the table are not.
    let armed = false
    const laterNull = (() =>
      armed ? null : { transform: (_k: string, v: string | null) => v }) as unknown as ValueTransformerWithKeySupplier<
      string,
      string,
      string
    >
    const builder = new StreamsBuilder()
    const transformed = builder.table(INPUT_TOPIC, CONSUMED).transformValues(laterNull)
    const other = builder.table('other', CONSUMED)
    armed = true
    expect(() => transformed.join(other, (l, r) => `${l}|${r}`))
      .to.throw(StreamsError, 'KTABLE-TRANSFORMVALUES-0000000003')
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('shouldInitializeTransformerWithForwardDisabledProcessorContext: forwarding from transform or from a punctuator throws ILLEGAL_STATE', () => {
    const forwarding: ValueTransformerWithKeySupplier<string, string, string> = () => {
      let context: ProcessingContext
      return {
        init(c) {
          context = c
          expect('forward' in c && typeof (c as Partial<ProcessorContext>).forward).to.equal('function')
          c.schedule(10, PunctuationType.STREAM_TIME, () => {
            ;(context as ProcessorContext<string, string>).forward(null as never)
          })
        },
        transform(_key, value) {
          if (value === 'forward') (context as ProcessorContext<string, string>).forward(null as never)
          return value
        }
      }
    }
    const builder = new StreamsBuilder()
    builder.table(INPUT_TOPIC, CONSUMED).transformValues(forwarding).toStream().to('out', Produced.with(S, S))
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const input = driver.createInputTopic(INPUT_TOPIC, S, S)
    expect(() => input.pipeInput('A', 'forward', 0))
      .to.throw(StreamsError, 'forward() is not supported from this context')
      .with.property('code', 'ILLEGAL_STATE')
    driver.close()

    // The punctuator fires once stream time is known (aligned to 0).
    driver = new TopologyTestDriver(builder.build(), PROPS)
    const again = driver.createInputTopic(INPUT_TOPIC, S, S)
    expect(() => again.pipeInput('A', 'a', 0))
      .to.throw(StreamsError, 'forward() is not supported from this context')
      .with.property('code', 'ILLEGAL_STATE')
  })
})

describe('KTable.transformValues (KTableImplTest, arguments and describe())', () => {
  const exclaim = exclamation()

  it('the result keeps the key serde and has no value serde; a Materialized without a name gives serdes and no store', () => {
    const run = (transform: (table: KTable<string, string>) => KTable<string, string>): Array<[string | null, string | null, number]> => {
      const builder = new StreamsBuilder()
      transform(builder.table(INPUT_TOPIC, CONSUMED)).toStream().to('output')
      const driver = new TopologyTestDriver(builder.build(), PROPS)
      try {
        expect(driver.getAllStateStores().size).to.equal(0)
        driver.createInputTopic(INPUT_TOPIC, S, S).pipeInput('A', 'a', 1)
        return readAll(driver.createOutputTopic('output', S, S))
      } finally {
        driver.close()
      }
    }
    // Without a Materialized the value serde is not the parent's String serde but the default (Integer) one.
    expect(() => run(table => table.transformValues(exclaim)))
      .to.throw(StreamsError, 'IntegerSerializer')
      .with.property('code', 'SERIALIZATION')
    expect(run(table => table.transformValues(exclaim, Materialized.with(S, S)))).to.deep.equal([['A', 'A->a!', 1]])
  })

  it('suppress(untilWindowCloses) after transformValues of a windowed aggregation finds its grace upstream (GraphGraceSearchUtil)', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in', CONSUMED)
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .count()
      .transformValues(() => ({ transform: (_key, count) => (count === null ? null : count * 100) }))
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start}`, String(v)))
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build(), PROPS)
    try {
      const input = driver.createInputTopic('in', S, S)
      input.pipeInput('k', 'a', 1)
      input.pipeInput('k', 'b', 2)
      input.pipeInput('k', 'c', 14)
      expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([])
      input.pipeInput('k', 'd', 15)
      expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([['k@0', '200', 2]])
    } finally {
      driver.close()
    }
  })

  it('describe(): KTABLE-TRANSFORMVALUES- named as in Kafka; a named store, connected stores, Named', () => {
    const builder = new StreamsBuilder()
    builder.addStateStore(storeBuilder(STORE_NAME)).addStateStore(storeBuilder(OTHER_STORE_NAME))
    const table = builder.table(INPUT_TOPIC, CONSUMED)
    table.transformValues(exclaim, Materialized.as<string, string>(QUERYABLE_NAME), STORE_NAME).toStream().to('output')
    table.transformValues(exclaim, Named.as('transformer'), STORE_NAME, OTHER_STORE_NAME)
    table.transformValues(exclaim, Materialized.with(S, S), Named.as('unnamed-store'))
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [inputTopic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-TRANSFORMVALUES-0000000003, transformer, unnamed-store\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-TRANSFORMVALUES-0000000003 (stores: [someStore, queryable-store])\n' +
        '      --> KTABLE-TOSTREAM-0000000004\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-TOSTREAM-0000000004 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KTABLE-TRANSFORMVALUES-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000004\n' +
        '    Processor: transformer (stores: [someStore, otherStore])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '    Processor: unnamed-store (stores: [])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n\n'
    )
  })

  it('shouldThrowNullPointerOnTransformValuesWithKey...: a supplier that is not a function, a misplaced argument or a store name that is not a string is ILLEGAL_ARGUMENT', () => {
    const table = new StreamsBuilder().table<string, string>(INPUT_TOPIC, CONSUMED)
    const code = (fn: () => unknown): unknown => {
      try {
        fn()
      } catch (error) {
        return (error as StreamsError).code
      }
      return 'none'
    }
    expect(code(() => table.transformValues(null as never))).to.equal('ILLEGAL_ARGUMENT')
    expect(code(() => table.transformValues(exclaim, Named.as('n'), Materialized.as('m') as never))).to.equal('ILLEGAL_ARGUMENT')
    expect(code(() => table.transformValues(exclaim, null as never))).to.equal('ILLEGAL_ARGUMENT')
    // A store that was never added is the topology's error.
    expect(code(() => table.transformValues(exclaim, 'missing'))).to.equal('UNKNOWN_STORE')
  })
})
