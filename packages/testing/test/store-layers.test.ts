import { expect } from 'chai'
import {
  type Record,
  Serdes,
  Topology,
  ValueAndTimestamp,
  type KeyValueStore,
  type KeyValueStoreBuilder,
  type ProcessorContext,
  type TimestampedKeyValueStore,
  type TimestampedKeyValueStoreBuilder
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { MockProcessorContext, TopologyTestDriver } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()
const CHANGELOG = 'dummy-topology-test-driver-app-id-counts-changelog'

type Builder = KeyValueStoreBuilder<string, number> | TimestampedKeyValueStoreBuilder<string, number>

/**
 * Counts values per key in the store "counts". A value "x3" adds 1 three times within one
 * process call; a value "del" deletes the key.
 */
function counting(builder: Builder, timestamped = false): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let ctx: ProcessorContext<string, number>
        return {
          init(c: ProcessorContext<string, number>) {
            ctx = c
          },
          process(r: Record<string, string>) {
            const times = r.value === 'x3' ? 3 : 1
            for (let i = 0; i < times; i++) {
              if (timestamped) {
                const store = ctx.getStateStore<TimestampedKeyValueStore<string, number>>('counts')
                if (r.value === 'del') store.delete(r.key)
                else store.put(r.key, ValueAndTimestamp.make((store.get(r.key)?.value ?? 0) + 1, r.timestamp))
              } else {
                const store = ctx.getStateStore<KeyValueStore<string, number>>('counts')
                if (r.value === 'del') store.delete(r.key)
                else store.put(r.key, (store.get(r.key) ?? 0) + 1)
              }
            }
          }
        }
      },
      'source'
    )
    .addStateStore(builder, 'count')
}

const kvBuilder = (): KeyValueStoreBuilder<string, number> => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, L)

