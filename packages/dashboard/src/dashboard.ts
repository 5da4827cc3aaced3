/**
 * The dashboard of a running application, served by the application itself on Node's http
 * module: one page (the topology drawn, every instance with its threads and tasks, restores and
 * standbys in progress, rates of the last minutes, a store browser) that polls a JSON endpoint of
 * the same handler. No build step and nothing fetched from elsewhere: the page, its script and
 * its style sheet come from this package, under a content security policy that allows only them.
 *
 * Routes, under `basePath`:
 *   GET /               the page                 GET /api/state   every instance (DashboardState)
 *   GET /dashboard.js   its script               GET /api/local   this instance (InstanceView; what peers ask)
 *   GET /dashboard.css  its style sheet          GET /api/stores/:store/keys/:key[/windows|/sessions]
 *                                                   the interactive-query server's answer (routed to the key's owner)
 * Other instances are asked for their `/api/local` at `peerUrl(hostInfo)` (default: their
 * applicationServer with the same basePath), so each instance's page shows all of them.
 * The same binding rules as the InteractiveQueryServer: 127.0.0.1 unless told otherwise,
 * `handler()` to mount into the application's own server, the same `authorize` hook (which may
 * also answer 'unauthenticated': 401 with a WWW-Authenticate challenge). `authorize` decides every
 * request of the built-in server, the interactive queries it passes on included (whose server's own
 * hook must then allow them too). `peerHeaders` go only to the `trustedPeers`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  StreamsError,
  type HostInfo,
  type InteractiveQueryServer,
  type Logger,
  type StreamsMetadata,
  type Topology,
  type TrustedPeers
} from '@kstreams/core'
import { trustedPeerCheck } from '@kstreams/core/internal'
import { assignedTasks } from './assigned-tasks.js'
import { localInstanceView, type DashboardStreams, type InstanceView } from './instance-view.js'
import { dashboardPage, DASHBOARD_CSS, dashboardScript } from './page.js'
import { fetchPeer } from './peers.js'
import { RateHistory } from './rate-history.js'
import { topologyView, type StoreView, type TopologyView } from './topology-view.js'

/** What `authorize` answers: true to serve, false for 403, 'unauthenticated' for 401. */
export type DashboardAuthorization = boolean | 'unauthenticated'

/** The options of a Dashboard. */
export interface DashboardOptions {
  /** The topology the instance runs (drawn on the page; its sources map partitions to tasks). */
  readonly topology: Topology
  /** The application id, which internal topic names start with (to name changelog and repartition topics). */
  readonly applicationId?: string
  /**
   * The interactive-query server of the instance: the store browser asks it, and it answers from
   * whichever instance owns the key. Without one the store browser is disabled.
   */
  readonly queries?: Pick<InteractiveQueryServer<any>, 'handler'>
  /** Interface the built-in server listens on (default 127.0.0.1). */
  readonly host?: string
  /** Port of the built-in server (default: the port of the instance's applicationServer). */
  readonly port?: number
  /** The path the dashboard is mounted under, on every instance (default ''). */
  readonly basePath?: string
  /**
   * Decides whether a request is answered: true, false (403 FORBIDDEN) or 'unauthenticated' (401
   * with `challenge` as WWW-Authenticate), in the built-in server and in handler() alike: every
   * request, the interactive queries of `queries` included (other instances forward theirs with
   * its `forwardRequestOptions` headers). The InteractiveQueryServer's hook (a boolean) works as it is.
   */
  readonly authorize?: (request: IncomingMessage) => DashboardAuthorization | Promise<DashboardAuthorization>
  /** The WWW-Authenticate header of a 401 (default `Basic realm="kstreams dashboard"`). */
  readonly challenge?: string
  /** Where another instance's dashboard is (its base URL), from its host info; undefined to not ask it. */
  readonly peerUrl?: (host: HostInfo) => string | undefined
  /** Headers sent to the `trustedPeers` (a service credential their `authorize` accepts). */
  readonly peerHeaders?: Readonly<Record<string, string>>
  /**
   * The instances that may be sent `peerHeaders`: `host:port` entries as they advertise them in
   * `applicationServer`, or a predicate. Default: none. Any group member can advertise any
   * address, so another instance is asked without them.
   */
  readonly trustedPeers?: TrustedPeers
  /** Time limit of a request to another instance (default 2000 ms). */
  readonly peerTimeoutMs?: number
  /** How often the page polls (default 2000 ms). */
  readonly pollIntervalMs?: number
  /** How often rates are sampled (default 5000 ms). */
  readonly sampleIntervalMs?: number
  /** How much rate history is kept (default 5 minutes). */
  readonly historyMs?: number
  /** The page's title (default: the application id). */
  readonly title?: string
  /** Where errors are logged. */
  readonly logger?: Logger
}

