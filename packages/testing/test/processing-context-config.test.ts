/**
 * What ProcessingContext and StateStoreContext expose of the config and the metrics (Kafka
 * Streams' keySerde(), valueSerde(), appConfigs(), appConfigsWithPrefix(), metrics()), on the
 * TopologyTestDriver's task contexts and on MockProcessorContext, and the ContextualProcessor
 * base class (Kafka's ContextualProcessor) on both.
 */
import { expect } from 'chai'
import {
  ConfigError,
  ContextualProcessor,
  Record,
  Serdes,
  StreamsError,
  Topology,
  type ProcessingContext,
  type Processor,
  type ProcessorContext,
  type StateStore,
  type StateStoreContext,
  type StreamsConfig,
  type StreamsSensor
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { MockProcessorContext, TopologyTestDriver } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()

/** What a processor saw of its context in init(). */
interface Seen {
  keySerde?: unknown
  valueSerde?: unknown
  rocksdb?: unknown
  withDefault?: unknown
  serdeError?: unknown
  storeKeySerde?: unknown
  storeValueSerde?: unknown
  storePrefixed?: unknown
}

/** Reads everything in init, from its own context and from its store's. */
function observer(seen: Seen): () => Processor<string, string> {
  return () => ({
    init(context: ProcessingContext) {
      seen.rocksdb = context.appConfigsWithPrefix('rocksdb')
      seen.withDefault = context.appConfigsWithPrefix('default')
      try {
        seen.keySerde = context.keySerde()
        seen.valueSerde = context.valueSerde()
      } catch (error) {
        seen.serdeError = error
      }
    },
    process() {}
  })
}

/** A store that remembers what its StateStoreContext said at init. */
class ObservingStore implements StateStore {
  readonly persistent = false
  #open = false
  constructor(
    readonly name: string,
    readonly seen: Seen
  ) {}
  init(context: StateStoreContext): void {
    this.seen.storePrefixed = context.appConfigsWithPrefix?.('metrics')
    try {
      this.seen.storeKeySerde = context.keySerde?.()
      this.seen.storeValueSerde = context.valueSerde?.()
    } catch (error) {
      this.seen.serdeError = error
    }
    this.#open = true
  }
  flush(): void {}
  close(): void {
    this.#open = false
  }
  isOpen(): boolean {
    return this.#open
  }
}

function topology(seen: Seen): Topology {
  return new Topology()
    .addSource('in', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('p', observer(seen), 'in')
    .addStateStore({ name: 'observing', build: () => new ObservingStore('observing', seen), loggingEnabled: false, logConfig: {} }, 'p')
}

describe('ProcessingContext and StateStoreContext: keySerde, valueSerde, appConfigsWithPrefix', () => {
  const config: StreamsConfig = { defaultKeySerde: S, defaultValueSerde: L, rocksdbBlockCacheBytes: 1024, metricsRecordingLevel: 'DEBUG' }

  it('the TopologyTestDriver: the default serdes of the config; the entries under a prefix, the prefix stripped', () => {
    const seen: Seen = {}
    const driver = new TopologyTestDriver(topology(seen), config)
    try {
      expect(seen.keySerde).to.equal(S)
      expect(seen.valueSerde).to.equal(L)
      expect(seen.storeKeySerde).to.equal(S)
      expect(seen.storeValueSerde).to.equal(L)
      expect(seen.rocksdb).to.deep.equal({ blockCacheBytes: 1024, writeBufferBytes: 64 * 1024 * 1024 })
      expect(seen.withDefault).to.deep.equal({
        keySerde: S,
        valueSerde: L,
        apiTimeoutMs: 60000
      })
      expect(seen.storePrefixed).to.deep.equal({ recordingLevel: 'DEBUG' })
    } finally {
      driver.close()
    }
  })

  it('without default serdes, keySerde() is a ConfigError naming defaultKeySerde (Kafka: a ConfigException)', () => {
    const seen: Seen = {}
    const driver = new TopologyTestDriver(topology(seen), {})
    try {
      expect(seen.serdeError).to.be.instanceOf(ConfigError)
      expect((seen.serdeError as ConfigError).key).to.equal('defaultKeySerde')
    } finally {
      driver.close()
    }
    const mock = new MockProcessorContext({ defaultKeySerde: S })
    expect(mock.keySerde()).to.equal(S)
    expect(() => mock.valueSerde())
      .to.throw(ConfigError)
      .with.property('key', 'defaultValueSerde')
    expect(() => mock.getStateStoreContext().valueSerde!())
      .to.throw(ConfigError)
      .with.property('key', 'defaultValueSerde')
  })

  it('MockProcessorContext and its store context read the same config', () => {
    const mock = new MockProcessorContext(config)
    expect(mock.keySerde()).to.equal(S)
    expect(mock.valueSerde()).to.equal(L)
    expect(mock.appConfigsWithPrefix('rocksdb')).to.deep.equal({ blockCacheBytes: 1024, writeBufferBytes: 64 * 1024 * 1024 })
    expect(mock.appConfigsWithPrefix('nothing')).to.deep.equal({})
    // A key equal to the prefix is not under it.
    expect(mock.appConfigsWithPrefix('applicationId')).to.deep.equal({})
    const storeContext = mock.getStateStoreContext()
    expect(storeContext.keySerde!()).to.equal(S)
    expect(storeContext.appConfigsWithPrefix!('rocksdb')).to.deep.equal(mock.appConfigsWithPrefix('rocksdb'))
    // The layers of a built store hand the inner stores a context that answers the same.
    const seen: Seen = {}
    new ObservingStore('direct', seen).init(storeContext)
    expect(seen.storeValueSerde).to.equal(L)
  })
})

describe('ProcessingContext.metrics(): StreamsMetrics with custom sensors', () => {
  it('a processor adds a latency/rate/total sensor; its metrics appear in the driver metrics under Kafka names and tags', () => {
    const topologyWithSensor = new Topology().addSource('in', 'input', { keyDeserializer: S, valueDeserializer: S }).addProcessor(
      'p',
      () => {
        let sensor: StreamsSensor
        return {
          init(context: ProcessingContext) {
            sensor = context.metrics().addLatencyRateTotalSensor('my-scope', 'my-entity', 'lookup', 'INFO', 'extra', 'tag')
            expect(sensor.shouldRecord()).to.equal(true)
          },
          process(record: Record<string, string>) {
            sensor.record(Number(record.value))
          }
        }
      },
      'in'
    )
    const driver = new TopologyTestDriver(topologyWithSensor)
    try {
      const input = driver.createInputTopic('input', S, S)
      input.pipeInput('a', '10')
      input.pipeInput('b', '30')
      const mine = driver.metrics().filter(m => m.group === 'stream-my-scope-metrics')
      expect(mine.map(m => m.name).sort()).to.deep.equal(['lookup-latency-avg', 'lookup-latency-max', 'lookup-rate', 'lookup-total'])
      for (const m of mine) expect(m.tags).to.deep.equal({ 'thread-id': 'main', 'my-scope-id': 'my-entity', extra: 'tag' })
      const value = (name: string) => mine.find(m => m.name === name)!.value
      expect(value('lookup-total')).to.equal(2)
      expect(value('lookup-latency-avg')).to.equal(20)
      expect(value('lookup-latency-max')).to.equal(30)
      expect(value('lookup-rate')).to.be.greaterThan(0)
    } finally {
      driver.close()
    }
  })

  it('a sensor above the recording level records nothing; removeSensor removes its metrics; tags must come in pairs', () => {
    const mock = new MockProcessorContext({ metricsRecordingLevel: 'INFO' })
    const metrics = mock.metrics()
    const rate = metrics.addRateTotalSensor('cache', 'c1', 'hit', 'TRACE')
    expect(rate.shouldRecord()).to.equal(false)
    rate.record()
    const hits = metrics.metrics().filter(m => m.name === 'hit-total')
    expect(hits.map(m => m.value)).to.deep.equal([0])
    expect(metrics.metrics().map(m => m.name)).to.not.include('hit-latency-avg')
    const debug = metrics.addRateTotalSensor('cache', 'c1', 'miss', 'DEBUG')
    debug.record()
    expect(metrics.metrics().find(m => m.name === 'miss-total')!.value).to.equal(1)
    metrics.removeSensor(debug)
    expect(metrics.metrics().map(m => m.name)).to.not.include('miss-total')
    expect(() => metrics.addLatencyRateTotalSensor('cache', 'c1', 'x', 'INFO', 'odd'))
      .to.throw(StreamsError, 'key-value pairs')
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => metrics.addRateTotalSensor('cache', 'c1', 'x', 'VERBOSE' as never))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})

/** Kafka's ContextualProcessor in use: forwards the uppercased value through context(). */
class Upper extends ContextualProcessor<string, string, string, string> {
  override init(context: ProcessorContext<string, string>): void {
    super.init(context)
  }
  process(record: Record<string, string>): void {
    this.context().forward(record.withValue(record.value.toUpperCase()))
  }
}

describe('ContextualProcessor', () => {
  it('keeps the context init() gave it: forwards through context() on the TopologyTestDriver', () => {
    const t = new Topology()
      .addSource('in', 'input', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('upper', () => new Upper(), 'in')
      .addSink('out', 'output', { keySerializer: S, valueSerializer: S }, 'upper')
    const driver = new TopologyTestDriver(t)
    try {
      driver.createInputTopic('input', S, S).pipeInput('k', 'value', 5)
      expect(driver.createOutputTopic('output', S, S).readKeyValuesToList()).to.deep.equal([{ key: 'k', value: 'VALUE' }])
    } finally {
      driver.close()
    }
  })

  it('on a MockProcessorContext; context() before init() is an ILLEGAL_STATE error naming the class', () => {
    const processor = new Upper()
    expect(() => processor.process(new Record('k', 'v', 0)))
      .to.throw(StreamsError, 'Upper.context() was called before init()')
      .with.property('code', 'ILLEGAL_STATE')
    const mock = new MockProcessorContext<string, string>()
    processor.init(mock)
    processor.process(new Record('k', 'v', 0))
    expect(mock.forwarded().map(f => [f.record.key, f.record.value])).to.deep.equal([['k', 'V']])
  })

  it('the layers of a store stack hand the store below a context that answers keySerde and valueSerde too', () => {
    const mock = new MockProcessorContext({ defaultKeySerde: S, defaultValueSerde: L })
    const inMemory = Stores.inMemoryKeyValueStore('kv')
    const seen: Seen = {}
    const supplier = {
      name: 'kv',
      metricsScope: inMemory.metricsScope,
      get: () => {
        const bytes = inMemory.get()
        const init = bytes.init.bind(bytes)
        bytes.init = (context, root) => {
          seen.storeKeySerde = context.keySerde?.()
          seen.storeValueSerde = context.valueSerde?.()
          seen.storePrefixed = context.appConfigsWithPrefix?.('rocksdb')
          return init(context, root)
        }
        return bytes
      }
    }
    const store = Stores.keyValueStoreBuilder(supplier, S, L).withCachingEnabled().withLoggingEnabled().build()
    store.init(mock.getStateStoreContext(), store)
    expect(seen.storeKeySerde).to.equal(S)
    expect(seen.storeValueSerde).to.equal(L)
    expect(seen.storePrefixed).to.deep.equal(mock.appConfigsWithPrefix('rocksdb'))
  })
})
