import { expect } from 'chai'
import { ManualClock } from '../../src/clock.js'
import { shouldRecord } from '../../src/metrics/recording-level.js'
import { SampledStat } from '../../src/metrics/sampled-stat.js'
import { Sensor } from '../../src/metrics/sensor.js'
import { StateStoreMetrics } from '../../src/metrics/state-store-metrics.js'
import { StreamsMetricsRegistry } from '../../src/metrics/streams-metrics-registry.js'
import { codeOf } from '../state/helpers/expect-code.js'

const config = { samples: 2, timeWindowMs: 1000 }

describe('SampledStat', () => {
  it('measures count, sum, avg, min and max over the retained samples', () => {
    const stat = new SampledStat(config)
    expect(stat.avg(0)).to.be.NaN
    expect(stat.max(0)).to.be.NaN
    expect(stat.min(0)).to.be.NaN
    stat.record(10, 0)
    stat.record(30, 500)
    stat.record(20, 1200) // second sample
    expect(stat.count(1200)).to.equal(3)
    expect(stat.avg(1200)).to.equal(20)
    expect(stat.max(1200)).to.equal(30)
    expect(stat.min(1200)).to.equal(10)
  })

  it('forgets a sample once it is samples * window old, and reuses the ring', () => {
    const stat = new SampledStat(config)
    stat.record(100, 0)
    stat.record(1, 1000)
    expect(stat.max(1999)).to.equal(100)
    expect(stat.max(2000)).to.equal(1) // the first sample expired
    stat.record(5, 2100) // overwrites the first slot
    expect(stat.count(2100)).to.equal(2)
    expect(stat.max(3000)).to.equal(5)
    expect(stat.count(5000)).to.equal(0)
  })

  it('computes a rate per second over the elapsed window, padded to samples - 1 windows (Kafka Rate)', () => {
    const stat = new SampledStat(config)
    stat.record(4, 0)
    // 100 ms elapsed, padded to one full window of 1000 ms: 4 events / 1.1 s
    expect(stat.ratePerSecond(100)).to.be.closeTo(4 / 1.1, 1e-9)
    stat.record(6, 1500)
    // 10 events over 1.5 s (a full window is already there)
    expect(stat.ratePerSecond(1500)).to.be.closeTo(10 / 1.5, 1e-9)
    expect(new SampledStat(config).ratePerSecond(0)).to.equal(0)
  })
})

describe('Sensor', () => {
  it('counts without reading a clock when its level is not recorded', () => {
    let reads = 0
    const clock = {
      milliseconds: () => {
        reads++
        return 0
      }
    }
    const sensor = new Sensor('put', { recording: false, clock, sampleConfig: config })
    const start = sensor.start()
    expect(start).to.equal(0)
    sensor.end(start)
    sensor.record(5)
    expect(sensor.count).to.equal(2)
    expect(reads).to.equal(0)
    expect(sensor.avg(0)).to.be.NaN
  })

  it('records latencies in nanoseconds when its level is recorded', () => {
    const clock = new ManualClock(0)
    const sensor = new Sensor('put', { recording: true, clock, sampleConfig: config })
    const start = sensor.start()
    const until = performance.now() + 0.05
    while (performance.now() < until) {
      /* spin ~50 us */
    }
    sensor.end(start)
    expect(sensor.count).to.equal(1)
    expect(sensor.max(0)).to.be.greaterThan(40_000)
    expect(sensor.avg(0)).to.equal(sensor.max(0))
  })

  it('folds counted events into its rate when the rate is measured', () => {
    const clock = new ManualClock(0)
    const sensor = new Sensor('put', { recording: false, clock, sampleConfig: config })
    for (let i = 0; i < 11; i++) sensor.end(sensor.start())
    // Attributed to a sample opened at the measurement (100 ms), padded to a 1 s window.
    expect(sensor.rate(100)).to.be.closeTo(11, 1e-9)
    expect(sensor.rate(600)).to.be.closeTo(11 / 1.5, 1e-9)
    sensor.end(sensor.start())
    expect(sensor.rate(1100)).to.be.closeTo(12 / 1.0, 1e-9)
    expect(sensor.rate(5000)).to.equal(0)
  })
})

describe('StreamsMetricsRegistry', () => {
  it('orders the recording levels INFO < DEBUG < TRACE', () => {
    expect(shouldRecord('INFO', 'DEBUG')).to.equal(false)
    expect(shouldRecord('DEBUG', 'DEBUG')).to.equal(true)
    expect(shouldRecord('TRACE', 'DEBUG')).to.equal(true)
    expect(shouldRecord('DEBUG', 'TRACE')).to.equal(false)
    expect(new StreamsMetricsRegistry().recordingLevel).to.equal('INFO')
    expect(codeOf(() => new StreamsMetricsRegistry({ recordingLevel: 'LOUD' as never }))).to.equal('INVALID_CONFIG')
  })

  it('reports state-store metrics under Kafka names, group and tags, and removes them with their scope', () => {
    const clock = new ManualClock(0)
    const registry = new StreamsMetricsRegistry({ clock, threadId: 'thread-1', recordingLevel: 'DEBUG', sampleConfig: config })
    const metrics = new StateStoreMetrics(registry, '0_1', 'in-memory', 'counts')
    const put = metrics.sensor('put')
    metrics.sensor('flush')
    put.record(100)
    put.record(300)
    const snapshot = registry.metrics()
    expect(snapshot.map(m => m.name)).to.deep.equal([
      'flush-latency-avg',
      'flush-latency-max',
      'flush-rate',
      'put-latency-avg',
      'put-latency-max',
      'put-rate'
    ])
    const byName = new Map(snapshot.map(m => [m.name, m]))
    expect(byName.get('put-latency-avg')!.value).to.equal(200)
    expect(byName.get('put-latency-max')!.value).to.equal(300)
    expect(byName.get('put-rate')!.value).to.be.closeTo(2, 1e-9) // 2 events over the padded 1 s window
    expect(byName.get('flush-latency-max')!.value).to.be.NaN
    expect(byName.get('put-rate')!.group).to.equal('stream-state-metrics')
    expect(byName.get('put-rate')!.tags).to.deep.equal({ 'thread-id': 'thread-1', 'task-id': '0_1', 'in-memory-state-id': 'counts' })
    expect(byName.get('put-rate')!.description).to.equal('The average number of calls to put per second')
    metrics.close()
    expect(registry.metrics()).to.deep.equal([])
  })

  it('returns the same sensor for the same scope and name, and replaces re-added metrics', () => {
    const registry = new StreamsMetricsRegistry()
    const a = new StateStoreMetrics(registry, '0_0', 'rocksdb', 's')
    expect(a.sensor('get')).to.equal(a.sensor('get'))
    expect(registry.metrics()).to.have.length(3)
    expect(registry.metrics()[0]!.tags).to.deep.equal({ 'thread-id': 'main', 'task-id': '0_0', 'rocksdb-state-id': 's' })
  })

  it('gives detached sensors when there is no registry', () => {
    const sensor = new StateStoreMetrics(undefined, '0_0', 'x', 's').sensor('put')
    expect(sensor.recording).to.equal(false)
    sensor.end(sensor.start())
    expect(sensor.count).to.equal(1)
  })
})