/** What `/api/state` answers: the topology's stores and every instance of the application. */
export interface DashboardState {
  /** The application id, when the dashboard was told it. */
  readonly applicationId: string | undefined
  /** When this was put together (ms since the epoch). */
  readonly generatedAt: number
  /** The stores, for the store browser. */
  readonly stores: readonly StoreView[]
  /** Whether the store browser can ask (an interactive-query server was given). */
  readonly queries: boolean
  /** Every task of the application (`<sub-topology>_<partition>`) the group's assignment knows of. */
  readonly tasks: readonly string[]
  /** This instance first, then the others by host. */
  readonly instances: readonly InstanceView[]
}

/** A node:http request handler. */
export type DashboardHandler = (request: IncomingMessage, response: ServerResponse) => void
type Handler = DashboardHandler

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store'
}

/**
 * A live dashboard of a KafkaStreams instance: `handler()` mounts it into the application's own
 * server, `start()` runs a built-in one (which also serves the interactive queries when given).
 */
export class Dashboard {
  readonly #streams: DashboardStreams
  readonly #o: DashboardOptions
  readonly #view: TopologyView
  readonly #history: RateHistory
  readonly #trusted: (host: HostInfo) => boolean
  #timer: NodeJS.Timeout | undefined
  #server: Server | undefined
  #page: string | undefined
  #queriesHandler: Handler | undefined

  constructor(streams: DashboardStreams, options: DashboardOptions) {
    this.#streams = streams
    this.#o = options
    this.#view = topologyView(options.topology, options.applicationId)
    this.#history = new RateHistory(options.historyMs ?? 5 * 60_000)
    this.#trusted = trustedPeerCheck(options.trustedPeers, 'trustedPeers')
    if (Object.keys(options.peerHeaders ?? {}).length > 0 && options.trustedPeers === undefined)
      options.logger?.warn(
        'Dashboard: peerHeaders are set but there are no trustedPeers, so other instances are asked without them. ' +
          "List the instances that may receive them (host:port, as in their applicationServer) in the 'trustedPeers' option"
      )
  }

  /** The topology as the page draws it. */
  get topology(): TopologyView {
    return this.#view
  }

  /**
   * The request handler, to mount into the application's own server (`createServer(handler)`, or
   * under a path with `basePath` set to it). It answers every request it is given (404 for other
   * paths) and starts the rate sampling.
   */
  handler(): DashboardHandler {
    return this.#serve(undefined)
  }

