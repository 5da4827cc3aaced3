import { expect } from 'chai'
import { createServer as createHttpServer, request, type Server } from 'node:http'
import { connect, createServer } from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ConfigError, InvalidStateStoreError } from '../../../src/errors.js'
import type { Logger } from '../../../src/logger.js'
import { TimeWindow, Windowed } from '../../../src/state/windowed.js'
import {
  InteractiveQueryServer,
  type InteractiveQueryServerOptions,
  type QueryableStreams
} from '../../../src/runtime/iq/interactive-query-server.js'
import type { KeyQueryMetadata } from '../../../src/runtime/iq/streams-metadata-state.js'
import type { Serializer } from '../../../src/serialization/serde.js'
import type { StoreQueryParameters } from '../../../src/runtime/iq/queryable-store-provider.js'
import { stringSerde } from '../../state/helpers/test-serdes.js'

async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, host, resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

async function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  host = '127.0.0.1'
): Promise<{ status: number; body: any; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = text
        }
        resolve({ status: res.statusCode!, body, retryAfter: res.headers['retry-after'] as string | undefined })
      })
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
  constructor(
    readonly applicationServer: string,
    readonly data: Map<string, number>,
    readonly otherPort: () => number,
    readonly prefix = 'mine',
    /** The host of every instance, as the assignment's HostInfo has it (an IPv6 address without brackets). */
    readonly host = '127.0.0.1'
  ) {}
  state(): string {
    return this.state_
  }
  store<T>(params: StoreQueryParameters<T>): T {
    if (params.storeName !== 'Counts') throw new InvalidStateStoreError('UNKNOWN_STATE_STORE', 'unknown')
    this.queriedPartitions.push(params.partition!)
    this.queriedKinds.push(params.queryableStoreType.kind)
    // Window and session views: the key's windows [start, start + 10) for every start in `windows`.
    const windowsOf = (key: string, from = 0, to = Infinity): Array<{ key: Windowed<string>; value: number }> =>
      this.windows
        .filter(start => start >= from && start <= to)
        .map(start => ({ key: new Windowed(key, new TimeWindow(start, start + 10)), value: start * 2 }))
    const iterator = (items: Array<{ key: Windowed<string>; value: number }>) =>
      Object.assign(items[Symbol.iterator](), {
        close: () => {
          this.closedIterators++
        }
      })
    return {
      get: (key: string) => {
        if (this.storeError !== undefined) throw this.storeError
        return this.data.get(key) ?? null
      },
      fetch: (key: string, _keyTo?: string, from?: number, to?: number) => iterator(windowsOf(key, from, to))
    } as T
  }

  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata {
    if (storeName !== 'Counts') throw new InvalidStateStoreError('UNKNOWN_STATE_STORE', 'unknown')
    keySerializer.serialize('input', key) // as KafkaStreams does, to find the partition
    const own = String(key).startsWith(this.prefix)
    const port = own ? Number(this.applicationServer.slice(this.applicationServer.lastIndexOf(':') + 1)) : this.otherPort()
    return { activeHost: { host: this.host, port }, standbyHosts: [], partition: own ? 1 : 4 }
  }
}

