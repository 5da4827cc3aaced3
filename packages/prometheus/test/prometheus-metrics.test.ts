import { expect } from 'chai'
import { request } from 'node:http'
import {
  type KeyValueStore,
  type MetricSnapshot,
  type ProcessorContext,
  type Record as StreamsRecord,
  Serdes,
  Topology,
  type StreamsConfig
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Registry } from 'prom-client'
import { prometheusLabelName, prometheusMetrics, prometheusName, startMetricsServer } from '../src/index.js'

const S = Serdes.String()

function snapshot(group: string, name: string, tags: Record<string, string>, value: number): MetricSnapshot {
  return { group, name, tags, value, description: `${name} of ${group}` }
}

/** A metrics source whose snapshots the test sets. */
class FakeStreams {
  snapshots: MetricSnapshot[] = []
  metrics(): MetricSnapshot[] {
    return this.snapshots
  }
}

/** `input` -> `counter` (counts per key in the `counts` store) -> `output`. */
function countingTopology(): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'counter',
      () => {
        let store: KeyValueStore<string, string>
        let ctx: ProcessorContext<string, string>
        return {
          init(c: ProcessorContext<string, string>) {
            ctx = c
            store = c.getStateStore('counts')
          },
          process(r: StreamsRecord<string, string>) {
            const next = String(Number(store.get(r.key) ?? '0') + 1)
            store.put(r.key, next)
            ctx.forward(r.withValue(next))
          }
        }
      },
      'source'
    )
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, S).withLoggingDisabled(), 'counter')
    .addSink('sink', 'output', { keySerializer: S, valueSerializer: S }, 'counter')
}

function driverWith(config: StreamsConfig): TopologyTestDriver {
  const driver = new TopologyTestDriver(countingTopology(), config)
  const input = driver.createInputTopic('input', S, S)
  for (const key of ['a', 'b', 'a']) input.pipeInput(key, 'x')
  return driver
}

/** Parses Prometheus' text format into `name{labels}` -> value, and `name` -> TYPE. */
function parse(text: string): { values: Map<string, number>; types: Map<string, string> } {
  const values = new Map<string, number>()
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line)
    if (type) types.set(type[1]!, type[2]!)
    else if (line !== '' && !line.startsWith('#')) {
      const at = line.lastIndexOf(' ')
      values.set(line.slice(0, at), Number(line.slice(at + 1)))
    }
  }
  return { values, types }
}

