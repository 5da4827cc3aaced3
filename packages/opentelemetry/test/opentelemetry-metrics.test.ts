import { expect } from 'chai'
import type { MetricSnapshot } from '@kstreams/core'
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics'
import { instrumentName, openTelemetryMetrics } from '../src/index.js'

/** A reader collecting on demand (the SDK's in-memory path, without an exporter's timer). */
class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

class FakeStreams {
  snapshots: MetricSnapshot[] = []
  metrics(): MetricSnapshot[] {
    return this.snapshots
  }
}

const snapshot = (group: string, name: string, tags: Record<string, string>, value: number): MetricSnapshot => ({
  group,
  name,
  tags,
  value,
  description: `${name} of ${group}`
})

async function collect(reader: TestReader): Promise<Map<string, MetricData>> {
  const { resourceMetrics, errors } = await reader.collect()
  expect(errors).to.deep.equal([])
  const out = new Map<string, MetricData>()
  for (const scope of resourceMetrics.scopeMetrics) for (const m of scope.metrics) out.set(m.descriptor.name, m)
  return out
}

function points(data: MetricData | undefined): Array<{ attributes: Record<string, unknown>; value: unknown }> {
  return (data?.dataPoints ?? []).map(p => ({ attributes: p.attributes, value: p.value }))
}

describe('@kstreams/opentelemetry', () => {
  const thread = { 'thread-id': 'app-StreamThread-1' }
  let provider: MeterProvider
  let reader: TestReader

  beforeEach(() => {
    reader = new TestReader({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
    provider = new MeterProvider({ readers: [reader] })
  })

  afterEach(async () => {
    await provider.shutdown()
  })

  it('names an instrument <prefix>.<group>.<name>', () => {
    expect(instrumentName({ group: 'stream-thread-metrics', name: 'process-total' })).to.equal(
      'kafka.streams.stream-thread-metrics.process-total'
    )
    expect(instrumentName({ group: 'g', name: 'n' }, 'app')).to.equal('app.g.n')
  })

  it('reports -total metrics as monotonic sums and the others as gauges, with Kafka tags as attributes, read at each collection', async () => {
    const streams = new FakeStreams()
    streams.snapshots = [
      snapshot('stream-thread-metrics', 'process-total', thread, 5),
      snapshot('stream-thread-metrics', 'process-rate', thread, 0.5),
      snapshot('stream-task-metrics', 'restore-remaining-records-total', { ...thread, 'task-id': '0_1' }, 7),
      snapshot('stream-thread-metrics', 'process-latency-avg', thread, Number.NaN)
    ]
    openTelemetryMetrics(streams, { meterProvider: provider })
    let data = await collect(reader)
    const total = data.get('kafka.streams.stream-thread-metrics.process-total')
    expect(total?.dataPointType).to.equal(DataPointType.SUM)
    expect(total?.dataPointType === DataPointType.SUM && total.isMonotonic).to.equal(true)
    expect(total?.descriptor.description).to.equal('process-total of stream-thread-metrics')
    expect(points(total)).to.deep.equal([{ attributes: thread, value: 5 }])
    expect(data.get('kafka.streams.stream-thread-metrics.process-rate')?.dataPointType).to.equal(DataPointType.GAUGE)
    expect(points(data.get('kafka.streams.stream-thread-metrics.process-rate'))).to.deep.equal([{ attributes: thread, value: 0.5 }])
    const remaining = data.get('kafka.streams.stream-task-metrics.restore-remaining-records-total')
    expect(remaining?.dataPointType).to.equal(DataPointType.GAUGE)
    // NaN (nothing recorded in the window) is not observed.
    expect(points(data.get('kafka.streams.stream-thread-metrics.process-latency-avg'))).to.deep.equal([])

    // A new value and a new member at the next collection; a new family from the one after.
    streams.snapshots = [
      snapshot('stream-thread-metrics', 'process-total', thread, 9),
      snapshot('stream-thread-metrics', 'process-total', { 'thread-id': 'app-StreamThread-2' }, 1),
      snapshot('stream-thread-metrics', 'commit-total', thread, 2)
    ]
    data = await collect(reader)
    expect(points(data.get('kafka.streams.stream-thread-metrics.process-total'))).to.deep.equal([
      { attributes: thread, value: 9 },
      { attributes: { 'thread-id': 'app-StreamThread-2' }, value: 1 }
    ])
    await new Promise(resolve => setImmediate(resolve))
    data = await collect(reader)
    expect(points(data.get('kafka.streams.stream-thread-metrics.commit-total'))).to.deep.equal([{ attributes: thread, value: 2 }])
  })

  it('close() stops reporting', async () => {
    const streams = new FakeStreams()
    streams.snapshots = [snapshot('stream-thread-metrics', 'process-total', thread, 5)]
    const exported = openTelemetryMetrics(streams, { meterProvider: provider, prefix: 'app' })
    expect(points((await collect(reader)).get('app.stream-thread-metrics.process-total'))).to.deep.equal([{ attributes: thread, value: 5 }])
    exported.close()
    exported.close()
    streams.snapshots = [snapshot('stream-thread-metrics', 'process-total', thread, 6)]
    expect(points((await collect(reader)).get('app.stream-thread-metrics.process-total'))).to.not.deep.include({
      attributes: thread,
      value: 6
    })
  })
})
