/**
 * An optional HTTP endpoint for interactive queries (beyond Kafka Streams, which leaves the RPC
 * layer to the application), on Node's own http module, bound to 127.0.0.1 unless told
 * otherwise. `GET /stores/:store/keys/:key` answers from the local store when this instance
 * hosts the key's partition, otherwise forwards the request once to the instance that does
 * (from `queryMetadataForKey`) and relays its answer, so any instance answers any key:
 *   200 {key, value, host, partition} | 404 {error: 'KEY_NOT_FOUND' | 'UNKNOWN_STATE_STORE' | 'NOT_FOUND'}
 *   503 + Retry-After {error} while rebalancing, restoring, or when the owner is unreachable.
 * Window and session stores (a windowed aggregation's store) answer the windows of a key:
 *   GET /stores/:store/keys/:key/windows?from=&to=  (window starts in [from, to]; default: all)
 *   GET /stores/:store/keys/:key/sessions
 *   200 {key, windows: [{start, end, value}], host, partition}, oldest first.
 * A request that cannot be answered as asked is a 400 (a malformed escape, a key that cannot be
 * parsed or serialized) and is not worth a retry; an error of the server itself is a 500 that
 * names no detail (the detail is logged); 403 when `authorize` says no.
 * `start()` runs a built-in server with bounded header, request and keep-alive timeouts;
 * `handler()` mounts the same answers into the application's own server (node:http, express,
 * fastify's raw request), with its TLS and authentication. A forwarded request carries the service
 * credential of `forwardRequestOptions` (its headers and auth) only to the `trustedPeers`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamsError } from '../../errors.js'
import { parseEndpoint } from '../../config/endpoint.js'
import { silentLogger, type Logger } from '../../logger.js'
import { toSerializer, type SerializerLike } from '../../serialization/serde.js'
import type { ReadOnlyKeyValueStore } from '../../state/key-value-store.js'
import type { ReadOnlySessionStore } from '../../state/session-store.js'
import type { ReadOnlyWindowStore } from '../../state/window-store.js'
import { QueryableStoreTypes } from './queryable-store-types.js'
import type { StoreQueryParameters } from './queryable-store-provider.js'
import { hostKey, type HostInfo, type KeyQueryMetadata } from './streams-metadata-state.js'
import type { Serializer } from '../../serialization/serde.js'
import { forwardQuery, type ForwardOptions } from './query-forwarder.js'
import { trustedPeerCheck, type TrustedPeers } from './trusted-peers.js'

/** What the server needs of a KafkaStreams instance. */
export interface QueryableStreams {
  /** The instance's state (KafkaStreams.state()). */
  state(): string
  /** The instance's `host:port` (KafkaStreams.applicationServer). */
  readonly applicationServer: string | undefined
  /** A read-only view of a local store (KafkaStreams.store()). */
  store<T>(params: StoreQueryParameters<T>): T
  /** Which instance hosts a key (KafkaStreams.queryMetadataForKey()). */
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata
}

