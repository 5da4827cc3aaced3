import { expect } from 'chai'
import { ManualClock } from '../../src/clock.js'
import { KeyValue } from '../../src/key-value.js'
import { StreamsMetricsRegistry } from '../../src/metrics/streams-metrics-registry.js'
import type { RecordingLevel } from '../../src/metrics/recording-level.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { CachingKeyValueStore } from '../../src/state/caching-key-value-store.js'
import { MeteredKeyValueStore } from '../../src/state/metered-key-value-store.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

function open(recordingLevel: RecordingLevel) {
  const clock = new ManualClock(0)
  const metrics = new StreamsMetricsRegistry({ recordingLevel, clock, threadId: 't1' })
  const context = new LayerTestContext({ metrics })
  const store = new MeteredKeyValueStore<string, number>({
    inner: new SimpleBytesStore('counts'),
    metricsScope: 'in-memory',
    keySerde: stringSerde,
    valueSerde: intSerde
  })
  store.init(context, store)
  const value = (name: string): number => {
    const metric = metrics.metrics().find(m => m.name === name)
    if (metric === undefined) throw new Error(`no metric ${name}`)
    return metric.value
  }
  return { metrics, store, value }
}

describe('MeteredKeyValueStore metrics', () => {
  it('registers rate and latency metrics for every operation, tagged with thread, task and store', () => {
    const { metrics } = open('INFO')
    const names = new Set(metrics.metrics().map(m => m.name))
    for (const op of ['put', 'put-if-absent', 'put-all', 'get', 'delete', 'range', 'prefix-scan', 'all', 'flush', 'restore']) {
      for (const suffix of ['rate', 'latency-avg', 'latency-max']) expect(names.has(`${op}-${suffix}`), `${op}-${suffix}`).to.equal(true)
    }
    for (const m of metrics.metrics()) {
      expect(m.group).to.equal('stream-state-metrics')
      expect(m.tags).to.deep.equal({ 'thread-id': 't1', 'task-id': '0_0', 'in-memory-state-id': 'counts' })
    }
  })

  it('at INFO counts operations into rates but records no latency (state-store latencies are DEBUG)', () => {
    const { store, value } = open('INFO')
    store.put('a', 1)
    store.put('b', 2)
    store.get('a')
    expect(value('put-rate')).to.be.greaterThan(0)
    expect(value('get-rate')).to.be.greaterThan(0)
    expect(value('delete-rate')).to.equal(0)
    expect(value('put-latency-avg')).to.be.NaN
    expect(value('put-latency-max')).to.be.NaN
  })

  it('at DEBUG records the latency of each operation in nanoseconds, serialization included', () => {
    const { store, value } = open('DEBUG')
    store.put('a', 1)
    store.putIfAbsent('b', 2)
    store.putAll([new KeyValue('c', 3)])
    store.get('a')
    store.delete('a')
    store.flush()
    for (const op of ['put', 'put-if-absent', 'put-all', 'get', 'delete', 'flush', 'restore']) {
      expect(value(`${op}-latency-max`), op).to.be.greaterThan(0)
      expect(value(`${op}-latency-avg`), op).to.be.lessThan(1e9)
    }
    expect(value('range-latency-max')).to.be.NaN
  })

  it('times range, all and prefix-scan iterators from creation to close, once', () => {
    const { store, value } = open('DEBUG')
    store.put('a', 1)
    const it = store.range('a', 'z')
    expect(value('range-latency-max')).to.be.NaN
    it.close()
    it.close()
    const all = store.reverseAll()
    for (const _ of all) {
      /* exhausting does not close */
    }
    all.close()
    store.prefixScan('a', stringSerde.serializer()).close()
    expect(value('range-latency-max')).to.be.greaterThan(0)
    expect(value('all-latency-max')).to.be.greaterThan(0)
    expect(value('prefix-scan-latency-max')).to.be.greaterThan(0)
    expect(value('range-rate')).to.be.closeTo(1 / 30, 1e-9) // one iterator over the padded 30 s window
  })

  it("removes the store's metrics when it closes", () => {
    const { metrics, store } = open('DEBUG')
    store.close()
    expect(metrics.metrics()).to.deep.equal([])
  })

  it('passes a deserializing flush listener to a caching layer, and reports false without one', () => {
    const cache = new ThreadCache({ maxCacheSizeBytes: 10_000 })
    const context = new LayerTestContext({ cache })
    const store = new MeteredKeyValueStore<string, number>({
      inner: new CachingKeyValueStore(new SimpleBytesStore('counts')),
      metricsScope: 'in-memory',
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    store.init(context, store)
    const seen: Array<[string, number | null, number | null, number]> = []
    expect(
      store.setFlushListener((k, n, o, ts) => {
        seen.push([k, n, o, ts])
      }, true)
    ).to.equal(true)
    context.at(3)
    store.put('a', 1)
    store.flush()
    context.at(4)
    store.put('a', 2)
    store.flush()
    expect(seen).to.deep.equal([
      ['a', 1, null, 3],
      ['a', 2, 1, 4]
    ])
    const { store: uncached } = open('INFO')
    expect(uncached.setFlushListener(() => {}, false)).to.equal(false)
  })
})
