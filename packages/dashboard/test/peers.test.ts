/**
 * What the dashboard asks other instances for: a peer's answer is read within a byte limit as it
 * arrives (a peer streaming hundreds of MiB is cut off at the limit, one announcing them is not
 * read at all), and `peerHeaders` (a service credential) go only to the `trustedPeers`, never to
 * an address a group member merely advertises.
 */
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ConfigError, Topology, type Logger, type StreamsMetadata } from '@kstreams/core'
import { Dashboard, type DashboardStreams } from '@kstreams/dashboard'
import { fetchPeer, MAX_PEER_BYTES } from '../src/peers.js'

const MiB = 1024 * 1024

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>(resolve => server.close(() => resolve()))
}

describe('fetchPeer: the size limit of a peer answer', function () {
  this.timeout(60_000)

  it('reads a streamed answer only up to the limit, then aborts the request with an error naming the peer', async () => {
    // 300 MiB of JSON, written as fast as the reader takes it, without a Content-Length.
    let written = 0
    async function* body() {
      for (; written < 300 * MiB; written += MiB) yield Buffer.alloc(MiB, 0x20)
    }
    let done!: Promise<unknown>
    const { server, port } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      done = pipeline(Readable.from(body(), { objectMode: false, highWaterMark: MiB }), res).catch(err => err)
    })
    try {
      const answer = await fetchPeer(`http://127.0.0.1:${port}`, {}, 50_000)
      await done
      // What the peer got to write before the connection closed: the limit, plus what the
      // sockets' buffers held; far from the 300 MiB it had to say.
      expect(written).to.be.below(MAX_PEER_BYTES + 32 * MiB)
      expect(answer).to.deep.equal({
        ok: false,
        error: `http://127.0.0.1:${port}/api/local answered more than ${MAX_PEER_BYTES} bytes`
      })
    } finally {
      await close(server)
    }
  })

  it('does not read an answer whose Content-Length is over the limit', async () => {
    const { server, port } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * MiB) })
      res.write('{"threads":') // and nothing more: only the announced length can end the wait
    })
    try {
      const answer = await fetchPeer(`http://127.0.0.1:${port}`, {}, 50_000)
      expect(answer).to.deep.equal({
        ok: false,
        error: `http://127.0.0.1:${port}/api/local announced ${300 * MiB} bytes (limit ${MAX_PEER_BYTES})`
      })
    } finally {
      await close(server)
    }
  })

  it('reads an answer at the limit', async () => {
    const view = JSON.stringify({ threads: [], pad: 'x'.repeat(MAX_PEER_BYTES - 30) })
    expect(view.length).to.be.at.most(MAX_PEER_BYTES)
    const { server, port } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(view)
    })
    try {
      const answer = await fetchPeer(`http://127.0.0.1:${port}`, {}, 50_000)
      expect(answer.ok).to.equal(true)
    } finally {
      await close(server)
    }
  })
})

describe('Dashboard: peerHeaders go only to the trustedPeers', () => {
  /** Instances that record the authorization header of each request and answer an empty view. */
  async function peers(n: number) {
    const seen = new Map<number, Array<string | undefined>>()
    const started = await Promise.all(
      Array.from({ length: n }, async () => {
        const peer = await listen((req, res) => {
          seen.get(peer.port)!.push(req.headers.authorization)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end('{"threads":[]}')
        })
        seen.set(peer.port, [])
        return peer
      })
    )
    return { ports: started.map(p => p.port), seen, close: () => Promise.all(started.map(p => close(p.server))) }
  }

  /** This instance (on port 1, never asked) in a group with members at `ports`. */
  function groupOf(ports: number[]): DashboardStreams {
    const member = (port: number): StreamsMetadata => ({
      hostInfo: { host: '127.0.0.1', port },
      stateStoreNames: new Set(),
      topicPartitions: [],
      standbyStateStoreNames: new Set(),
      standbyTopicPartitions: []
    })
    return {
      state: () => 'RUNNING',
      applicationServer: '127.0.0.1:1',
      metadataForLocalThreads: () => [],
      metadataForAllStreamsClients: () => [member(1), ...ports.map(member)],
      restoreProgress: () => [],
      standbyProgress: () => [],
      metrics: () => []
    }
  }

  const warnings = (): Logger & { lines: string[] } => {
    const lines: string[] = []
    return { lines, debug() {}, info() {}, error() {}, warn: (first: unknown) => void lines.push(String(first)) }
  }

  const credential = { authorization: 'Bearer dash-secret' }

  it('by default no instance is sent them (a member advertising its own server included), and a warning says how to allow', async () => {
    const { ports, seen, close } = await peers(1)
    const logger = warnings()
    const board = new Dashboard(groupOf(ports), { topology: new Topology(), peerHeaders: credential, logger })
    try {
      const state = await board.state()
      expect(state.instances.map(i => i.reachable)).to.deep.equal([true, true])
      expect(seen.get(ports[0]!)).to.deep.equal([undefined])
      expect(logger.lines).to.have.length(1)
      expect(logger.lines[0]).to.include('peerHeaders').and.include("'trustedPeers'")
    } finally {
      await board.close()
      await close()
    }
  })

  it('a trusted instance is sent them, another one is not (host:port entries or a predicate)', async () => {
    const { ports, seen, close } = await peers(2)
    const [trusted, other] = ports as [number, number]
    const logger = warnings()
    for (const trustedPeers of [[`127.0.0.1:${trusted}`], (host: { port: number }) => host.port === trusted]) {
      const board = new Dashboard(groupOf(ports), { topology: new Topology(), peerHeaders: credential, trustedPeers, logger })
      await board.state()
      await board.close()
    }
    try {
      expect(seen.get(trusted)).to.deep.equal(['Bearer dash-secret', 'Bearer dash-secret'])
      expect(seen.get(other)).to.deep.equal([undefined, undefined])
      expect(logger.lines).to.deep.equal([])
    } finally {
      await close()
    }
  })

  it('an untrusted instance that refuses says it was asked without them', async () => {
    const { server, port } = await listen((_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{}'))
    const board = new Dashboard(groupOf([port]), { topology: new Topology(), peerHeaders: credential, trustedPeers: [] })
    try {
      const state = await board.state()
      expect(state.instances[1]!.error).to.equal(
        `http://127.0.0.1:${port}/api/local answered 403 (application/json); asked without peerHeaders, as it is not one of the trustedPeers`
      )
    } finally {
      await board.close()
      await close(server)
    }
  })

  it('an entry that is not host:port is a ConfigError naming the option', () => {
    for (const entry of ['127.0.0.1', 'http://127.0.0.1:7070', '127.0.0.1:99999', ''])
      expect(() => new Dashboard(groupOf([]), { topology: new Topology(), trustedPeers: [entry] }), entry)
        .to.throw(ConfigError)
        .with.property('key', 'trustedPeers')
  })
})
