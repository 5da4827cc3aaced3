/**
 * What the dashboard asks other instances for: a peer's answer is read within a byte limit as it
 * arrives (a peer streaming hundreds of MiB is cut off at the limit, one announcing them is not
 * read at all).
 */
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
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