describe('InteractiveQueryServer', () => {
  const servers: InteractiveQueryServer[] = []
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close()
  })

  async function pair() {
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

  it("answers local keys from the local store of the key's partition, forwards the others once to their owner", async () => {
    const { a, b, pa } = await pair()
    expect(await get(pa, '/stores/Counts/keys/mine-a')).to.deep.equal({
      status: 200,
      body: { key: 'mine-a', value: 1, host: `127.0.0.1:${pa}`, partition: 1 },
      retryAfter: undefined
    })
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

  it('on IPv6 (applicationServer "[::1]:port"): answers its own keys itself and forwards the others to their IPv6 owner', async () => {
    const [pa, pb] = [await freePort('::1'), await freePort('::1')]
    const a = new FakeStreams(`[::1]:${pa}`, new Map([['mine-a', 1]]), () => pb, 'mine', '::1')
    const b = new FakeStreams(`[::1]:${pb}`, new Map([['b-1', 2]]), () => pa, 'b-', '::1')
    for (const s of [a, b]) {
      const server = new InteractiveQueryServer(s, { keySerializer: stringSerde, host: '::1' })
      servers.push(server)
      expect(await server.start()).to.deep.equal({ host: '::1', port: s === a ? pa : pb })
    }
    const local = await get(pa, '/stores/Counts/keys/mine-a', {}, '::1')
    expect([local.status, local.body.value, local.body.host]).to.deep.equal([200, 1, `[::1]:${pa}`])
    const forwarded = await get(pa, '/stores/Counts/keys/b-1', {}, '::1')
    expect([forwarded.status, forwarded.body.value, forwarded.body.host]).to.deep.equal([200, 2, `[::1]:${pb}`])
    expect(b.queriedPartitions).to.deep.equal([1])
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

  it("answers a key's windows (window stores, with an optional start range) and sessions, forwarding like key lookups", async () => {
    const { a, pa, pb } = await pair()
    expect(await get(pa, '/stores/Counts/keys/mine-a/windows?from=5&to=20')).to.deep.equal({
      status: 200,
      body: {
        key: 'mine-a',
        windows: [
          { start: 10, end: 20, value: 20 },
          { start: 20, end: 30, value: 40 }
        ],
        host: `127.0.0.1:${pa}`,
        partition: 1
      },
      retryAfter: undefined
    })
    expect((await get(pa, '/stores/Counts/keys/mine-a/sessions')).body.windows).to.have.length(3)
    expect(a.queriedKinds).to.deep.equal(['windowStore', 'sessionStore'])
    expect(a.closedIterators).to.equal(2)
    const forwarded = await get(pa, '/stores/Counts/keys/b-1/windows?to=0')
    expect([forwarded.status, forwarded.body.host, forwarded.body.windows]).to.deep.equal([
      200,
      `127.0.0.1:${pb}`,
      [{ start: 0, end: 10, value: 0 }]
    ])
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

  describe('hardening', () => {
    /** One instance on a free port, with a store whose get() answers `values`' function for the key. */
    async function single(
      values: (key: string) => unknown,
      options: Partial<InteractiveQueryServerOptions<string>> = {},
      owner?: () => number
    ) {
      const port = await freePort()
      const streams = new FakeStreams(`127.0.0.1:${port}`, new Map(), owner ?? (() => port))
      streams.store = (<T>() => ({ get: (key: string) => values(key) }) as T) as FakeStreams['store']
      const server = new InteractiveQueryServer(streams, { keySerializer: stringSerde, ...options })
      servers.push(server)
      await server.start()
      return { port, streams, server }
    }

    const recordingLogger = (): Logger & { errors: string[]; warnings: string[] } => {
      const errors: string[] = []
      const warnings: string[] = []
      return {
        errors,
        warnings,
        debug() {},
        info() {},
        warn(first: unknown) {
          warnings.push(String(first))
        },
        error(first: unknown, message?: string) {
          errors.push(typeof first === 'string' ? first : `${message} ${JSON.stringify(first)}`)
        }
      }
    }

    it('a key that cannot be parsed or serialized, or a malformed escape, is a 400 without Retry-After', async () => {
      const parsing = await single(() => 1, {
        parseKey: raw => {
          if (!/^mine-\d+$/.test(raw)) throw new Error(`cannot parse ${raw} with /srv/secret`)
          return raw
        }
      })
      const badKey = await get(parsing.port, '/stores/Counts/keys/mine-x')
      expect([badKey.status, badKey.body.error, badKey.retryAfter]).to.deep.equal([400, 'ILLEGAL_ARGUMENT', undefined])
      expect(JSON.stringify(badKey.body)).to.not.include('/srv/secret')
      const malformed = await get(parsing.port, '/stores/Counts/keys/%E0%A4%A')
      expect([malformed.status, malformed.body.error, malformed.retryAfter]).to.deep.equal([400, 'ILLEGAL_ARGUMENT', undefined])
      const serializing = await single(() => 1, {
        keySerializer: {
          serialize: () => {
            throw new Error('not a number')
          }
        }
      })
      const unserializable = await get(serializing.port, '/stores/Counts/keys/mine-a')
      expect([unserializable.status, unserializable.body.error, unserializable.retryAfter]).to.deep.equal([400, 'SERIALIZATION', undefined])
    })

    it('an internal error is logged, not echoed', async () => {
      const logger = recordingLogger()
      const { port } = await single(
        key => {
          if (key === 'mine-boom')
            throw new TypeError('Cannot read properties of undefined at /srv/app/node_modules/secret-lib/index.js:42')
          return 1n
        },
        { logger }
      )
      expect(await get(port, '/stores/Counts/keys/mine-boom')).to.deep.equal({
        status: 500,
        body: { error: 'INTERNAL' },
        retryAfter: undefined
      })
      expect(logger.errors.join('\n')).to.include('secret-lib')
      expect((await get(port, '/stores/Counts/keys/mine-ok')).body.value).to.equal('1')
    })

    it('a value JSON cannot encode is a 500, not an unhandled rejection', async () => {
      const logger = recordingLogger()
      const cyclic: Record<string, unknown> = { a: 1 }
      cyclic.self = cyclic
      const { port } = await single(() => cyclic, { logger })
      const unhandled: unknown[] = []
      const onUnhandled = (e: unknown): void => {
        unhandled.push(e)
      }
      // mocha fails a test on an unhandled rejection by itself: this listener goes first.
      process.prependListener('unhandledRejection', onUnhandled)
      try {
        const answer = await Promise.race([
          get(port, '/stores/Counts/keys/mine-cycle'),
          new Promise(resolve => setTimeout(() => resolve('no answer'), 1000))
        ])
        await new Promise(resolve => setTimeout(resolve, 20))
        expect(unhandled.map(String)).to.deep.equal([])
        expect(answer).to.deep.equal({ status: 500, body: { error: 'INTERNAL' }, retryAfter: undefined })
      } finally {
        process.off('unhandledRejection', onUnhandled)
      }
      expect(logger.errors.join('\n')).to.include('circular')
    })

    it('a forwarded answer is limited in size and time, and relayed only when it is JSON', async () => {
      let mode = 'huge'
      const peer = createHttpServer((_req, res) => {
        if (mode === 'huge') {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(Buffer.alloc(2 * 1024 * 1024, 65))
        }
        if (mode === 'html') {
          res.writeHead(418, { 'content-type': 'text/html' })
          res.end('<script>alert(1)</script>')
        }
        if (mode === 'drip') {
          res.writeHead(200, { 'content-type': 'application/json' })
          const timer = setInterval(() => {
            res.write(' ')
          }, 50)
          res.on('close', () => {
            clearInterval(timer)
          })
        }
      })
      await new Promise<void>(resolve => peer.listen(0, '127.0.0.1', resolve))
      const peerPort = (peer.address() as { port: number }).port
      try {
        const { port } = await single(
          () => 1,
          { forwardTimeoutMs: 400, maxForwardedBytes: 64 * 1024 },
          () => peerPort
        )
        const huge = await get(port, '/stores/Counts/keys/elsewhere')
        expect([huge.status, huge.body.error]).to.deep.equal([502, 'OWNER_ANSWER_INVALID'])
        mode = 'html'
        const html = await get(port, '/stores/Counts/keys/elsewhere')
        expect([html.status, html.body.error]).to.deep.equal([502, 'OWNER_ANSWER_INVALID'])
        mode = 'drip'
        const started = Date.now()
        const drip = await get(port, '/stores/Counts/keys/elsewhere')
        expect([drip.status, drip.body.error, drip.retryAfter]).to.deep.equal([503, 'OWNER_UNREACHABLE', '1'])
        expect(Date.now() - started).to.be.below(2000)
      } finally {
        peer.closeAllConnections()
        await new Promise(resolve => peer.close(resolve))
      }
    })

    it('a forwarded answer is read only up to maxForwardedBytes as it arrives; one announcing more is not read', async () => {
      const MiB = 1024 * 1024
      let written = 0
      async function* body() {
        for (; written < 300 * MiB; written += MiB) yield Buffer.alloc(MiB, 0x20)
      }
      let closed: Promise<unknown> = Promise.resolve()
      const peer = createHttpServer((req, res) => {
        if (req.url!.endsWith('/announced')) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * MiB) })
          res.write('{"value":') // and nothing more: only the announced length can end the wait
          return
        }
        // 300 MiB of JSON as fast as the reader takes it, without a Content-Length.
        res.writeHead(200, { 'content-type': 'application/json' })
        closed = pipeline(Readable.from(body(), { objectMode: false, highWaterMark: MiB }), res).catch(err => err)
      })
      await new Promise<void>(resolve => peer.listen(0, '127.0.0.1', resolve))
      const peerPort = (peer.address() as { port: number }).port
      const logger = recordingLogger()
      try {
        const { port } = await single(
          () => 1,
          { forwardTimeoutMs: 60_000, logger },
          () => peerPort
        )
        const endless = await get(port, '/stores/Counts/keys/endless')
        expect([endless.status, endless.body.error]).to.deep.equal([502, 'OWNER_ANSWER_INVALID'])
        await closed
        // The default limit (1 MiB), plus what the sockets' buffers held: far from the 300 MiB.
        expect(written).to.be.below(MiB + 32 * MiB)
        const announced = await get(port, '/stores/Counts/keys/announced')
        expect([announced.status, announced.body.error]).to.deep.equal([502, 'OWNER_ANSWER_INVALID'])
        expect(logger.warnings).to.deep.equal([
          `Interactive query forwarded to 127.0.0.1:${peerPort}: answered more than ${MiB} bytes`,
          `Interactive query forwarded to 127.0.0.1:${peerPort}: announced ${300 * MiB} bytes (limit ${MiB})`
        ])
      } finally {
        peer.closeAllConnections()
        await new Promise(resolve => peer.close(resolve))
      }
    })

    describe('the service credential of forwarded requests (forwardRequestOptions headers and auth) goes only to trustedPeers', () => {
      /** A member that records the credential of each request, and answers a value to one with a credential (else 403). */
      async function recordingPeer() {
        const seen: Array<{ authorization: string | undefined; forwarded: string | undefined }> = []
        const server = createHttpServer((req, res) => {
          seen.push({ authorization: req.headers.authorization, forwarded: req.headers['x-kstreams-forwarded'] as string | undefined })
          res.writeHead(req.headers.authorization === undefined ? 403 : 200, { 'content-type': 'application/json' })
          res.end(req.headers.authorization === undefined ? '{"error":"FORBIDDEN"}' : '{"value":"from the owner"}')
        })
        await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
        const port = (server.address() as { port: number }).port
        return { port, seen, close: () => new Promise(resolve => server.close(resolve)) }
      }
      const credential = { forwardRequestOptions: { headers: { authorization: 'Bearer service-secret' } } }

      it('by default to no instance (a member advertising its own server included), which is asked without it; warnings say how to allow', async () => {
        const rogue = await recordingPeer()
        const logger = recordingLogger()
        try {
          const { port } = await single(
            () => 1,
            { ...credential, logger },
            () => rogue.port
          )
          const answer = await get(port, '/stores/Counts/keys/elsewhere')
          expect([answer.status, answer.body.error]).to.deep.equal([403, 'FORBIDDEN'])
          expect(rogue.seen).to.deep.equal([{ authorization: undefined, forwarded: '1' }])
          expect(logger.warnings).to.have.length(2)
          expect(logger.warnings[0]).to.include('forwardRequestOptions').and.include("'trustedPeers'")
          expect(logger.warnings[1]).to.equal(
            `Interactive query forwarded to 127.0.0.1:${rogue.port}: answered 403; it was asked without the headers and auth of forwardRequestOptions, as it is not one of the trustedPeers`
          )
          const withAuth = await single(
            () => 1,
            { forwardRequestOptions: { auth: 'svc:secret' } },
            () => rogue.port
          )
          await get(withAuth.port, '/stores/Counts/keys/elsewhere')
          expect(rogue.seen[1]).to.deep.equal({ authorization: undefined, forwarded: '1' })
        } finally {
          await rogue.close()
        }
      })

      it('a trusted instance gets it, another one does not (host:port entries or a predicate)', async () => {
        const [trusted, other] = [await recordingPeer(), await recordingPeer()]
        try {
          for (const trustedPeers of [[`127.0.0.1:${trusted.port}`], (host: { port: number }) => host.port === trusted.port]) {
            for (const owner of [trusted, other]) {
              const { port } = await single(
                () => 1,
                { ...credential, trustedPeers },
                () => owner.port
              )
              expect((await get(port, '/stores/Counts/keys/elsewhere')).status).to.equal(owner === trusted ? 200 : 403)
            }
          }
          expect(trusted.seen.map(s => s.authorization)).to.deep.equal(['Bearer service-secret', 'Bearer service-secret'])
          expect(other.seen.map(s => s.authorization)).to.deep.equal([undefined, undefined])
          const withAuth = await single(
            () => 1,
            { forwardRequestOptions: { auth: 'svc:secret' }, trustedPeers: [`127.0.0.1:${trusted.port}`] },
            () => trusted.port
          )
          await get(withAuth.port, '/stores/Counts/keys/elsewhere')
          expect(trusted.seen[2]!.authorization).to.equal(`Basic ${Buffer.from('svc:secret').toString('base64')}`)
        } finally {
          await trusted.close()
          await other.close()
        }
      })

      it('an entry that is not host:port is a ConfigError naming the option', () => {
        const streams = new FakeStreams('127.0.0.1:1', new Map(), () => 1)
        for (const entry of ['127.0.0.1', 'https://127.0.0.1:7070', '127.0.0.1:0', ' '])
          expect(() => new InteractiveQueryServer(streams, { keySerializer: stringSerde, trustedPeers: [entry] }), entry)
            .to.throw(ConfigError)
            .with.property('key', 'trustedPeers')
      })
    })

    it('closes connections whose request headers do not arrive within headersTimeoutMs', async () => {
      const { port } = await single(() => 1, { headersTimeoutMs: 300 })
      const socket = connect(port, '127.0.0.1')
      socket.on('error', () => {})
      socket.resume() // read what the server says (a 408), so that its close is seen
      socket.write('GET /stores/Counts/keys/mine-a HTTP/1.1\r\nX-Slow: ')
      const closed = await new Promise<boolean>(resolve => {
        socket.on('close', () => resolve(true))
        setTimeout(() => resolve(false), 3000)
      })
      socket.destroy()
      expect(closed, 'slow-header connection still open after 3 s').to.equal(true)
    })

    it("mounts into the application's own HTTP server as a request handler; authorize() guards the built-in one", async () => {
      const port = await freePort()
      const streams = new FakeStreams(`127.0.0.1:${port}`, new Map([['mine-a', 1]]), () => port)
      const iq = new InteractiveQueryServer(streams, { keySerializer: stringSerde, basePath: '/iq' })
      const own: Server = createHttpServer((req, res) => {
        if (req.url?.startsWith('/iq/') === true) return iq.handler()(req, res)
        res.writeHead(200, { 'content-type': 'text/plain' }).end("the application's own route")
      })
      await new Promise<void>(resolve => own.listen(port, '127.0.0.1', resolve))
      try {
        expect((await get(port, '/iq/stores/Counts/keys/mine-a')).body).to.deep.equal({
          key: 'mine-a',
          value: 1,
          host: `127.0.0.1:${port}`,
          partition: 1
        })
        expect((await get(port, '/health')).body).to.equal("the application's own route")
      } finally {
        await new Promise(resolve => own.close(resolve))
      }
      const guarded = await single(() => 1, { authorize: req => req.headers.authorization === 'Bearer right' })
      expect((await get(guarded.port, '/stores/Counts/keys/mine-a')).status).to.equal(403)
      expect((await get(guarded.port, '/stores/Counts/keys/mine-a', { authorization: 'Bearer wrong' })).body).to.deep.equal({
        error: 'FORBIDDEN'
      })
      expect((await get(guarded.port, '/stores/Counts/keys/mine-a', { authorization: 'Bearer right' })).status).to.equal(200)
    })
  })
})
