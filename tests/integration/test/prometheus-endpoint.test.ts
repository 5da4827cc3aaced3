/**
 * The Prometheus endpoint of a running application on a real broker: @kstreams/prometheus's
 * metrics server scraped over HTTP while a DSL count (caching, a changelogged in-memory store)
 * processes records at DEBUG level. Thread counters move with the input, the task's, the
 * processor nodes' and the store's DEBUG metrics are there with real values, and every metric the
 * Grafana dashboard (tools/grafana/kstreams-dashboard.json) queries is in the output.
 */
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { KafkaStreams, Serdes, type StreamsConfig } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { prometheusMetrics } from '@kstreams/prometheus'
import { Registry } from 'prom-client'
import { bootstrapServers, createTopics, produce, tempDir, testClient, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const DASHBOARD = new URL('../../../tools/grafana/kstreams-dashboard.json', import.meta.url)

async function scrape(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        if (res.statusCode === 200) resolve(Buffer.concat(chunks).toString())
        else reject(new Error(`GET ${url}: ${res.statusCode}`))
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** The samples of one metric: labels text -> value. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line)
    if (m !== null && m[1] === name) out.set(m[2] ?? '', Number(m[3]))
  }
  return out
}

const sum = (values: Map<string, number>): number => [...values.values()].reduce((a, b) => a + b, 0)

describe('Prometheus endpoint of a running application (@kstreams/prometheus, real broker)', function () {
  this.timeout(180000)

  it('serves Kafka Streams metrics with real values at /metrics, and every metric the Grafana dashboard queries', async () => {
    const prefix = unique('prometheus')
    const input = `${prefix}-in`
    await createTopics([{ topic: input, numPartitions: 2 }])
    const dir = await tempDir('kstreams-prometheus')
    const config: StreamsConfig = {
      applicationId: `${prefix}-app`,
      bootstrapServers: bootstrapServers(),
      stateDir: dir.path,
      commitIntervalMs: 200,
      metricsRecordingLevel: 'DEBUG'
    }
    const builder = new StreamsBuilder()
    const grouped = builder.stream<string, string>(input, Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    grouped.count(Materialized.as<string, number>('counts').withKeySerde(S))
    const streams = new KafkaStreams(builder.build(), config, { client: testClient() })
    const metrics = prometheusMetrics(streams, { registry: new Registry() })
    const server = await metrics.startMetricsServer()
    try {
      expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await produce(
        input,
        Array.from({ length: 100 }, (_, i) => ({ key: `k${i % 10}`, value: 'x' }))
      )
      const processed = async (): Promise<number> =>
        sum(samples(await scrape(server.url), 'kafka_streams_stream_thread_metrics_process_total'))
      await waitFor('100 records processed, as the endpoint says', async () => (await processed()) >= 100, 60000)
      const first = await scrape(server.url)
      expect(first).to.include('# TYPE kafka_streams_stream_thread_metrics_process_total counter')
      expect(first).to.include('# TYPE kafka_streams_stream_thread_metrics_process_rate gauge')
      const thread = [...samples(first, 'kafka_streams_stream_thread_metrics_process_total').keys()]
      expect(thread).to.have.length(1)
      expect(thread[0]).to.match(/^\{thread_id="[^"]*StreamThread-1"\}$/)
      expect(sum(samples(first, 'kafka_streams_stream_thread_metrics_process_rate'))).to.be.greaterThan(0)
      await waitFor(
        'a commit counted',
        async () => sum(samples(await scrape(server.url), 'kafka_streams_stream_thread_metrics_commit_total')) > 0,
        30000
      )

      // DEBUG: per task and per processor node, and the store's rates and latencies.
      expect(sum(samples(first, 'kafka_streams_stream_task_metrics_process_total'))).to.equal(100)
      const nodes = samples(first, 'kafka_streams_stream_processor_node_metrics_process_total')
      expect([...nodes.keys()].some(labels => labels.includes('processor_node_id="KSTREAM-SOURCE-0000000000"'))).to.equal(true)
      const puts = samples(first, 'kafka_streams_stream_state_metrics_put_rate')
      expect([...puts.keys()].every(labels => labels.includes('in_memory_state_id="counts"'))).to.equal(true)
      expect(sum(puts)).to.be.greaterThan(0)
      expect([...samples(first, 'kafka_streams_stream_state_metrics_put_latency_avg').values()].some(v => v > 0)).to.equal(true)

      // The thread's process-total increases with more input.
      const before = await processed()
      await produce(
        input,
        Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: 'y' }))
      )
      await waitFor('150 records processed', async () => (await processed()) >= before + 50, 60000)

      // Every metric the dashboard queries is in the endpoint's output.
      const dashboard = readFileSync(DASHBOARD, 'utf8')
      const queried = new Set(dashboard.match(/kafka_streams_[a-z0-9_]+/g) ?? [])
      expect(queried.size).to.be.greaterThan(15)
      const last = await scrape(server.url)
      const missing = [...queried].filter(name => samples(last, name).size === 0)
      expect(missing, 'metrics the dashboard queries that the endpoint does not serve').to.deep.equal([])
    } finally {
      await server.close()
      await streams.close()
      metrics.unregister()
      await dir.remove()
    }
  })
})