describe('TopologyTestDriver store layers', () => {
  it('captures changelog records on <applicationId>-<store>-changelog, with the keys, values and timestamps of the writes', () => {
    const driver = new TopologyTestDriver(counting(kvBuilder()))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 100)
    input.pipeInput('b', 'v', 200)
    input.pipeInput('a', 'v', 300)
    input.pipeInput('b', 'del', 400)
    expect(driver.producedTopicNames()).to.deep.equal(new Set([CHANGELOG]))
    const changelog = driver.createOutputTopic(CHANGELOG, S, L)
    expect(changelog.readRecordsToList().map(r => [r.key, r.value, r.timestamp])).to.deep.equal([
      ['a', 1, 100],
      ['b', 1, 200],
      ['a', 2, 300],
      ['b', null, 400]
    ])
    const store = driver.getKeyValueStore<string, number>('counts')!
    expect([...store.all()].map(kv => [kv.key, kv.value])).to.deep.equal([['a', 2]])
    driver.close()
  })

  it('logs a timestamped store as plain values stamped with the stored timestamp', () => {
    const builder = Stores.timestampedKeyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, L)
    const driver = new TopologyTestDriver(counting(builder, true))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('a', 'v', 20)
    const changelog = driver.createOutputTopic(CHANGELOG, S, L)
    expect(changelog.readRecordsToList().map(r => [r.key, r.value, r.timestamp])).to.deep.equal([
      ['a', 1, 10],
      ['a', 2, 20]
    ])
    expect(driver.getTimestampedKeyValueStore<string, number>('counts')!.get('a')).to.deep.equal(ValueAndTimestamp.make(2, 20))
    driver.close()
  })

  it('with caching, collapses several updates within one process call into one changelog record', () => {
    const uncached = new TopologyTestDriver(counting(kvBuilder()))
    uncached.createInputTopic('input', S, S).pipeInput('a', 'x3', 5)
    expect(uncached.createOutputTopic(CHANGELOG, S, L).readValuesToList()).to.deep.equal([1, 2, 3])
    uncached.close()

    const cached = new TopologyTestDriver(counting(kvBuilder().withCachingEnabled()))
    const input = cached.createInputTopic('input', S, S)
    input.pipeInput('a', 'x3', 5)
    input.pipeInput('b', 'v', 6)
    input.pipeInput('a', 'x3', 7)
    const changelog = cached.createOutputTopic(CHANGELOG, S, L)
    expect(changelog.readRecordsToList().map(r => [r.key, r.value, r.timestamp])).to.deep.equal([
      ['a', 3, 5],
      ['b', 1, 6],
      ['a', 6, 7]
    ])
    expect(cached.getKeyValueStore<string, number>('counts')!.get('a')).to.equal(6)
    cached.close()
  })

  it('with caching and a zero cache budget, every write goes through at once', () => {
    const driver = new TopologyTestDriver(counting(kvBuilder().withCachingEnabled()), { statestoreCacheMaxBytes: 0 })
    driver.createInputTopic('input', S, S).pipeInput('a', 'x3', 5)
    expect(driver.createOutputTopic(CHANGELOG, S, L).readValuesToList()).to.deep.equal([1, 2, 3])
    driver.close()
  })

  it('withLoggingDisabled() produces no changelog topic', () => {
    const driver = new TopologyTestDriver(counting(kvBuilder().withLoggingDisabled().withCachingEnabled()))
    driver.createInputTopic('input', S, S).pipeInput('a', 'v', 1)
    expect(driver.producedTopicNames()).to.deep.equal(new Set())
    expect(driver.createOutputTopic(CHANGELOG, S, L).isEmpty()).to.equal(true)
    expect(driver.getKeyValueStore<string, number>('counts')!.get('a')).to.equal(1)
    driver.close()
  })

  it('writes from the test through a store are logged when the driver commits (on close)', () => {
    const driver = new TopologyTestDriver(counting(kvBuilder().withCachingEnabled()))
    const store = driver.getKeyValueStore<string, number>('counts')!
    store.put('z', 9)
    const changelog = driver.createOutputTopic(CHANGELOG, S, L)
    expect(changelog.isEmpty()).to.equal(true)
    driver.close()
    expect(changelog.readKeyValuesToList().map(kv => [kv.key, kv.value])).to.deep.equal([['z', 9]])
  })

  it('a cached, logged store works with MockProcessorContext: no record cache (writes go through), no changelog', () => {
    const context = new MockProcessorContext()
    const store = kvBuilder().withCachingEnabled().build()
    store.init(context.getStateStoreContext(), store)
    store.put('a', 1)
    expect(store.get('a')).to.equal(1)
    expect([...store.all()].map(kv => kv.key)).to.deep.equal(['a'])
    store.close()
  })

  it('reports store metrics under Kafka names and tags through metrics(), until the store closes', () => {
    const driver = new TopologyTestDriver(counting(kvBuilder().withCachingEnabled()))
    driver.createInputTopic('input', S, S).pipeInput('a', 'x3', 1)
    const metrics = driver.metrics()
    const putRate = metrics.find(m => m.name === 'put-rate' && m.group === 'stream-state-metrics')!
    expect(putRate.tags).to.deep.equal({ 'thread-id': 'main', 'task-id': '0_0', 'in-memory-state-id': 'counts' })
    expect(putRate.value).to.be.greaterThan(0)
    expect(metrics.find(m => m.name === 'get-rate')!.value).to.be.greaterThan(0)
    expect(metrics.find(m => m.name === 'flush-rate')!.value).to.be.greaterThan(0)
    expect(metrics.find(m => m.name === 'delete-rate')!.value).to.equal(0)
    // Latencies are DEBUG-level metrics; the driver records at INFO unless configured otherwise.
    expect(metrics.find(m => m.name === 'put-latency-max')!.value).to.be.NaN
    const hitRatio = metrics.filter(m => m.group === 'stream-record-cache-metrics').map(m => m.name)
    expect(hitRatio).to.deep.equal(['hit-ratio-avg', 'hit-ratio-max', 'hit-ratio-min'])
    driver.close()
    expect(driver.metrics()).to.deep.equal([])
  })
})