describe('@kstreams/prometheus', () => {
  it('names a metric <prefix>_<group>_<name> and its tags as labels, dashes and dots as underscores (the JMX exporter names)', () => {
    expect(prometheusName({ group: 'stream-thread-metrics', name: 'process-total' })).to.equal(
      'kafka_streams_stream_thread_metrics_process_total'
    )
    expect(prometheusName({ group: 'stream-state-metrics', name: 'put-latency-avg' }, 'app')).to.equal(
      'app_stream_state_metrics_put_latency_avg'
    )
    expect(prometheusName({ group: 'stream-my.scope-metrics', name: 'x' }, '')).to.equal('stream_my_scope_metrics_x')
    expect(prometheusLabelName('thread-id')).to.equal('thread_id')
    expect(prometheusLabelName('in-memory-state-id')).to.equal('in_memory_state_id')
    expect(prometheusLabelName('rocksdb.state:id')).to.equal('rocksdb_state_id')
    expect(prometheusLabelName('__reserved')).to.equal('tag__reserved')
  })

  it('exports -total metrics as counters and the others as gauges, with their values and labels at scrape time', async () => {
    const streams = new FakeStreams()
    const thread = { 'thread-id': 'app-StreamThread-1' }
    streams.snapshots = [
      snapshot('stream-thread-metrics', 'process-total', thread, 5),
      snapshot('stream-thread-metrics', 'process-rate', thread, 0.5),
      snapshot('stream-task-metrics', 'restore-remaining-records-total', { ...thread, 'task-id': '0_1' }, 7),
      snapshot('stream-state-metrics', 'put-latency-avg', { ...thread, 'task-id': '0_0', 'in-memory-state-id': 'counts' }, Number.NaN)
    ]
    const registry = new Registry()
    prometheusMetrics(streams, { registry })
    let { values, types } = parse(await registry.metrics())
    expect(types.get('kafka_streams_stream_thread_metrics_process_total')).to.equal('counter')
    expect(types.get('kafka_streams_stream_thread_metrics_process_rate')).to.equal('gauge')
    expect(types.get('kafka_streams_stream_task_metrics_restore_remaining_records_total')).to.equal('gauge')
    expect(values.get('kafka_streams_stream_thread_metrics_process_total{thread_id="app-StreamThread-1"}')).to.equal(5)
    expect(values.get('kafka_streams_stream_thread_metrics_process_rate{thread_id="app-StreamThread-1"}')).to.equal(0.5)
    expect(
      values.get(
        'kafka_streams_stream_state_metrics_put_latency_avg{in_memory_state_id="counts",task_id="0_0",thread_id="app-StreamThread-1"}'
      )
    ).to.be.NaN

    // Values are read at each scrape; a new member of a family shows at once, a new family from the next scrape.
    streams.snapshots = [
      snapshot('stream-thread-metrics', 'process-total', thread, 9),
      snapshot('stream-thread-metrics', 'process-total', { 'thread-id': 'app-StreamThread-2' }, 1),
      snapshot('stream-thread-metrics', 'commit-total', thread, 2)
    ]
    ;({ values } = parse(await registry.metrics()))
    expect(values.get('kafka_streams_stream_thread_metrics_process_total{thread_id="app-StreamThread-1"}')).to.equal(9)
    expect(values.get('kafka_streams_stream_thread_metrics_process_total{thread_id="app-StreamThread-2"}')).to.equal(1)
    expect(values.get('kafka_streams_stream_thread_metrics_process_rate{thread_id="app-StreamThread-1"}')).to.equal(undefined)
    ;({ values } = parse(await registry.metrics()))
    expect(values.get('kafka_streams_stream_thread_metrics_commit_total{thread_id="app-StreamThread-1"}')).to.equal(2)
  })

  it('a family whose members have different tags (one store per store type) gets every label, empty where a member lacks it', async () => {
    const streams = new FakeStreams()
    streams.snapshots = [
      snapshot('stream-state-metrics', 'put-rate', { 'thread-id': 't', 'in-memory-state-id': 'a' }, 1),
      snapshot('stream-state-metrics', 'put-rate', { 'thread-id': 't', 'rocksdb-state-id': 'b' }, 2)
    ]
    const registry = new Registry()
    prometheusMetrics(streams, { registry })
    const { values } = parse(await registry.metrics())
    expect(values.get('kafka_streams_stream_state_metrics_put_rate{in_memory_state_id="a",rocksdb_state_id="",thread_id="t"}')).to.equal(1)
    expect(values.get('kafka_streams_stream_state_metrics_put_rate{in_memory_state_id="",rocksdb_state_id="b",thread_id="t"}')).to.equal(2)
  })

  it('the recording level decides what is exported: task and processor-node process metrics only at DEBUG', async () => {
    const info = driverWith({ metricsRecordingLevel: 'INFO' })
    const debug = driverWith({ metricsRecordingLevel: 'DEBUG' })
    try {
      const infoValues = parse(await prometheusMetrics(info, { registry: new Registry() }).registry.metrics()).values
      const debugValues = parse(await prometheusMetrics(debug, { registry: new Registry() }).registry.metrics()).values
      const task = 'kafka_streams_stream_task_metrics_process_total{task_id="0_0",thread_id="main"}'
      const node = (n: string): string =>
        `kafka_streams_stream_processor_node_metrics_process_total{processor_node_id="${n}",task_id="0_0",thread_id="main"}`
      expect(infoValues.has(task)).to.equal(false)
      expect(infoValues.has(node('counter'))).to.equal(false)
      expect(debugValues.get(task)).to.equal(3)
      expect(debugValues.get(node('source'))).to.equal(3)
      expect(debugValues.get(node('counter'))).to.equal(3)
      expect(debugValues.get(node('sink'))).to.equal(3)
      expect(debugValues.get('kafka_streams_stream_task_metrics_process_latency_avg{task_id="0_0",thread_id="main"}')).to.be.greaterThan(0)
      // The store's latency is a DEBUG metric: a number at DEBUG, NaN (nothing recorded) at INFO.
      const putLatency = 'kafka_streams_stream_state_metrics_put_latency_avg{in_memory_state_id="counts",task_id="0_0",thread_id="main"}'
      expect(debugValues.get(putLatency)).to.be.greaterThan(0)
      expect(infoValues.get(putLatency)).to.be.NaN
    } finally {
      info.close()
      debug.close()
    }
  })

  it('serves the registry at /metrics (404 elsewhere, 405 for other methods) and unregisters', async () => {
    const streams = new FakeStreams()
    streams.snapshots = [snapshot('stream-thread-metrics', 'process-total', { 'thread-id': 't' }, 3)]
    const registry = new Registry()
    const metrics = prometheusMetrics(streams, { registry })
    const server = await metrics.startMetricsServer()
    try {
      expect(server.url).to.equal(`http://127.0.0.1:${server.port}/metrics`)
      const ok = await get(server.url)
      expect(ok.status).to.equal(200)
      expect(ok.contentType).to.match(/^text\/plain/)
      expect(parse(ok.body).values.get('kafka_streams_stream_thread_metrics_process_total{thread_id="t"}')).to.equal(3)
      expect((await get(`http://127.0.0.1:${server.port}/other`)).status).to.equal(404)
      expect((await get(server.url, 'POST')).status).to.equal(405)
      metrics.unregister()
      expect(parse((await get(server.url)).body).values.size).to.equal(0)
    } finally {
      await server.close()
      await server.close()
    }
  })

  it('startMetricsServer() without a collector serves a registry of its own on the port asked for', async () => {
    const registry = new Registry()
    const first = await startMetricsServer({ registry })
    await first.close()
    const server = await startMetricsServer({ registry, port: first.port, path: '/prom' })
    try {
      expect(server.url).to.equal(`http://127.0.0.1:${first.port}/prom`)
      expect((await get(server.url)).status).to.equal(200)
    } finally {
      await server.close()
    }
  })
})

async function get(url: string, method = 'GET'): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), body: Buffer.concat(chunks).toString() })
      )
    })
    req.on('error', reject)
    req.end()
  })
}
