import { expect } from 'chai'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { InvalidStateStoreError } from '../../../src/errors.js'
import { TimeWindow, Windowed } from '../../../src/state/windowed.js'
import { InteractiveQueryServer, type QueryableStreams } from '../../../src/runtime/iq/interactive-query-server.js'
import type { KeyQueryMetadata } from '../../../src/runtime/iq/streams-metadata-state.js'
import type { StoreQueryParameters } from '../../../src/runtime/iq/queryable-store-provider.js'
import { stringSerde } from '../../state/helpers/test-serdes.js'

async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

async function get (port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number, body: any, retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), retryAfter: res.headers['retry-after'] as string | undefined }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A fake instance: owns the keys in `data`; every other key belongs to `otherPort`. */
class FakeStreams implements QueryableStreams {
  state_ = 'RUNNING'
  storeError: InvalidStateStoreError | undefined
  readonly queriedPartitions: number[] = []
  readonly queriedKinds: string[] = []
  windows: number[] = [0, 10, 20]
  closedIterators = 0
  constructor (readonly applicationServer: string, readonly data: Map<string, number>, readonly otherPort: () => number, readonly prefix = 'mine') {}
  state (): string { return this.state_ }
  store<T> (params: StoreQueryParameters<T>): T {
    if (params.storeName !== 'Counts') throw new InvalidStateStoreError('UNKNOWN_STATE_STORE', 'unknown')
    this.queriedPartitions.push(params.partition!)
    this.queriedKinds.push(params.queryableStoreType.kind)
    // Window and session views: the key's windows [start, start + 10) for every start in `windows`.
    const windowsOf = (key: string, from = 0, to = Infinity): Array<{ key: Windowed<string>, value: number }> =>
      this.windows.filter(start => start >= from && start <= to).map(start => ({ key: new Windowed(key, new TimeWindow(start, start + 10)), value: start * 2 }))
    const iterator = (items: Array<{ key: Windowed<string>, value: number }>) => Object.assign(items[Symbol.iterator](), { close: () => { this.closedIterators++ } })
    return {
      get: (key: string) => { if (this.storeError !== undefined) throw this.storeError; return this.data.get(key) ?? null },
      fetch: (key: string, _keyTo?: string, from?: number, to?: number) => iterator(windowsOf(key, from, to))
    } as T
  }

  queryMetadataForKey<K> (storeName: string, key: K): KeyQueryMetadata {
    if (storeName !== 'Counts') throw new InvalidStateStoreError('UNKNOWN_STATE_STORE', 'unknown')
    const own = String(key).startsWith(this.prefix)
    const port = own ? Number(this.applicationServer.split(':')[1]) : this.otherPort()
    return { activeHost: { host: '127.0.0.1', port }, standbyHosts: [], partition: own ? 1 : 4 }
  }
}

describe('InteractiveQueryServer', () => {
  const servers: InteractiveQueryServer[] = []
  afterEach(async () => { for (const s of servers.splice(0)) await s.close() })

  async function pair () {
    const [pa, pb] = [await freePort(), await freePort()]
    const a = new FakeStreams(`127.0.0.1:${pa}`, new Map([['mine-a', 1]]), () => pb)
    const b = new FakeStreams(`127.0.0.1:${pb}`, new Map([['b-1', 2]]), () => pa, 'b-')
    for (const s of [a, b]) {
      const server = new InteractiveQueryServer(s, { keySerializer: stringSerde })
      servers.push(server)
      const address = await server.start()
      expect(address.host).to.equal('127.0.0.1')
    }
    return { a, b, pa, pb }
  }

  it('answers local keys from the local store of the key\'s partition, forwards the others once to their owner', async () => {
    const { a, b, pa } = await pair()
    expect(await get(pa, '/stores/Counts/keys/mine-a')).to.deep.equal({ status: 200, body: { key: 'mine-a', value: 1, host: `127.0.0.1:${pa}`, partition: 1 }, retryAfter: undefined })
    expect(a.queriedPartitions).to.deep.equal([1])
    // a thinks b owns "other", b thinks a does, so b, asked by a, is not the owner: 503 rather than a second hop.
    const forwarded = await get(pa, '/stores/Counts/keys/other')
    expect(forwarded.status).to.equal(503)
    expect(forwarded.body.error).to.equal('STATE_STORE_MIGRATED')
    expect(forwarded.retryAfter).to.equal('1')
    const viaA = await get(pa, '/stores/Counts/keys/b-1')
    expect(viaA.status).to.equal(200)
    expect(viaA.body.value).to.equal(2)
    expect(b.queriedPartitions).to.deep.equal([1])
    expect(viaA.body.host).to.equal(b.applicationServer)
  })

  it('404 for a missing key, an unknown store or path; 503 + Retry-After while rebalancing or when the store is restoring', async () => {
    const { a, pa } = await pair()
    expect((await get(pa, '/stores/Counts/keys/mine-zzz')).body.error).to.equal('KEY_NOT_FOUND')
    expect((await get(pa, '/stores/Counts/keys/mine-zzz')).status).to.equal(404)
    expect((await get(pa, '/stores/Nope/keys/x')).body.error).to.equal('UNKNOWN_STATE_STORE')
    expect((await get(pa, '/nothing')).status).to.equal(404)
    a.state_ = 'REBALANCING'
    const r = await get(pa, '/stores/Counts/keys/mine-a')
    expect([r.status, r.body.error, r.retryAfter]).to.deep.equal([503, 'STREAMS_REBALANCING', '1'])
    a.state_ = 'RUNNING'
    a.storeError = new InvalidStateStoreError('STREAMS_REBALANCING', 'restoring', { retriable: true })
    expect((await get(pa, '/stores/Counts/keys/mine-a')).status).to.equal(503)
  })

  it('answers a key\'s windows (window stores, with an optional start range) and sessions, forwarding like key lookups', async () => {
    const { a, pa, pb } = await pair()
    expect(await get(pa, '/stores/Counts/keys/mine-a/windows?from=5&to=20')).to.deep.equal({
      status: 200, body: { key: 'mine-a', windows: [{ start: 10, end: 20, value: 20 }, { start: 20, end: 30, value: 40 }], host: `127.0.0.1:${pa}`, partition: 1 }, retryAfter: undefined
    })
    expect((await get(pa, '/stores/Counts/keys/mine-a/sessions')).body.windows).to.have.length(3)
    expect(a.queriedKinds).to.deep.equal(['windowStore', 'sessionStore'])
    expect(a.closedIterators).to.equal(2)
    const forwarded = await get(pa, '/stores/Counts/keys/b-1/windows?to=0')
    expect([forwarded.status, forwarded.body.host, forwarded.body.windows]).to.deep.equal([200, `127.0.0.1:${pb}`, [{ start: 0, end: 10, value: 0 }]])
    const bad = await get(pa, '/stores/Counts/keys/mine-a/windows?from=soon')
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'ILLEGAL_ARGUMENT'])
  })

  it('503 when the owner cannot be reached', async () => {
    const port = await freePort()
    const dead = await freePort()
    const streams = new FakeStreams(`127.0.0.1:${port}`, new Map(), () => dead)
    const server = new InteractiveQueryServer(streams, { keySerializer: stringSerde })
    servers.push(server)
    await server.start()
    const r = await get(port, '/stores/Counts/keys/elsewhere')
    expect([r.status, r.body.error]).to.deep.equal([503, 'OWNER_UNREACHABLE'])
  })
})
