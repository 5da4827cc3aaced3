/**
 * The dashboard over real KafkaStreams instances on the in-memory Kafka: the JSON the page polls
 * (every instance, its threads, tasks and lags, the stores), the store browser's answers routed to
 * the key's owner, the page and its assets, the binding rules (127.0.0.1 by default, the port of
 * applicationServer, basePath) and the authorize hook (401 and 403 on every route, the interactive
 * queries the built-in server passes on included).
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  InteractiveQueryServer,
  KafkaStreams,
  Serdes,
  StreamsError,
  Topology,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type QueryableStreams,
  type Record as StreamsRecord
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { Dashboard, type DashboardState, type DashboardStreams, type InstanceView } from '@kstreams/dashboard'

const S = Serdes.String()

class CountProcessor implements Processor<string, string, never, never> {
  #store!: KeyValueStore<string, number>
  init(context: ProcessorContext<never, never>): void {
    this.#store = context.getStateStore<KeyValueStore<string, number>>('Counts')
  }
  process(record: StreamsRecord<string, string>): void {
    this.#store.put(record.key, (this.#store.get(record.key) ?? 0) + 1)
  }
}

function countingTopology(): Topology {
  return new Topology()
    .addSource('Words', 'words', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'Words')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('Counts'), S, Serdes.Long()), 'Count')
}

async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

async function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', host = '127.0.0.1'): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = request({ host, port, path, method, headers }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const FAST = {
  sessionTimeoutMs: 500,
  heartbeatIntervalMs: 100,
  commitIntervalMs: 100,
  pollMs: 50,
  fetchMaxWaitMs: 50,
  retryBackoffMs: 20,
  defaultApiTimeoutMs: 1000
}

describe('Dashboard over two instances on the in-memory Kafka', function () {
  this.timeout(30_000)
  const applicationId = `dash-${process.pid}-${Date.now()}`
  const kafka = new InMemoryKafka()
  const dirs: string[] = []
  const apps: Array<{ streams: KafkaStreams; dashboard: Dashboard; port: number }> = []
  const trueCounts = new Map<string, number>()

  before(async () => {
    kafka.createTopic('words', 4)
    for (let n = 0; n < 2; n++) {
      const dir = await mkdtemp(join(tmpdir(), 'kstreams-dashboard-'))
      dirs.push(dir)
      const port = await freePort()
      const streams = new KafkaStreams(
        countingTopology(),
        { ...FAST, applicationId, stateDir: dir, applicationServer: `127.0.0.1:${port}`, numStandbyReplicas: 1 },
        { client: kafka.client() }
      )
      const queries = new InteractiveQueryServer(streams, { keySerializer: S })
      const dashboard = new Dashboard(streams, { topology: countingTopology(), applicationId, queries, sampleIntervalMs: 200 })
      apps.push({ streams, dashboard, port })
      await streams.start()
      await dashboard.start()
    }
    const records = Array.from({ length: 400 }, (_, i) => ({ key: `k${i % 20}`, value: 'x' }))
    for (const r of records) trueCounts.set(r.key, (trueCounts.get(r.key) ?? 0) + 1)
    kafka.produce('words', records)
    await eventually('both RUNNING with all four tasks spread and committed', async () => {
      if (!apps.every(a => a.streams.state() === 'RUNNING')) return false
      const state = JSON.parse((await get(apps[0]!.port, '/api/state')).text) as DashboardState
      const active = state.instances.flatMap(i => i.threads.flatMap(t => t.active))
      return (
        state.instances.length === 2 &&
        state.instances.every(i => i.reachable && i.threads.some(t => t.active.length > 0)) &&
        active.length === 4 &&
        active.every(t => t.inputLag === 0)
      )
    })
  })

  after(async () => {
    for (const a of apps) {
      await a.dashboard.close()
      await a.streams.close()
    }
    kafka.close()
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('/api/state: every instance (this one first) with its threads, active and standby tasks, lags and state', async () => {
    const res = await get(apps[0]!.port, '/api/state')
    expect(res.status).to.equal(200)
    expect(res.headers['content-type']).to.equal('application/json')
    expect(res.headers['cache-control']).to.equal('no-store')
    const state = JSON.parse(res.text) as DashboardState
    expect(state.applicationId).to.equal(applicationId)
    expect(state.tasks).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
    expect(state.queries).to.equal(true)
    expect(state.stores).to.deep.equal([
      { name: 'Counts', kind: 'keyValue', changelog: `${applicationId}-Counts-changelog`, global: false }
    ])
    expect(state.instances.map(i => [i.host, i.local])).to.deep.equal([
      [`127.0.0.1:${apps[0]!.port}`, true],
      [`127.0.0.1:${apps[1]!.port}`, false]
    ])
    const ids = (i: InstanceView, role: 'active' | 'standby'): string[] => i.threads.flatMap(t => t[role].map(task => task.id)).sort()
    const [a, b] = state.instances as [InstanceView, InstanceView]
    for (const i of [a, b]) {
      expect(i.state).to.equal('RUNNING')
      expect(i.threads.map(t => t.state)).to.deep.equal(['RUNNING'])
      // What the instance says of itself is what the group's assignment gives it.
      expect(ids(i, 'active')).to.deep.equal(i.assigned.active)
      expect(ids(i, 'standby')).to.deep.equal(i.assigned.standby)
      for (const task of i.threads[0]!.active) {
        expect(task.partitions).to.deep.equal([`words-${task.id.split('_')[1]}`])
        expect(task.inputLag).to.equal(0)
        expect(task.standbyLag).to.equal(undefined)
      }
      for (const task of i.threads[0]!.standby) expect(task.standbyLag).to.be.a('number')
    }
    expect([...ids(a, 'active'), ...ids(b, 'active')].sort()).to.deep.equal(state.tasks)
    // One standby replica: each instance keeps a standby of every task the other one runs.
    expect(ids(a, 'standby')).to.deep.equal(ids(b, 'active'))
    expect(ids(b, 'standby')).to.deep.equal(ids(a, 'active'))
    expect(a.progress.filter(p => p.kind === 'standby').map(p => p.task)).to.have.members(ids(a, 'standby'))
  })

  it('/api/local: the instance alone, what the others ask it for', async () => {
    const local = JSON.parse((await get(apps[1]!.port, '/api/local')).text) as InstanceView
    expect(local.host).to.equal(`127.0.0.1:${apps[1]!.port}`)
    expect(local.local).to.equal(true)
    // Metrics with nothing recorded in their window (NaN) are left out.
    for (const key of Object.keys(local.threads[0]!.metrics))
      expect(['processRate', 'processLatencyAvgMs', 'commitRate', 'commitLatencyAvgMs', 'pollRate']).to.include(key)
    expect(local.history.length).to.be.greaterThan(0)
  })

  it("the store browser's route answers from the key's owner, from either instance", async () => {
    for (const key of ['k1', 'k2', 'k3', 'k7']) {
      const answers = await Promise.all(apps.map(async a => JSON.parse((await get(a.port, `/api/stores/Counts/keys/${key}`)).text)))
      for (const body of answers) expect(body).to.include({ key, value: trueCounts.get(key) })
      expect(answers[0].host).to.equal(answers[1].host)
    }
    const missing = await get(apps[0]!.port, '/api/stores/Counts/keys/nope')
    expect(missing.status).to.equal(404)
    expect(JSON.parse(missing.text).error).to.equal('KEY_NOT_FOUND')
  })

  it('serves the page with the topology drawn, its script and style sheet, under a strict content security policy', async () => {
    const page = await get(apps[0]!.port, '/')
    expect(page.status).to.equal(200)
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).to.include("default-src 'none'").and.include("script-src 'self'")
    expect(page.text).to.include('data-node="Words"').and.include('data-node="Count"').and.include('data-store="Counts"')
    expect(page.text).to.include(`data-topic="${applicationId}-Counts-changelog" data-role="changelog"`)
    expect(page.text).to.include('data-topic="words" data-role="user"')
    expect(page.text).not.to.match(/<script>|src="https?:|href="https?:/)
    const script = await get(apps[0]!.port, '/dashboard.js')
    expect(script.headers['content-type']).to.equal('text/javascript; charset=utf-8')
    expect(() => new Function(script.text)).not.to.throw()
    expect((await get(apps[0]!.port, '/dashboard.css')).headers['content-type']).to.equal('text/css; charset=utf-8')
    expect((await get(apps[0]!.port, '/nothing')).status).to.equal(404)
    expect((await get(apps[0]!.port, '/api/state', {}, 'POST')).status).to.equal(405)
  })

  it('shows an instance whose dashboard does not answer as unreachable, with its tasks from the assignment', async () => {
    const [a, b] = apps as [(typeof apps)[0], (typeof apps)[0]]
    const board = new Dashboard(a.streams, {
      topology: countingTopology(),
      applicationId,
      peerUrl: () => `http://127.0.0.1:${b.port}/no-dashboard-here`,
      peerTimeoutMs: 1000
    })
    const server = createServer(board.handler())
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    try {
      const state = JSON.parse((await get((server.address() as AddressInfo).port, '/api/state')).text) as DashboardState
      const other = state.instances[1]!
      expect(other).to.include({ reachable: false, state: 'UNKNOWN', local: false })
      expect(other.error).to.match(/answered 404/)
      expect(other.assigned.active.length).to.be.greaterThan(0)
      expect(state.queries).to.equal(false)
      expect((await get((server.address() as AddressInfo).port, '/api/stores/Counts/keys/k1')).status).to.equal(404)
    } finally {
      await board.close()
      await close(server)
    }
  })
})

describe('Dashboard of an instance on IPv6', function () {
  this.timeout(30_000)

  it('knows itself by its applicationServer ("::1:<port>", kept as "[::1]:<port>") and lists no second, remote copy of itself', async () => {
    const kafka = new InMemoryKafka()
    kafka.createTopic('words', 2)
    const dir = await mkdtemp(join(tmpdir(), 'kstreams-dashboard-'))
    const port = await freePort('::1')
    const streams = new KafkaStreams(
      countingTopology(),
      { ...FAST, applicationId: `dash-ipv6-${process.pid}`, stateDir: dir, applicationServer: `::1:${port}` },
      { client: kafka.client() }
    )
    const board = new Dashboard(streams, { topology: countingTopology(), host: '::1' })
    try {
      await streams.start()
      expect(await board.start()).to.deep.equal({ host: '::1', port })
      await eventually('RUNNING', () => streams.state() === 'RUNNING')
      const state = JSON.parse((await get(port, '/api/state', {}, 'GET', '::1')).text) as DashboardState
      expect(state.instances.map(i => [i.host, i.local, i.assigned.active])).to.deep.equal([[`[::1]:${port}`, true, ['0_0', '0_1']]])
    } finally {
      await board.close()
      await streams.close()
      kafka.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/** An instance without Kafka that is RUNNING and owns every key (counted 1): for the routes of the built-in server. */
