/**
 * The README demo: the DSL WordCount on a real broker, in four acts.
 *  1. Counts a burst of text (many distinct words, so the "Counts" changelog is long) on one
 *     instance with RocksDB stores and an interactive-query HTTP endpoint.
 *  2. Asks that endpoint for a few counts (GET /stores/Counts/keys/:word).
 *  3. Loses the instance's disk (close + cleanUp) and starts a new instance, which restores the
 *     store from its changelog while a progress bar shows position, records/s and ETA.
 *  4. Answers the same queries from the restored store, then keeps counting live text until
 *     DEMO_DURATION_MS has passed (0: until Ctrl-C).
 * First it prints the topology as a Mermaid diagram; each instance serves its live dashboard
 * (@kstreams/dashboard: the topology, its tasks, the restore with its ETA, a store browser) and
 * the interactive queries on one port, and its Kafka Streams metrics for Prometheus
 * (@kstreams/prometheus), at the URLs it prints.
 * Needs KAFKA_BOOTSTRAP_SERVERS (tools/scripts/demo.sh starts a broker and sets it).
 */
import { Kafka, logLevel, type Producer } from 'kafkajs'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InteractiveQueryServer, KafkaStreams, QueryableStoreTypes, Serdes, toMermaid, type RestoreProgress } from '@kstreams/core'
import { Dashboard } from '@kstreams/dashboard'
import { type MetricsServer, prometheusMetrics } from '@kstreams/prometheus'
import { Registry } from 'prom-client'
import { buildDslWordCountTopology } from './dsl-topology.js'
import { splitWords, STORE_NAME } from './topology.js'
import { kafkajs } from '@kstreams/kafkajs'

const TEXT = `Kafka Streams is a client library for building applications and microservices where the
input and output data are stored in Kafka clusters. It combines the simplicity of writing and
deploying standard applications on the client side with the benefits of Kafka's server-side
cluster technology. kstreams brings the same model to TypeScript: a topology of processors,
local state stores backed by changelog topics, tasks per partition, and a test driver.`.split('\n')
const QUERIED = ['kafka', 'streams', 'applications', 'typescript']

const bootstrap = process.env.KAFKA_BOOTSTRAP_SERVERS ?? ''
if (bootstrap === '') throw new Error('KAFKA_BOOTSTRAP_SERVERS is not set: run `npm run demo`')
const durationMs = Number(process.env.DEMO_DURATION_MS ?? 10000)
const burstLines = Number(process.env.DEMO_LINES ?? 100000)
const run = Date.now().toString(36)
const appId = `wordcount-demo-${run}`
const topics = { input: `wordcount-input-${run}`, output: `wordcount-output-${run}` }
const kafka = new Kafka({ clientId: 'wordcount-demo', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING })
const say = (line: string): void => {
  process.stdout.write(line + '\n')
}

async function createTopics(): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  await admin.createTopics({
    topics: Object.values(topics).map(topic => ({ topic, numPartitions: 4, replicationFactor: 1 })),
    waitForLeaders: true
  })
  await admin.disconnect()
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

