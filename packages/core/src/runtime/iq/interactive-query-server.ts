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
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamsError } from '../../errors.js'
import { toSerializer, type SerializerLike } from '../../serialization/serde.js'
import type { ReadOnlyKeyValueStore } from '../../state/key-value-store.js'
import type { ReadOnlySessionStore } from '../../state/session-store.js'
import type { ReadOnlyWindowStore } from '../../state/window-store.js'
import { QueryableStoreTypes } from './queryable-store-types.js'
import type { StoreQueryParameters } from './queryable-store-provider.js'
import { hostKey, type HostInfo, type KeyQueryMetadata } from './streams-metadata-state.js'
import type { Serializer } from '../../serialization/serde.js'

/** What the server needs of a KafkaStreams instance. */
export interface QueryableStreams {
  state(): string
  readonly applicationServer: string | undefined
  store<T>(params: StoreQueryParameters<T>): T
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata
}

export interface InteractiveQueryServerOptions<K> {
  /** The serializer of the stores' keys, used to find a key's partition. */
  readonly keySerializer: SerializerLike<K>
  /** Turns the URL path segment into a key (default: the string itself). */
  readonly parseKey?: (raw: string) => K
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Port to listen on (default: the port of the instance's applicationServer). */
  readonly port?: number
  /** Timeout of a forwarded request (default 5000 ms). */
  readonly forwardTimeoutMs?: number
  /** Retry-After of a 503 answer, in seconds (default 1). */
  readonly retryAfterSeconds?: number
}

const FORWARDED = 'x-kstreams-forwarded'
const PATH = /^\/stores\/([^/]+)\/keys\/([^/]+)(?:\/(windows|sessions))?$/

/** What a request asks for: one value, or the windows (or sessions) of the key. */
interface Query { readonly kind: 'value' | 'windows' | 'sessions', readonly from: number, readonly to: number }

interface Answer { status: number, body: unknown, retryAfter?: boolean }

export class InteractiveQueryServer<K = string> {
  readonly #streams: QueryableStreams
  readonly #o: InteractiveQueryServerOptions<K>
  readonly #keySerializer: Serializer<K>
  #server: Server | undefined

  constructor (streams: QueryableStreams, options: InteractiveQueryServerOptions<K>) {
    this.#streams = streams
    this.#o = options
    this.#keySerializer = toSerializer(options.keySerializer)
  }

  /** Starts listening; resolves with the address it listens on. */
  async start (): Promise<HostInfo> {
    if (this.#server !== undefined) throw new StreamsError('ILLEGAL_STATE', 'The interactive query server has already been started')
    const port = this.#o.port ?? portOf(this.#streams.applicationServer)
    if (port === undefined) throw new StreamsError('INVALID_CONFIG', 'The interactive query server needs a port or an applicationServer ("host:port") config')
    const server = createServer((req, res) => { void this.#handle(req, res) })
    this.#server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, this.#o.host ?? '127.0.0.1', () => { server.off('error', reject); resolve() })
    })
    const address = server.address() as AddressInfo
    return { host: address.address, port: address.port }
  }

  async close (): Promise<void> {
    const server = this.#server
    if (server === undefined) return
    this.#server = undefined
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
  }

  async #handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: Answer
    try {
      answer = await this.#answer(req)
    } catch (err) {
      answer = { status: 500, body: { error: err instanceof StreamsError ? err.code : 'INTERNAL', message: err instanceof Error ? err.message : String(err) } }
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (answer.retryAfter === true) headers['retry-after'] = String(this.#o.retryAfterSeconds ?? 1)
    res.writeHead(answer.status, headers)
    res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, jsonValue))
  }