/** The options of an InteractiveQueryServer. */
export interface InteractiveQueryServerOptions<K> {
  /** The serializer of the stores' keys, used to find a key's partition. */
  readonly keySerializer: SerializerLike<K>
  /** Turns the URL path segment into a key (default: the string itself). */
  readonly parseKey?: (raw: string) => K
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Port to listen on (default: the port of the instance's applicationServer). */
  readonly port?: number
  /** Time limit of a forwarded request, its whole answer included (default 5000 ms). */
  readonly forwardTimeoutMs?: number
  /** Largest forwarded answer relayed, in bytes (default 1 MiB); a larger one is a 502. */
  readonly maxForwardedBytes?: number
  /** How forwarded requests reach the owner: 'http' (default) or 'https'. */
  readonly forwardProtocol?: 'http' | 'https'
  /**
   * Options of forwarded requests: TLS (ca, cert, key), an agent, headers such as a service
   * credential. Its `headers` and `auth` go only to the `trustedPeers`.
   */
  readonly forwardRequestOptions?: ForwardOptions['requestOptions']
  /**
   * The instances that may be sent the headers and auth of `forwardRequestOptions` (the service
   * credential): `host:port` entries as they advertise them in `applicationServer`, or a
   * predicate. Default: none. Any group member can advertise any address, so another instance
   * is asked without them.
   */
  readonly trustedPeers?: TrustedPeers
  /** Retry-After of a 503 answer, in seconds (default 1). */
  readonly retryAfterSeconds?: number
  /**
   * Decides whether a request is answered (false: 403 FORBIDDEN), in the built-in server and in
   * handler() alike. Forwarded requests carry only `forwardRequestOptions.headers`.
   */
  readonly authorize?: (request: IncomingMessage) => boolean | Promise<boolean>
  /** The path the handler is mounted under, on every instance (default ''): stripped from requests, put before forwarded ones. */
  readonly basePath?: string
  /** The built-in server's time limit for a request's headers (default 10000 ms). */
  readonly headersTimeoutMs?: number
  /** The built-in server's time limit for a whole request (default 30000 ms). */
  readonly requestTimeoutMs?: number
  /** How long the built-in server keeps an idle connection open (default 5000 ms). */
  readonly keepAliveTimeoutMs?: number
  /** Most connections the built-in server holds at once (default 1000). */
  readonly maxConnections?: number
  /** Where errors are logged (the answers name none). */
  readonly logger?: Logger
}

const FORWARDED = 'x-kstreams-forwarded'
const PATH = /^\/stores\/([^/]+)\/keys\/([^/]+)(?:\/(windows|sessions))?$/
/** The answers of an instance that are relayed as they are. */
const RELAYED_STATUS = new Set([200, 400, 403, 404, 500, 503])

/** What a request asks for: one value, or the windows (or sessions) of the key. */
interface Query {
  readonly kind: 'value' | 'windows' | 'sessions'
  readonly from: number
  readonly to: number
}

interface Answer {
  status: number
  body: unknown
  retryAfter?: boolean
}

/**
 * An HTTP endpoint for interactive queries over a KafkaStreams instance: `GET /stores/:store/keys/:key`
 * answers from the instance that hosts the key, forwarding when needed; `start()` runs a built-in
 * server, `handler()` mounts it into the application's own.
 */
export class InteractiveQueryServer<K = string> {
  readonly #streams: QueryableStreams
  readonly #o: InteractiveQueryServerOptions<K>
  readonly #keySerializer: Serializer<K>
  readonly #logger: Logger
  readonly #trusted: (host: HostInfo) => boolean
  /** `forwardRequestOptions` without the credential (headers, auth): what an untrusted instance is sent. */
  readonly #anonymous: ForwardOptions['requestOptions']
  readonly #withCredential: boolean
  #server: Server | undefined

  constructor(streams: QueryableStreams, options: InteractiveQueryServerOptions<K>) {
    this.#streams = streams
    this.#o = options
    this.#keySerializer = toSerializer(options.keySerializer)
    this.#logger = options.logger ?? silentLogger
    this.#trusted = trustedPeerCheck(options.trustedPeers, 'trustedPeers')
    const { headers, auth, ...anonymous } = options.forwardRequestOptions ?? {}
    this.#anonymous = anonymous
    this.#withCredential = auth !== undefined || (headers !== undefined && Object.keys(headers).length > 0)
    if (this.#withCredential && options.trustedPeers === undefined)
      this.#logger.warn(
        'InteractiveQueryServer: forwardRequestOptions has headers or auth but there are no trustedPeers, so forwarded queries go without them. ' +
          "List the instances that may receive them (host:port, as in their applicationServer) in the 'trustedPeers' option"
      )
  }