async function httpGet(port: number, path: string): Promise<{ status: number; body: { value?: unknown; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** One app instance: KafkaStreams plus its dashboard and HTTP query endpoint (one port) and its Prometheus endpoint, on 127.0.0.1. */
async function startInstance(
  stateDir: string,
  port: number
): Promise<{ streams: KafkaStreams; server: Dashboard; metricsServer: MetricsServer }> {
  const topology = buildDslWordCountTopology(topics)
  const streams = new KafkaStreams(
    topology,
    {
      applicationId: appId,
      bootstrapServers: bootstrap,
      stateDir,
      commitIntervalMs: 500,
      applicationServer: `127.0.0.1:${port}`
    },
    { client: kafkajs() }
  )
  streams.setStateListener((to, from) => say(`[kstreams] ${from} -> ${to}`))
  streams.setUncaughtExceptionHandler(error => {
    say(`[kstreams] stream thread failed: ${error.code} ${error.message}`)
    return 'SHUTDOWN_CLIENT'
  })
  const queries = new InteractiveQueryServer(streams, { keySerializer: Serdes.String() })
  const server = new Dashboard(streams, { topology, applicationId: appId, queries })
  await server.start()
  say(`[demo] the live dashboard of this instance (open it in a browser): http://127.0.0.1:${port}/`)
  const metricsServer = await prometheusMetrics(streams, { registry: new Registry() }).startMetricsServer()
  say(`[demo] Prometheus metrics of this instance: ${metricsServer.url}`)
  await streams.start()
  return { streams, server, metricsServer }
}

/** Scrapes the Prometheus endpoint once and prints a few of its lines (what a Prometheus server would store). */
async function showMetrics(url: string): Promise<void> {
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(url, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(Buffer.concat(chunks).toString()))
    })
    req.on('error', reject)
    req.end()
  })
  const wanted =
    /^kafka_streams_(stream_thread_metrics_(process_total|process_rate|commit_total)|stream_state_updater_metrics_restore_records_total)\{/
  say(`[demo] GET ${url} (${text.split('\n').length} lines), a few of them:`)
  for (const line of text.split('\n').filter(l => wanted.test(l))) say(`  ${line}`)
}

async function sendLines(producer: Producer, lines: string[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 5000) {
    await producer.send({ topic: topics.input, messages: lines.slice(i, i + 5000).map((value, j) => ({ key: String(i + j), value })) })
  }
}

function waitUntil(what: string, predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      let ok = false
      try {
        ok = predicate()
      } catch {
        ok = false
      }
      if (ok) resolve()
      else if (Date.now() > deadline) reject(new Error(`timed out waiting for ${what}`))
      else setTimeout(tick, 200)
    }
    tick()
  })
}