function runningInstance(port: number): DashboardStreams & QueryableStreams {
  return {
    state: () => 'RUNNING',
    applicationServer: `127.0.0.1:${port}`,
    metadataForLocalThreads: () => [],
    metadataForAllStreamsClients: () => [],
    restoreProgress: () => [],
    standbyProgress: () => [],
    metrics: () => [],
    store: <T>() => ({ get: () => 1 }) as T,
    queryMetadataForKey: () => ({ activeHost: { host: '127.0.0.1', port }, standbyHosts: [], partition: 0 })
  }
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>(resolve => server.close(() => resolve()))
}

describe('Dashboard: binding rules and the authorize hook', () => {
  const streams = new KafkaStreams(
    countingTopology(),
    { applicationId: 'dash-binding', bootstrapServers: 'unused:9092' },
    { client: new InMemoryKafka().client() }
  )

  it('listens on 127.0.0.1 unless told otherwise, on the port of applicationServer by default', async () => {
    const port = await freePort()
    const withServer = new KafkaStreams(
      countingTopology(),
      { applicationId: 'dash-binding', bootstrapServers: 'unused:9092', applicationServer: `localhost:${port}` },
      { client: new InMemoryKafka().client() }
    )
    const board = new Dashboard(withServer, { topology: countingTopology() })
    try {
      expect(await board.start()).to.deep.equal({ host: '127.0.0.1', port })
      const err = await board.start().catch((e: unknown) => e)
      expect(err).to.be.instanceOf(StreamsError).with.property('code', 'ILLEGAL_STATE')
      // Not started: no assignment, no peers; the page works all the same.
      const state = JSON.parse((await get(port, '/api/state')).text) as DashboardState
      expect(state.instances.map(i => [i.state, i.threads.length])).to.deep.equal([['CREATED', 0]])
    } finally {
      await board.close()
      await board.close()
    }
    const other = new Dashboard(streams, { topology: countingTopology(), port: 0, host: '0.0.0.0' })
    try {
      expect((await other.start()).host).to.equal('0.0.0.0')
    } finally {
      await other.close()
    }
  })

  it('needs a port or an applicationServer to start', async () => {
    const err = await new Dashboard(streams, { topology: countingTopology() }).start().catch((e: unknown) => e)
    expect(err).to.be.instanceOf(StreamsError).with.property('code', 'INVALID_CONFIG')
  })

  it('authorize: false is a 403, "unauthenticated" a 401 with the challenge, on every route', async () => {
    const board = new Dashboard(streams, {
      topology: countingTopology(),
      port: 0,
      authorize: req => {
        const auth = req.headers.authorization
        if (auth === undefined) return 'unauthenticated'
        return auth === `Basic ${Buffer.from('ops:secret').toString('base64')}`
      }
    })
    const { port } = await board.start()
    try {
      for (const path of ['/', '/dashboard.js', '/dashboard.css', '/api/state', '/api/local', '/api/stores/Counts/keys/k', '/other']) {
        const none = await get(port, path)
        expect(none.status, path).to.equal(401)
        expect(none.headers['www-authenticate'], path).to.equal('Basic realm="kstreams dashboard", charset="UTF-8"')
        expect((await get(port, path, { authorization: 'Basic bm9ib2R5Og==' })).status, path).to.equal(403)
      }
      const ok = { authorization: `Basic ${Buffer.from('ops:secret').toString('base64')}` }
      expect((await get(port, '/', ok)).status).to.equal(200)
      expect((await get(port, '/api/state', ok)).status).to.equal(200)
    } finally {
      await board.close()
    }
  })

  it('the built-in server asks authorize for every request, the interactive queries it passes on included', async () => {
    const port = await freePort()
    const instance = runningInstance(port)
    // The interactive-query server has no hook of its own: the dashboard's decides.
    const queries = new InteractiveQueryServer(instance, { keySerializer: S })
    const board = new Dashboard(instance, { topology: countingTopology(), queries, port, authorize: () => false })
    await board.start()
    try {
      const paths = ['/', '/dashboard.js', '/api/state', '/api/local', '/api/stores/Counts/keys/k', '/stores/Counts/keys/k', '/other']
      for (const path of paths) expect((await get(port, path)).status, path).to.equal(403)
    } finally {
      await board.close()
    }
  })

  it("an interactive query through the built-in server needs both hooks to allow it, the dashboard's and its server's", async () => {
    const port = await freePort()
    const instance = runningInstance(port)
    const queries = new InteractiveQueryServer(instance, { keySerializer: S, authorize: req => req.headers['x-query'] === 'yes' })
    const board = new Dashboard(instance, {
      topology: countingTopology(),
      queries,
      port,
      authorize: req => req.headers['x-team'] === 'ops'
    })
    await board.start()
    const both = { 'x-team': 'ops', 'x-query': 'yes' }
    try {
      for (const path of ['/stores/Counts/keys/k', '/api/stores/Counts/keys/k']) {
        expect((await get(port, path, { 'x-query': 'yes' })).status, `${path} without the dashboard's`).to.equal(403)
        expect((await get(port, path, { 'x-team': 'ops' })).status, `${path} without the query server's`).to.equal(403)
        const answer = await get(port, path, both)
        expect([answer.status, JSON.parse(answer.text).value], path).to.deep.equal([200, 1])
      }
      expect((await get(port, '/api/local', { 'x-team': 'ops' })).status).to.equal(200)
      expect((await get(port, '/other', both)).status).to.equal(404)
    } finally {
      await board.close()
    }
  })

  it("the InteractiveQueryServer's boolean hook works as it is; handler() mounts under basePath", async () => {
    const board = new Dashboard(streams, {
      topology: countingTopology(),
      basePath: '/ops/dashboard',
      authorize: req => req.headers['x-team'] === 'ops'
    })
    const handler = board.handler()
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/ops/dashboard')) handler(req, res)
      else res.writeHead(418).end()
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const team = { 'x-team': 'ops' }
    try {
      expect((await get(port, '/ops/dashboard/api/state')).status).to.equal(403)
      const redirect = await get(port, '/ops/dashboard', team)
      expect([redirect.status, redirect.headers.location]).to.deep.equal([308, '/ops/dashboard/'])
      expect((await get(port, '/ops/dashboard/', team)).text).to.include('<script src="dashboard.js" defer></script>')
      expect(JSON.parse((await get(port, '/ops/dashboard/api/state', team)).text).instances).to.have.length(1)
      expect((await get(port, '/ops/dashboard/other', team)).status).to.equal(404)
      expect((await get(port, '/elsewhere', team)).status).to.equal(418)
    } finally {
      await board.close()
      await close(server)
    }
  })
})
