/**
 * The connections of one port: a platformatic ConnectionPool (one connection per broker, TLS and
 * SASL as configured), the bootstrap brokers, and the node id -> address map learned from every
 * Metadata answer. `request()` sends one low-level platformatic API call and gives back the
 * decoded answer even when it carries error codes (platformatic's parsers throw those as a
 * ResponseError holding the decoded response): the ports read the error codes themselves, per
 * partition or per group. Every other failure rejects with a KafkaRequestError: a connection
 * that cannot be made is NETWORK_EXCEPTION, an answer that does not come REQUEST_TIMED_OUT. A
 * TLS alert the broker sends after the handshake (it refused the client's certificate, mTLS)
 * closes the connection under the request: platformatic fails the request with "Connection
 * closed" and reports the alert only as the connection's error event, which is kept here so
 * that the request fails with SSL_AUTHENTICATION_FAILED.
 */
import { ConnectionPool, metadataV12, type API, type Broker, type Connection, type ConnectionOptions } from '@platformatic/kafka'
import { IllegalStateError, KafkaRequestError, sslAuthenticationError, tlsFailureOf, type TlsFailure } from '@kstreams/core'
import { toKafkaRequestError } from './platformatic-errors.js'

type MetadataResponse = Awaited<ReturnType<typeof metadataV12.api.async>>

const RESPONSE_ERROR = 'PLT_KFK_RESPONSE'

export class BrokerConnections {
  readonly #pool: ConnectionPool
  readonly #bootstrap: readonly Broker[]
  readonly #nodes = new Map<number, Broker>()
  readonly #clientId: string
  /** The TLS failure a connection to each broker (`host:port`) last reported as an error event (see above). */
  readonly #tlsFailures = new Map<string, TlsFailure>()
  #closed = false

  constructor(options: { clientId: string; bootstrap: readonly Broker[]; connection: ConnectionOptions }) {
    this.#clientId = options.clientId
    this.#bootstrap = options.bootstrap
    this.#pool = new ConnectionPool(options.clientId, options.connection)
    this.#pool.on('connecting', ({ broker, connection }: { broker: Broker; connection: Connection }) => {
      connection.on('error', (error: unknown) => {
        const tls = tlsFailureOf(error)
        if (tls !== undefined) this.#tlsFailures.set(address(broker), tls)
      })
    })
    this.#pool.on('connect', ({ broker }: { broker: Broker }) => {
      this.#tlsFailures.delete(address(broker))
    })
  }

  get clientId(): string {
    return this.#clientId
  }

  /** A connection to any broker: a known one first, then the bootstrap servers. */
  async any(what: string): Promise<Connection> {
    this.#requireOpen(what)
    const brokers = [...this.#nodes.values(), ...this.#bootstrap]
    try {
      return await new Promise<Connection>((resolve, reject) => {
        this.#pool.getFirstAvailable(brokers, (error, connection) => {
          error !== null && error !== undefined ? reject(error) : resolve(connection as Connection)
        })
      })
    } catch (error) {
      throw (
        this.#tlsFailure(brokers, error) ??
        toKafkaRequestError(error, `${what}: connecting to ${brokers.map(address).join(', ')}`, 'connect')
      )
    }
  }

  /** A connection to broker `node`; its address comes from the last Metadata answer (loaded when unknown). */
  async node(node: number, what: string): Promise<Connection> {
    this.#requireOpen(what)
    let broker = this.#nodes.get(node)
    if (broker === undefined) {
      await this.metadata([], what)
      broker = this.#nodes.get(node)
    }
    if (broker === undefined)
      throw new KafkaRequestError('NETWORK_EXCEPTION', `${what}: cannot connect to node ${node}, which is not in the cluster metadata`)
    return await this.connect(broker, what)
  }

  /** A connection to the broker at `broker` (a coordinator's address, as FindCoordinator gave it). */
  async connect(broker: Broker, what: string): Promise<Connection> {
    this.#requireOpen(what)
    try {
      return await new Promise<Connection>((resolve, reject) => {
        this.#pool.get(broker, (error, connection) => {
          error !== null && error !== undefined ? reject(error) : resolve(connection as Connection)
        })
      })
    } catch (error) {
      throw this.#tlsFailure([broker], error) ?? toKafkaRequestError(error, `${what}: connecting to ${address(broker)}`, 'connect')
    }
  }

  /** Metadata v12 of `topics` (none: just the brokers; null: every topic) from any broker; topic errors are left to the caller. */
  async metadata(topics: readonly string[] | null, what: string): Promise<MetadataResponse> {
    const connection = await this.any(what)
    const response = await this.request(
      connection,
      metadataV12.api,
      [topics === null ? null : [...topics], false, false],
      `${what} (Metadata)`
    )
    for (const { nodeId, host, port } of response.brokers) this.#nodes.set(nodeId, { host, port })
    return response
  }

  /**
   * Sends one request on `connection`; resolves with the decoded answer, error codes and all.
   * A request that fails as a whole (connection lost, no answer, undecodable) rejects.
   */
  async request<A extends unknown[], R>(connection: Connection, api: API<A, R>, args: A, what: string): Promise<R> {
    this.#requireOpen(what)
    try {
      return await new Promise<R>((resolve, reject) => {
        const callback = (error: Error | null, response?: R): void => {
          if (error === null) resolve(response as R)
          else reject(error)
        }
        ;(api as unknown as (connection: Connection, ...rest: unknown[]) => void)(connection, ...args, callback)
      })
    } catch (error) {
      const carried = error as { code?: unknown; response?: unknown } | null
      if (carried !== null && typeof carried === 'object' && carried.code === RESPONSE_ERROR && carried.response !== undefined)
        return carried.response as R
      const broker = { host: connection.host ?? '', port: connection.port ?? 0 }
      throw this.#tlsFailure([broker], error) ?? toKafkaRequestError(error, what, 'request')
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    try {
      await new Promise<void>((resolve, reject) => {
        this.#pool.close(error => {
          error === null || error === undefined ? resolve() : reject(error)
        })
      })
    } catch (error) {
      throw toKafkaRequestError(error, `Closing the connections of client ${this.#clientId}`)
    }
  }

  /** SSL_AUTHENTICATION_FAILED when a connection to one of `brokers` reported a TLS failure. */
  #tlsFailure(brokers: readonly Broker[], error: unknown): KafkaRequestError | undefined {
    for (const broker of brokers) {
      const failure = this.#tlsFailures.get(address(broker))
      if (failure !== undefined) return sslAuthenticationError({ broker: address(broker), failure, cause: error })
    }
    return undefined
  }

  #requireOpen(what: string): void {
    if (this.#closed) throw new IllegalStateError(`${what}: client ${this.#clientId} is closed`)
  }
}

function address(broker: Broker): string {
  return `${broker.host}:${broker.port}`
}

/** `host:port` strings as platformatic brokers. */
export function parseBrokers(servers: readonly string[]): Broker[] {
  return servers.map(server => {
    const at = server.lastIndexOf(':')
    const host = at < 0 ? server : server.slice(0, at)
    const port = at < 0 ? 9092 : Number(server.slice(at + 1))
    return { host: host.replace(/^\[|\]$/g, ''), port }
  })
}