function localCount(streams: KafkaStreams, word: string): number | null {
  return streams.store({ storeName: STORE_NAME, queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(word)
}

async function query(port: number): Promise<void> {
  for (const word of QUERIED) {
    const { status, body } = await httpGet(port, `/stores/${STORE_NAME}/keys/${word}`)
    say(`  GET /stores/${STORE_NAME}/keys/${word} -> ${status} ${JSON.stringify(body.value ?? body.error)}`)
  }
}

/** Draws the restore as a bar until the instance is RUNNING; returns records restored and seconds taken. */
async function showRestore(streams: KafkaStreams): Promise<{ records: number; seconds: number }> {
  const started = Date.now()
  const seen = new Map<string, RestoreProgress>()
  const tty = process.stdout.isTTY === true
  let lastPrinted = 0
  let done = false
  while (!done) {
    const state = streams.state()
    if (state === 'ERROR' || state === 'NOT_RUNNING' || state === 'PENDING_ERROR')
      throw new Error(`instance B stopped while restoring (${state})`)
    done = state === 'RUNNING'
    const current = streams.restoreProgress()
    const active = new Set<string>()
    for (const p of current) {
      const key = `${p.partition.topic}-${p.partition.partition}`
      active.add(key)
      seen.set(key, p)
    }
    let restored = 0
    let total = 0
    for (const [key, p] of seen) {
      const finished = !active.has(key) || done
      total += p.restored + p.remaining
      restored += finished ? p.restored + p.remaining : p.restored
    }
    const rate = restored / Math.max(0.001, (Date.now() - started) / 1000)
    const eta = rate > 0 ? (total - restored) / rate : 0
    const fraction = total === 0 ? (done ? 1 : 0) : restored / total
    const bar = '#'.repeat(Math.round(fraction * 30)).padEnd(30, '.')
    const line = `  restoring ${STORE_NAME} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${restored}/${total} records  ${Math.round(rate)} rec/s  ETA ${eta.toFixed(1)} s`
    if (tty) process.stdout.write('\r' + line)
    else if (done || Date.now() - lastPrinted >= 250) {
      say(line)
      lastPrinted = Date.now()
    }
    if (!done) await new Promise(resolve => setTimeout(resolve, 100))
  }
  if (tty) process.stdout.write('\n')
  const records = [...seen.values()].reduce((sum, p) => sum + p.restored + p.remaining, 0)
  return { records, seconds: (Date.now() - started) / 1000 }
}

await createTopics()
const producer = kafka.producer()
await producer.connect()

// Act 1: a burst of text with many distinct words.
const expected = new Map<string, number>()
const vocabulary = TEXT.flatMap(splitWords)
const burst = Array.from({ length: burstLines }, (_, i) => {
  const line = `${vocabulary[i % vocabulary.length]!} w${(i * 7919) % 50000} w${(i * 104729) % 60000}`
  for (const w of splitWords(line)) expected.set(w, (expected.get(w) ?? 0) + 1)
  return line
})
say('[demo] the topology (Mermaid; paste it into any Mermaid viewer):')
say(toMermaid(buildDslWordCountTopology(topics).describe()))
const firstDir = await mkdtemp(join(tmpdir(), 'kstreams-demo-'))
const firstPort = await freePort()
say(`[demo] act 1: counting ${burstLines} lines (${expected.size} distinct words) on instance A (RocksDB, HTTP on 127.0.0.1:${firstPort})`)
const a = await startInstance(firstDir, firstPort)
const t0 = Date.now()
await sendLines(producer, burst)
await waitUntil('the burst to be counted', () => [...expected].every(([w, c]) => localCount(a.streams, w) === c), 180000)
say(`[demo] counted ${burstLines} lines in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

say('[demo] act 2: interactive queries through the HTTP endpoint')
await query(firstPort)

say('[demo] act 3: instance A loses its disk (close + cleanUp); instance B restores the store from its changelog')
await a.server.close()
await a.metricsServer.close()
// Leaving the group at once (Kafka Streams' default close() stays until the session times out).
await a.streams.close({ leaveGroup: true })
await a.streams.cleanUp()
await rm(firstDir, { recursive: true, force: true })
const secondDir = await mkdtemp(join(tmpdir(), 'kstreams-demo-'))
const secondPort = await freePort()
const b = await startInstance(secondDir, secondPort)
const restore = await showRestore(b.streams)
say(
  `[demo] restored ${restore.records} changelog records in ${restore.seconds.toFixed(1)} s (${Math.round(restore.records / Math.max(restore.seconds, 0.001))} records/s)`
)

say('[demo] act 4: the same queries, answered by the restored store; then live text')
await query(secondPort)
await showMetrics(b.metricsServer.url)

let sent = 0
const live = new Map<string, number>()
const feeder = setInterval(() => {
  const line = TEXT[sent++ % TEXT.length]!
  void producer.send({ topic: topics.input, messages: [{ key: `live-${sent}`, value: line }] })
}, 200)
const printer = setInterval(() => {
  for (const w of vocabulary) {
    try {
      live.set(w, localCount(b.streams, w) ?? 0)
    } catch {
      /* rebalancing */
    }
  }
  const top = [...live].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 6)
  say(`[${b.streams.state()}] live lines sent: ${sent}  top words: ${top.map(([w, c]) => `${w}=${c}`).join(' ')}`)
}, 1000)

const stop = async (): Promise<void> => {
  clearInterval(feeder)
  clearInterval(printer)
  await producer.disconnect()
  await b.server.close()
  await b.metricsServer.close()
  await b.streams.close()
  await rm(secondDir, { recursive: true, force: true })
  say('[demo] done')
  process.exit(0)
}
process.on('SIGINT', () => {
  void stop()
})
if (durationMs > 0)
  setTimeout(() => {
    void stop()
  }, durationMs)