  /**
   * The request handler, to mount into the application's own server: `createServer(handler)`,
   * `app.use('/iq', handler)` (express, with `basePath: '/iq'`), or
   * `(req, reply) => { reply.hijack(); handler(req.raw, reply.raw) }`
   * (fastify). It answers every request it is given (404 for other paths).
   */
  handler(): (request: IncomingMessage, response: ServerResponse) => void {
    return (req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        this.#logger.error(`Interactive query ${req.method ?? ''} ${req.url ?? ''}: could not answer: ${describe(err)}`)
        res.destroy()
      })
    }
  }

  /** Starts listening; resolves with the address it listens on. */
  async start(): Promise<HostInfo> {
    if (this.#server !== undefined) throw new StreamsError('ILLEGAL_STATE', 'The interactive query server has already been started')
    const port = this.#o.port ?? parseEndpoint(this.#streams.applicationServer ?? '')?.port
    if (port === undefined)
      throw new StreamsError('INVALID_CONFIG', 'The interactive query server needs a port or an applicationServer ("host:port") config')
    const headersTimeout = this.#o.headersTimeoutMs ?? 10_000
    const server = createServer(
      {
        headersTimeout,
        requestTimeout: Math.max(headersTimeout, this.#o.requestTimeoutMs ?? 30_000),
        keepAliveTimeout: this.#o.keepAliveTimeoutMs ?? 5_000,
        // How often the two limits above are enforced (Node's default: 30 s).
        connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersTimeout / 2)))
      },
      this.handler()
    )
    server.maxConnections = this.#o.maxConnections ?? 1000
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

  /** Stops the built-in server and closes its connections. */
  async close(): Promise<void> {
    const server = this.#server
    if (server === undefined) return
    this.#server = undefined
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let status: number
    let body: string
    let retryAfter = false
    try {
      const answer = await this.#answer(req)
      status = answer.status
      retryAfter = answer.retryAfter === true
      body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, jsonValue)
    } catch (err) {
      this.#logger.error(`Interactive query ${req.method ?? ''} ${req.url ?? ''} failed: ${describe(err)}`)
      status = 500
      body = JSON.stringify({ error: 'INTERNAL' })
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' }
    if (retryAfter) headers['retry-after'] = String(this.#o.retryAfterSeconds ?? 1)
    res.writeHead(status, headers)
    res.end(body)
  }

  async #answer(req: IncomingMessage): Promise<Answer> {
    if (this.#o.authorize !== undefined && !(await this.#o.authorize(req))) return { status: 403, body: { error: 'FORBIDDEN' } }
    const url = new URL(stripBase(req.url ?? '/', this.#o.basePath ?? ''), 'http://localhost')
    const match = req.method === 'GET' ? PATH.exec(url.pathname) : null
    if (match === null) return { status: 404, body: { error: 'NOT_FOUND' } }
    let storeName: string
    let rawKey: string
    try {
      storeName = decodeURIComponent(match[1]!)
      rawKey = decodeURIComponent(match[2]!)
    } catch {
      return badRequest('ILLEGAL_ARGUMENT', 'The path holds a malformed percent-encoding')
    }
    const query = parseQuery(match[3], url.searchParams)
    if (typeof query === 'string') return badRequest('ILLEGAL_ARGUMENT', query)
    let key: K
    try {
      key = this.#o.parseKey === undefined ? (rawKey as unknown as K) : this.#o.parseKey(rawKey)
    } catch (err) {
      this.#logger.debug(`Interactive query: key ${JSON.stringify(rawKey)} could not be parsed: ${describe(err)}`)
      return badRequest('ILLEGAL_ARGUMENT', 'The key could not be parsed')
    }
    const state = this.#streams.state()
    if (state !== 'RUNNING') return unavailable(state === 'REBALANCING' ? 'STREAMS_REBALANCING' : 'NOT_RUNNING')
    let meta: KeyQueryMetadata
    try {
      meta = this.#streams.queryMetadataForKey(storeName, key, this.#keySerializer)
    } catch (err) {
      // What is not a StreamsError here came from the key serializer.
      if (!(err instanceof StreamsError) || err.code === 'SERIALIZATION') {
        this.#logger.debug(`Interactive query: key ${JSON.stringify(rawKey)} could not be serialized: ${describe(err)}`)
        return badRequest('SERIALIZATION', 'The key could not be serialized')
      }
      return errorAnswer(err)
    }
    if (meta.activeHost.port < 0) return unavailable('NOT_AVAILABLE')
    const owner = hostKey(meta.activeHost)
    // A global store has no partition (-1): every instance has all of it.
    if (owner === this.#streams.applicationServer)
      return this.#local(storeName, key, rawKey, meta.partition < 0 ? undefined : meta.partition, owner, query)
    // One hop only: an instance asked by another one that does not host the key either is mid-rebalance.
    if (req.headers[FORWARDED] !== undefined) return unavailable('STATE_STORE_MIGRATED')
    return this.#forward(meta.activeHost, `${this.#o.basePath ?? ''}${url.pathname}${url.search}`)
  }

  #local(storeName: string, key: K, rawKey: string, partition: number | undefined, host: string, query: Query): Answer {
    const where = partition === undefined ? {} : { partition }
    try {
      if (query.kind === 'value') {
        const store = this.#streams.store({
          storeName,
          queryableStoreType: QueryableStoreTypes.keyValueStore<K, unknown>(),
          ...where
        }) as ReadOnlyKeyValueStore<K, unknown>
        const value = store.get(key)
        if (value === null) return { status: 404, body: { error: 'KEY_NOT_FOUND', key: rawKey, host, partition } }
        return { status: 200, body: { key: rawKey, value, host, partition } }
      }
      const iterator =
        query.kind === 'windows'
          ? (
              this.#streams.store({
                storeName,
                queryableStoreType: QueryableStoreTypes.windowStore<K, unknown>(),
                ...where
              }) as ReadOnlyWindowStore<K, unknown>
            ).fetch(key, key, query.from, query.to)
          : (
              this.#streams.store({
                storeName,
                queryableStoreType: QueryableStoreTypes.sessionStore<K, unknown>(),
                ...where
              }) as ReadOnlySessionStore<K, unknown>
            ).fetch(key)
      const windows: Array<{ start: number; end: number; value: unknown }> = []
      try {
        for (const { key: windowed, value } of iterator) windows.push({ start: windowed.window.start, end: windowed.window.end, value })
      } finally {
        iterator.close()
      }
      return { status: 200, body: { key: rawKey, windows, host, partition } }
    } catch (err) {
      return errorAnswer(err)
    }
  }

  async #forward(owner: HostInfo, path: string): Promise<Answer> {
    const trusted = this.#trusted(owner)
    const result = await forwardQuery(owner, path, {
      protocol: this.#o.forwardProtocol ?? 'http',
      requestOptions: trusted ? (this.#o.forwardRequestOptions ?? {}) : this.#anonymous,
      timeoutMs: this.#o.forwardTimeoutMs ?? 5000,
      maxBytes: this.#o.maxForwardedBytes ?? 1024 * 1024,
      forwardedHeader: FORWARDED
    })
    if (result.kind === 'answer' && RELAYED_STATUS.has(result.status)) {
      if (result.status === 403 && this.#withCredential && !trusted)
        this.#logger.warn(
          `Interactive query forwarded to ${hostKey(owner)}: answered 403; it was asked without the headers and auth of forwardRequestOptions, as it is not one of the trustedPeers`
        )
      return { status: result.status, body: result.body, retryAfter: result.retryAfter }
    }
    const reason = result.kind === 'answer' ? `answered status ${result.status}` : result.reason
    this.#logger.warn(`Interactive query forwarded to ${hostKey(owner)}: ${reason}`)
    return result.kind === 'unreachable' ? unavailable('OWNER_UNREACHABLE') : { status: 502, body: { error: 'OWNER_ANSWER_INVALID' } }
  }
}

