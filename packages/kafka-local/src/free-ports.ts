/**
 * Ports for the brokers' listeners on 127.0.0.1: either a fixed consecutive range or free ports
 * picked at random *below* the kernel's ephemeral range. Kafka must get concrete ports (with
 * port 0 the client socket opens before the broker is ready, and readiness relies on that
 * order), so a port is chosen a second or so before the JVM binds it; outgoing connections and
 * `listen(0)` servers take ephemeral ports, so below that range nobody grabs it meanwhile.
 * All probe sockets stay open until every port is chosen: one call never repeats a port.
 */
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'

const LOWEST = 20_000
const DEFAULT_EPHEMERAL_START = 32_768

/** `count` distinct ports that are free on 127.0.0.1 right now, below the ephemeral range where possible. */
export async function freePorts(count: number): Promise<number[]> {
  const below = await ephemeralRangeStart()
  const servers: Server[] = []
  try {
    for (let attempt = 0; servers.length < count && attempt < 50 * count; attempt++) {
      const port = below > LOWEST + 1000 ? LOWEST + Math.floor(Math.random() * (below - LOWEST)) : 0
      const server = await listen(port).catch(() => undefined)
      if (server !== undefined) servers.push(server)
    }
    while (servers.length < count) servers.push(await listen(0))
    return servers.map(portOf)
  } finally {
    await Promise.all(
      servers.map(async s => {
        await new Promise(resolve => s.close(resolve))
      })
    )
  }
}

/** True when nothing listens on 127.0.0.1:port yet. */
export async function isPortFree(port: number): Promise<boolean> {
  try {
    const server = await listen(port)
    await new Promise(resolve => server.close(resolve))
    return true
  } catch {
    return false
  }
}

async function ephemeralRangeStart(): Promise<number> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '')
  const start = Number(text.trim().split(/\s+/)[0])
  return Number.isInteger(start) && start > 0 ? start : DEFAULT_EPHEMERAL_START
}

function portOf(server: Server): number {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('unexpected server address')
  return address.port
}

async function listen(port: number): Promise<Server> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      resolve(server)
    })
  })
}
