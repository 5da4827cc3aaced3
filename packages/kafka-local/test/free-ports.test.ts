import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { freePorts, isPortFree } from '../src/free-ports.js'

describe('freePorts', () => {
  it('returns distinct free ports below the ephemeral range', async () => {
    const ports = await freePorts(6)
    expect(new Set(ports).size).to.equal(6)
    const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768 60999')
    const ephemeralStart = Number(range.trim().split(/\s+/)[0])
    for (const port of ports) {
      expect(port).to.be.within(20_000, ephemeralStart - 1)
      expect(await isPortFree(port)).to.equal(true)
    }
  })

  it('isPortFree is false while something listens on 127.0.0.1', async () => {
    const server = createServer()
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    try {
      expect(await isPortFree(typeof address === 'object' && address !== null ? address.port : 0)).to.equal(false)
    } finally {
      server.close()
    }
  })
})