/** The kind of answer and the window range; a string is what is wrong with the query. */
function parseQuery(kind: string | undefined, params: URLSearchParams): Query | string {
  const bound = (name: string, fallback: number): number | string => {
    const raw = params.get(name)
    if (raw === null) return fallback
    const value = Number(raw)
    return Number.isSafeInteger(value) ? value : `${name} must be an integer (epoch ms), got "${raw}"`
  }
  const from = bound('from', 0)
  const to = bound('to', Number.MAX_SAFE_INTEGER)
  if (typeof from === 'string') return from
  if (typeof to === 'string') return to
  return { kind: kind === 'windows' || kind === 'sessions' ? kind : 'value', from, to }
}

function badRequest(error: string, message: string): Answer {
  return { status: 400, body: { error, message } }
}

/** The request path without the prefix the handler is mounted under (when it is still there). */
function stripBase(path: string, base: string): string {
  if (base === '' || !path.startsWith(base)) return path
  const rest = path.slice(base.length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err)
}

function unavailable(error: string): Answer {
  return { status: 503, body: { error }, retryAfter: true }
}

function errorAnswer(err: unknown): Answer {
  if (!(err instanceof StreamsError)) throw err
  if (err.retriable) return unavailable(err.code)
  if (err.code === 'UNKNOWN_STATE_STORE') return { status: 404, body: { error: err.code } }
  if (err.code === 'ILLEGAL_ARGUMENT' || err.code === 'INVALID_STATE_STORE_PARTITION')
    return { status: 400, body: { error: err.code, message: err.message } }
  // A stored value that cannot be read does not get better by asking again.
  if (err.code === 'SERIALIZATION') return { status: 500, body: { error: err.code } }
  return { status: 503, body: { error: err.code }, retryAfter: true }
}

/** JSON for values JSON cannot show: bigint as a string, Buffers as base64. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (
    value !== null &&
    typeof value === 'object' &&
    (value as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((value as { data?: unknown }).data)
  ) {
    return Buffer.from((value as { data: number[] }).data).toString('base64')
  }
  return value
}