  async #answer (req: IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const match = req.method === 'GET' ? PATH.exec(url.pathname) : null
    if (match === null) return { status: 404, body: { error: 'NOT_FOUND' } }
    const storeName = decodeURIComponent(match[1]!)
    const rawKey = decodeURIComponent(match[2]!)
    const query = parseQuery(match[3], url.searchParams)
    if (typeof query === 'string') return { status: 400, body: { error: 'ILLEGAL_ARGUMENT', message: query } }
    const key = this.#o.parseKey === undefined ? rawKey as unknown as K : this.#o.parseKey(rawKey)
    const state = this.#streams.state()
    if (state !== 'RUNNING') return unavailable(state === 'REBALANCING' ? 'STREAMS_REBALANCING' : 'NOT_RUNNING')
    let meta: KeyQueryMetadata
    try {
      meta = this.#streams.queryMetadataForKey(storeName, key, this.#keySerializer)
    } catch (err) {
      return errorAnswer(err)
    }
    if (meta.activeHost.port < 0) return unavailable('NOT_AVAILABLE')
    const owner = hostKey(meta.activeHost)
    // A global store has no partition (-1): every instance has all of it.
    if (owner === this.#streams.applicationServer) return this.#local(storeName, key, rawKey, meta.partition < 0 ? undefined : meta.partition, owner, query)
    // One hop only: an instance asked by another one that does not host the key either is mid-rebalance.
    if (req.headers[FORWARDED] !== undefined) return unavailable('STATE_STORE_MIGRATED')
    return this.#forward(meta.activeHost, req.url!)
  }

  #local (storeName: string, key: K, rawKey: string, partition: number | undefined, host: string, query: Query): Answer {
    const where = partition === undefined ? {} : { partition }
    try {
      if (query.kind === 'value') {
        const store = this.#streams.store({ storeName, queryableStoreType: QueryableStoreTypes.keyValueStore<K, unknown>(), ...where }) as ReadOnlyKeyValueStore<K, unknown>
        const value = store.get(key)
        if (value === null) return { status: 404, body: { error: 'KEY_NOT_FOUND', key: rawKey, host, partition } }
        return { status: 200, body: { key: rawKey, value, host, partition } }
      }
      const iterator = query.kind === 'windows'
        ? (this.#streams.store({ storeName, queryableStoreType: QueryableStoreTypes.windowStore<K, unknown>(), ...where }) as ReadOnlyWindowStore<K, unknown>).fetch(key, key, query.from, query.to)
        : (this.#streams.store({ storeName, queryableStoreType: QueryableStoreTypes.sessionStore<K, unknown>(), ...where }) as ReadOnlySessionStore<K, unknown>).fetch(key)
      const windows: Array<{ start: number, end: number, value: unknown }> = []
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

  async #forward (owner: HostInfo, path: string): Promise<Answer> {
    return new Promise<Answer>(resolve => {
      const req = request({ host: owner.host, port: owner.port, path, method: 'GET', headers: { [FORWARDED]: '1' }, timeout: this.#o.forwardTimeoutMs ?? 5000 }, res => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8'), retryAfter: res.headers['retry-after'] !== undefined }))
        res.on('error', () => resolve(unavailable('OWNER_UNREACHABLE')))
      })
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', () => resolve(unavailable('OWNER_UNREACHABLE')))
      req.end()
    })
  }
}

/** The kind of answer and the window range; a string is what is wrong with the query. */
function parseQuery (kind: string | undefined, params: URLSearchParams): Query | string {
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

function unavailable (error: string): Answer {
  return { status: 503, body: { error }, retryAfter: true }
}

function errorAnswer (err: unknown): Answer {
  if (!(err instanceof StreamsError)) throw err
  if (err.retriable) return unavailable(err.code)
  if (err.code === 'UNKNOWN_STATE_STORE') return { status: 404, body: { error: err.code } }
  if (err.code === 'ILLEGAL_ARGUMENT' || err.code === 'INVALID_STATE_STORE_PARTITION') return { status: 400, body: { error: err.code, message: err.message } }
  return { status: 503, body: { error: err.code }, retryAfter: true }
}

function portOf (endpoint: string | undefined): number | undefined {
  if (endpoint === undefined) return undefined
  const port = Number(endpoint.slice(endpoint.lastIndexOf(':') + 1))
  return Number.isInteger(port) ? port : undefined
}

/** JSON for values JSON cannot show: bigint as a string, Buffers as base64. */
function jsonValue (_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
    return Buffer.from((value as { data: number[] }).data).toString('base64')
  }
  return value
}
