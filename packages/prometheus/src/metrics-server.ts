/**
 * Serving a prom-client registry over HTTP: a node:http request handler answering `GET /metrics`
 * (mount it in a server of your own), and a small server of its own for applications that have
 * none.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Registry, register as defaultRegistry } from 'prom-client'

/** A node:http request handler (also usable as an express or connect middleware's last step). */
export type MetricsRequestHandler = (request: IncomingMessage, response: ServerResponse) => void

/** Options of metricsHandler(). */
export interface MetricsHandlerOptions {
  /** The registry to serve; default prom-client's global `register`. */
  readonly registry?: Registry
  /** Called before each scrape (the collector registers families that appeared since the last one). */
  readonly beforeScrape?: () => void
}

/**
 * A request handler that answers every request it gets with the registry's metrics in
 * Prometheus' text format (a HEAD request gets the headers only; any method other than GET and
 * HEAD gets 405). Mount it at the path you want; startMetricsServer() mounts it at `/metrics`.
 */
export function metricsHandler(options: MetricsHandlerOptions = {}): MetricsRequestHandler {
  const registry = options.registry ?? defaultRegistry
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method Not Allowed\n')
      return
    }
    options.beforeScrape?.()
    registry.metrics().then(
      body => {
        response.writeHead(200, { 'content-type': registry.contentType })
        response.end(request.method === 'HEAD' ? undefined : body)
      },
      (err: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        response.end(`Collecting the metrics failed: ${err instanceof Error ? err.message : String(err)}\n`)
      }
    )
  }
}

/** Options of startMetricsServer(). */
export interface MetricsServerOptions extends MetricsHandlerOptions {
  /** The port to listen on; 0 (the default) picks a free one (read it from `url`). */
  readonly port?: number
  /** The address to listen on; default `127.0.0.1` (give `0.0.0.0` for a scraper on another host). */
  readonly host?: string
  /** The path of the metrics; default `/metrics`. Any other path gets 404. */
  readonly path?: string
}

/** A running metrics server. */
export interface MetricsServer {
  /** Where the metrics are, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string
  /** The port it listens on. */
  readonly port: number
  /** The node:http server. */
  readonly server: Server
  /** Stops listening; idempotent. */
  close(): Promise<void>
}

/** Starts an HTTP server answering `GET <path>` with the registry's metrics; resolves once it listens. */
export async function startMetricsServer(options: MetricsServerOptions = {}): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1'
  const path = options.path ?? '/metrics'
  const handler = metricsHandler(options)
  const server = createServer((request, response) => {
    const requested = (request.url ?? '/').split('?')[0]
    if (requested !== path) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not Found: the metrics are at ${path}\n`)
      return
    }
    handler(request, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    server,
    close: () => {
      closing ??= new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    }
  }
}