  /** The handler, passing the requests that are not the dashboard's (once authorized) to `others`. */
  #serve(others: Handler | undefined): Handler {
    this.#startSampling()
    return (req, res) => {
      this.#handle(req, res, others).catch((err: unknown) => {
        this.#o.logger?.error(`Dashboard ${req.method ?? ''} ${req.url ?? ''}: could not answer: ${describe(err)}`)
        res.destroy()
      })
    }
  }

  /** Starts the built-in server; resolves with the address it listens on. */
  async start(): Promise<HostInfo> {
    if (this.#server !== undefined) throw new StreamsError('ILLEGAL_STATE', 'The dashboard has already been started')
    const port = this.#o.port ?? portOf(this.#streams.applicationServer)
    if (port === undefined)
      throw new StreamsError('INVALID_CONFIG', 'The dashboard needs a port or an applicationServer ("host:port") config')
    // Whatever is not the dashboard's goes to the interactive-query server, when there is one.
    const server = createServer(
      { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
      this.#serve(this.#o.queries?.handler())
    )
    server.maxConnections = 1000
    this.#server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, this.#o.host ?? '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    const address = server.address() as AddressInfo
    return { host: address.address, port: address.port }
  }

  /** Stops sampling and the built-in server (closing its connections). Idempotent. */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
    const server = this.#server
    if (server === undefined) return
    this.#server = undefined
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
  }

  /** This instance now (what `/api/local` answers). */
  localView(): InstanceView {
    const self = this.#streams.applicationServer
    const group = this.#group()
    return localInstanceView(
      this.#streams,
      assignedTasks(
        this.#view,
        group.find(m => hostKey(m.hostInfo) === self)
      ),
      this.#history.points(),
      this.#history.rates()
    )
  }

  /** Every instance now (what `/api/state` answers): this one, and the others as they answer. */
  async state(): Promise<DashboardState> {
    const self = this.#streams.applicationServer
    const group = this.#group()
    const others = group.filter(m => hostKey(m.hostInfo) !== self).sort((a, b) => hostKey(a.hostInfo).localeCompare(hostKey(b.hostInfo)))
    const remote = await Promise.all(
      others.map(async (m): Promise<InstanceView> => {
        const host = hostKey(m.hostInfo)
        const assigned = assignedTasks(this.#view, m)
        const url = (this.#o.peerUrl ?? this.#defaultPeerUrl)(m.hostInfo)
        const trusted = this.#trusted(m.hostInfo)
        const answer =
          url === undefined
            ? ({ ok: false, error: 'not asked (no peer URL)' } as const)
            : await fetchPeer(url, trusted ? (this.#o.peerHeaders ?? {}) : {}, this.#o.peerTimeoutMs ?? 2000)
        if (answer.ok) return { ...answer.view, host, local: false, reachable: true, assigned }
        const withheld = !trusted && url !== undefined && Object.keys(this.#o.peerHeaders ?? {}).length > 0
        return {
          host,
          local: false,
          reachable: false,
          error: withheld ? `${answer.error}; asked without peerHeaders, as it is not one of the trustedPeers` : answer.error,
          state: 'UNKNOWN',
          threads: [],
          progress: [],
          history: [],
          assigned
        }
      })
    )
    const tasks = new Set<string>()
    for (const m of group) for (const id of assignedTasks(this.#view, m).active) tasks.add(id)
    return {
      applicationId: this.#o.applicationId,
      generatedAt: Date.now(),
      stores: this.#view.stores,
      queries: this.#o.queries !== undefined,
      tasks: [...tasks].sort(),
      instances: [this.localView(), ...remote]
    }
  }

  readonly #defaultPeerUrl = (host: HostInfo): string => {
    return `http://${hostKey(host)}${this.#o.basePath ?? ''}`
  }

  #group(): StreamsMetadata[] {
    try {
      return this.#streams.metadataForAllStreamsClients()
    } catch {
      return [] // not running (yet, or any more): no assignment to show
    }
  }

  #startSampling(): void {
    if (this.#timer !== undefined) return
    const sample = (): void => {
      try {
        this.#history.sample(this.#streams, Date.now())
      } catch (err) {
        this.#o.logger?.warn(`Dashboard: could not sample rates: ${describe(err)}`)
      }
    }
    sample()
    this.#timer = setInterval(sample, this.#o.sampleIntervalMs ?? 5000)
    this.#timer.unref()
  }

  /** The dashboard path of a request (under basePath), or undefined when it is not one of the dashboard's. */
  #route(req: IncomingMessage): string | undefined {
    const base = this.#o.basePath ?? ''
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (base !== '' && path === base) return ''
    if (!path.startsWith(`${base}/`)) return undefined
    const rest = path.slice(base.length)
    return rest === '/' || rest === '/dashboard.js' || rest === '/dashboard.css' || rest.startsWith('/api/') ? rest : undefined
  }

  async #handle(req: IncomingMessage, res: ServerResponse, others: Handler | undefined): Promise<void> {
    const auth = this.#o.authorize === undefined ? true : await this.#o.authorize(req)
    if (auth === 'unauthenticated') {
      send(res, 401, json({ error: 'UNAUTHENTICATED' }), {
        'www-authenticate': this.#o.challenge ?? 'Basic realm="kstreams dashboard", charset="UTF-8"'
      })
      return
    }
    if (auth !== true) return send(res, 403, json({ error: 'FORBIDDEN' }))
    const route = this.#route(req)
    if (route === undefined) return others === undefined ? send(res, 404, json({ error: 'NOT_FOUND' })) : others(req, res)
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, json({ error: 'METHOD_NOT_ALLOWED' }), { allow: 'GET, HEAD' })
    const base = this.#o.basePath ?? ''
    if (route === '') return send(res, 308, '', { location: `${base}/` })
    if (route === '/') return send(res, 200, this.#pageHtml(), { 'content-type': 'text/html; charset=utf-8' })
    if (route === '/dashboard.js') return send(res, 200, dashboardScript(), { 'content-type': 'text/javascript; charset=utf-8' })
    if (route === '/dashboard.css') return send(res, 200, DASHBOARD_CSS, { 'content-type': 'text/css; charset=utf-8' })
    if (route === '/api/state') return send(res, 200, json(await this.state()))
    if (route === '/api/local') return send(res, 200, json(this.localView()))
    if (route.startsWith('/api/stores/')) {
      const queries = this.#o.queries
      if (queries === undefined) return send(res, 404, json({ error: 'QUERIES_DISABLED' }))
      // The interactive-query server answers (and forwards to the key's owner): the path it knows.
      const url = new URL(req.url ?? '/', 'http://localhost')
      req.url = `${route.slice('/api'.length)}${url.search}`
      this.#queriesHandler ??= queries.handler()
      this.#queriesHandler(req, res)
      return
    }
    send(res, 404, json({ error: 'NOT_FOUND' }))
  }

  #pageHtml(): string {
    this.#page ??= dashboardPage({
      title: this.#o.title ?? this.#o.applicationId ?? 'kstreams',
      topology: this.#view,
      pollIntervalMs: this.#o.pollIntervalMs ?? 2000
    })
    return this.#page
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...SECURITY_HEADERS, ...headers })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))
}

/** `host:port` as KafkaStreams.applicationServer and URLs have it: an IPv6 host in brackets. */
function hostKey(host: HostInfo): string {
  return host.host.includes(':') ? `[${host.host}]:${host.port}` : `${host.host}:${host.port}`
}

function portOf(endpoint: string | undefined): number | undefined {
  if (endpoint === undefined) return undefined
  const port = Number(endpoint.slice(endpoint.lastIndexOf(':') + 1))
  return Number.isInteger(port) ? port : undefined
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err)
}
