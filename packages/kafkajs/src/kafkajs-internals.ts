/**
 * Owns every use of kafkajs 2.2.4 internals, typed (only the members used here) and checked once
 * when the client factory is made: kafkajs has no manual-assignment consumer and no way to send
 * a single group or fetch request, so the ports are built on its own pieces, unmodified:
 *
 * - a Cluster from the Kafka client's private cluster factory (same brokers, TLS, SASL, timeouts,
 *   retry and logger as kafkajs' own clients), for connections, metadata and the coordinator;
 * - kafkajs' protocol request definitions (`lookupRequest` picks the version both sides
 *   support) sent through the broker's private send, so that a request can carry what the
 *   broker's convenience methods drop (group.instance.id) and a Fetch response can be decoded
 *   without the parse step that throws its first partition error;
 * - the consumer's Batch class, which drops aborted and control records;
 * - the Fetch response's record set decoder, to decode a response kafkajs rejected one record
 *   batch at a time (fetch-partitions.ts).
 * - its PLAIN and SCRAM authenticators, run inside the adapter's own (kafkajs-sasl.ts).
 *
 * kafkajs is pinned exactly, so none of this moves under us; `load()` fails with a StreamsError
 * naming what is missing if another kafkajs is installed.
 */
import { createRequire } from 'node:module'
import type { Kafka } from 'kafkajs'
import { KAFKA_ERRORS, StreamsError, type Logger } from '@kstreams/core'

const require = createRequire(import.meta.url)

export const REQUIRED_KAFKAJS_VERSION = '2.2.4'
export const ISOLATION_READ_UNCOMMITTED = 0
export const ISOLATION_READ_COMMITTED = 1
export const EARLIEST_TIMESTAMP = -2
export const LATEST_TIMESTAMP = -1

/** The requests sent through `KafkajsInternals.send` (kafkajs' names for them). */
export type ApiName = 'Fetch' | 'Metadata' | 'JoinGroup' | 'SyncGroup' | 'Heartbeat' | 'LeaveGroup'
const API_NAMES: readonly ApiName[] = ['Fetch', 'Metadata', 'JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup']

/** A record as kafkajs' record batch decoder returns it (strings for 64-bit numbers). */
export interface RawMessage {
  readonly offset: string
  readonly timestamp: string
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Record<string, Buffer | string | null | Array<Buffer | string | null> | undefined>
  readonly isControlRecord: boolean
  readonly batchContext?: { readonly firstOffset: string; readonly lastOffsetDelta: number }
}

/** One partition of a decoded Fetch response (v4 and later; `lastStartOffset` is kafkajs' spelling of log_start_offset). */
export interface FetchPartitionResponse {
  readonly partition: number
  readonly errorCode: number
  readonly highWatermark: string
  readonly lastStableOffset?: string
  readonly lastStartOffset?: string
  readonly abortedTransactions?: ReadonlyArray<{ producerId: string; firstOffset: string }> | null
  readonly messages: RawMessage[]
}

export interface FetchResponse {
  readonly errorCode?: number
  readonly responses: ReadonlyArray<{ readonly topicName: string; readonly partitions: readonly FetchPartitionResponse[] }>
}

export interface MetadataResponse {
  readonly topicMetadata: ReadonlyArray<{
    readonly topicErrorCode: number
    readonly topic: string
    readonly partitionMetadata: ReadonlyArray<{
      readonly partitionErrorCode: number
      readonly partitionId: number
      readonly leader: number
    }>
  }>
}

/** What a kafkajs request definition makes: the encoder, the response decoder and parser, a timeout. */
interface ProtocolRequest {
  readonly request: { readonly apiKey: number; readonly apiVersion: number; readonly apiName: string }
  readonly response: { decode(raw: Buffer): Promise<unknown>; parse(decoded: unknown): Promise<unknown> }
  readonly requestTimeout?: number
  readonly logResponseError?: boolean
}

interface RequestDefinitions {
  readonly versions: readonly string[]
  protocol(options: { version: number }): (args: Record<string, unknown>) => ProtocolRequest
}

export interface InternalBroker {
  readonly nodeId: number | string | null
  /** Set when the broker connects: the request definition at the best version both sides support. */
  readonly lookupRequest: (apiKey: number, definitions: RequestDefinitions) => (args: Record<string, unknown>) => ProtocolRequest
  offsetCommit(request: {
    groupId: string
    groupGenerationId: number
    memberId: string
    topics: Array<{ topic: string; partitions: Array<{ partition: number; offset: string; metadata: string | null }> }>
  }): Promise<unknown>
  offsetFetch(request: {
    groupId: string
    topics: Array<{ topic: string; partitions: Array<{ partition: number }> }>
  }): Promise<{ responses: Array<{ topic: string; partitions: Array<{ partition: number; offset: string; metadata: string | null }> }> }>
  /** FindCoordinator (coordinatorType 0: a group); rejects with the broker's error. */
  findGroupCoordinator(request: { groupId: string; coordinatorType: number }): Promise<unknown>
  listOffsets(request: {
    isolationLevel: number
    topics: Array<{ topic: string; partitions: Array<{ partition: number; timestamp: number }> }>
  }): Promise<{ responses: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> }>
}

export interface InternalCluster {
  connect(): Promise<void>
  disconnect(): Promise<void>
  refreshMetadata(): Promise<void>
  refreshMetadataIfNecessary(): Promise<void>
  findBroker(options: { nodeId: string }): Promise<InternalBroker>
  findGroupCoordinator(options: { groupId: string }): Promise<InternalBroker>
  readonly brokerPool: { findConnectedBroker(): Promise<InternalBroker> }
}

/** kafkajs' SaslAuthenticate round trip given to an authentication provider: the request's bytes out, the response's parsed bytes back. */
export type SaslAuthenticate = (exchange: {
  request: { encode(): Promise<Buffer> }
  response?: { decode(raw: Buffer): Promise<Buffer>; parse(decoded: Buffer): Promise<Buffer> }
}) => Promise<Buffer | undefined>

/** A kafkajs SASL authentication provider (its hook for custom mechanisms), made per connection. */
export type SaslAuthenticationProvider = (args: {
  readonly host: string
  readonly port: number
  readonly logger: unknown
  readonly saslAuthenticate: SaslAuthenticate
}) => { authenticate(): Promise<void> }

/** kafkajs' built-in PLAIN or SCRAM authenticator for the given credentials. */
export type BuiltInSaslAuthenticator = (sasl: { username: string; password: string }) => SaslAuthenticationProvider

/** kafkajs' built-in authenticators used here, by Kafka's mechanism name, and their modules. */
const SASL_AUTHENTICATORS = {
  PLAIN: 'kafkajs/src/broker/saslAuthenticator/plain.js',
  'SCRAM-SHA-256': 'kafkajs/src/broker/saslAuthenticator/scram256.js',
  'SCRAM-SHA-512': 'kafkajs/src/broker/saslAuthenticator/scram512.js'
} as const

/** kafkajs' consumer Batch: `messages` without aborted, control or below-fetch-offset records. */
export interface InternalBatch {
  readonly messages: RawMessage[]
  readonly rawMessages: RawMessage[]
}

type BatchConstructor = new (topic: string, fetchedOffset: string, partitionData: FetchPartitionResponse) => InternalBatch
type CreateCluster = (options: { metadataMaxAge: number; allowAutoTopicCreation: boolean; isolationLevel?: number }) => InternalCluster
type SendRequest = (this: InternalBroker, request: ProtocolRequest) => Promise<unknown>

interface Loaded {
  readonly version: string
  readonly Batch: BatchConstructor
  readonly requests: Readonly<Record<ApiName, RequestDefinitions>>
  readonly apiKeys: Readonly<Record<ApiName, number>>
  readonly sendRequest: symbol
  readonly createErrorFromCode: (code: number) => Error
  readonly decodeMessages: (decoder: unknown) => Promise<RawMessage[]>
  readonly Decoder: new (buffer: Buffer) => unknown
  readonly saslAuthenticators: Readonly<Record<string, BuiltInSaslAuthenticator>>
}

const CLUSTER_METHODS = ['connect', 'disconnect', 'refreshMetadata', 'refreshMetadataIfNecessary', 'findBroker', 'findGroupCoordinator']
const BROKER_METHODS = ['connect', 'offsetCommit', 'offsetFetch', 'listOffsets', 'findGroupCoordinator']

export class KafkajsInternals {
  readonly #loaded: Loaded

  private constructor(loaded: Loaded) {
    this.#loaded = loaded
  }

  /**
   * Loads and checks every internal used here; throws a StreamsError naming what is missing
   * (another kafkajs than 2.2.4 is installed). A different version string with every internal
   * in place is only logged. `requireModule` is Node's require (another one in tests).
   */
  static load(logger: Logger, requireModule: (path: string) => unknown = require): KafkajsInternals {
    const missing: string[] = []
    const load = (path: string): unknown => {
      try {
        return requireModule(path)
      } catch {
        missing.push(`module ${path}`)
        return undefined
      }
    }
    const version = (load('kafkajs/package.json') as { version?: unknown } | undefined)?.version
    const Batch = load('kafkajs/src/consumer/batch.js')
    if (typeof Batch !== 'function') missing.push('consumer Batch class (kafkajs/src/consumer/batch.js)')
    const Cluster = load('kafkajs/src/cluster/index.js') as { prototype?: Record<string, unknown> } | undefined
    for (const method of CLUSTER_METHODS) {
      if (typeof Cluster?.prototype?.[method] !== 'function') missing.push(`Cluster#${method}`)
    }
    const BrokerPool = load('kafkajs/src/cluster/brokerPool.js') as { prototype?: Record<string, unknown> } | undefined
    if (typeof BrokerPool?.prototype?.findConnectedBroker !== 'function') missing.push('BrokerPool#findConnectedBroker')
    const Broker = load('kafkajs/src/broker/index.js') as { prototype?: Record<string | symbol, unknown> } | undefined
    for (const method of BROKER_METHODS) {
      if (typeof Broker?.prototype?.[method] !== 'function') missing.push(`Broker#${method}`)
    }
    const sendRequest =
      Broker?.prototype === undefined
        ? undefined
        : Object.getOwnPropertySymbols(Broker.prototype).find(s => s.description === 'private:Broker:sendRequest')
    if (sendRequest === undefined || typeof Broker?.prototype?.[sendRequest] !== 'function')
      missing.push('Broker private:Broker:sendRequest')
    const requests = (load('kafkajs/src/protocol/requests/index.js') as { requests?: Record<string, unknown> } | undefined)?.requests
    const apiKeys = load('kafkajs/src/protocol/requests/apiKeys.js') as Record<string, unknown> | undefined
    for (const name of API_NAMES) {
      const definitions = requests?.[name] as Partial<RequestDefinitions> | undefined
      if (typeof definitions?.protocol !== 'function' || !Array.isArray(definitions.versions)) missing.push(`request definitions ${name}`)
      if (typeof apiKeys?.[name] !== 'number') missing.push(`api key ${name}`)
    }
    const createErrorFromCode = (load('kafkajs/src/protocol/error.js') as { createErrorFromCode?: unknown } | undefined)
      ?.createErrorFromCode
    if (typeof createErrorFromCode !== 'function') missing.push('protocol createErrorFromCode')
    const decodeMessages = load('kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js')
    if (typeof decodeMessages !== 'function')
      missing.push('Fetch decodeMessages (kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js)')
    const Decoder = load('kafkajs/src/protocol/decoder.js')
    if (typeof Decoder !== 'function') missing.push('protocol Decoder (kafkajs/src/protocol/decoder.js)')
    const saslAuthenticators: Record<string, BuiltInSaslAuthenticator> = {}
    for (const [mechanism, path] of Object.entries(SASL_AUTHENTICATORS)) {
      const authenticator = load(path)
      if (typeof authenticator === 'function') saslAuthenticators[mechanism] = authenticator as BuiltInSaslAuthenticator
      else missing.push(`SASL ${mechanism} authenticator (${path})`)
    }
    if (missing.length > 0) {
      throw new StreamsError(
        'ILLEGAL_STATE',
        `@kstreams/kafkajs needs kafkajs exactly ${REQUIRED_KAFKAJS_VERSION} ` +
          `(found ${String(version ?? 'none')}); missing internals: ${missing.join(', ')}`
      )
    }
    if (version !== REQUIRED_KAFKAJS_VERSION) {
      logger.warn(
        `@kstreams/kafkajs is built for kafkajs ${REQUIRED_KAFKAJS_VERSION}, found ${String(version)}; its internals are in place, continuing`
      )
    }
    return new KafkajsInternals({
      version: String(version),
      Batch: Batch as BatchConstructor,
      requests: requests as Record<ApiName, RequestDefinitions>,
      apiKeys: apiKeys as Record<ApiName, number>,
      sendRequest: sendRequest!,
      createErrorFromCode: createErrorFromCode as (code: number) => Error,
      decodeMessages: decodeMessages as Loaded['decodeMessages'],
      Decoder: Decoder as Loaded['Decoder'],
      saslAuthenticators
    })
  }

  get version(): string {
    return this.#loaded.version
  }

  /** Throws the StreamsError of `load()` when `kafka` has no private cluster factory. */
  verifyClient(kafka: Kafka): void {
    if (clusterFactory(kafka) === undefined) {
      throw new StreamsError(
        'ILLEGAL_STATE',
        `@kstreams/kafkajs needs kafkajs exactly ${REQUIRED_KAFKAJS_VERSION} ` +
          `(found ${this.#loaded.version}); missing internals: Kafka private:Kafka:createCluster`
      )
    }
  }

  /** A new Cluster (its own connections) from the client's private factory; no automatic topic creation. */
  createCluster(kafka: Kafka, options: { metadataMaxAge: number }): InternalCluster {
    const factory = clusterFactory(kafka)
    if (factory === undefined) this.verifyClient(kafka)
    return factory!({ metadataMaxAge: options.metadataMaxAge, allowAutoTopicCreation: false })
  }

  createBatch(topic: string, fetchedOffset: number, partitionData: FetchPartitionResponse): InternalBatch {
    return new this.#loaded.Batch(topic, String(fetchedOffset), partitionData)
  }

  /** The records of a record set (record batches or legacy messages, as in a Fetch response), by kafkajs' decoder. */
  async decodeRecordSet(records: Buffer): Promise<RawMessage[]> {
    const size = Buffer.allocUnsafe(4)
    size.writeInt32BE(records.length)
    return await this.#loaded.decodeMessages(new this.#loaded.Decoder(Buffer.concat([size, records])))
  }

  /** kafkajs' built-in authenticator of `mechanism` (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512). */
  saslAuthenticator(mechanism: string): BuiltInSaslAuthenticator {
    const authenticator = this.#loaded.saslAuthenticators[mechanism]
    if (authenticator === undefined) throw new StreamsError('ILLEGAL_STATE', `kafkajs has no built-in SASL ${mechanism} authenticator`)
    return authenticator
  }

  /** kafkajs' protocol error for a Kafka error code (its `type`, `code` and `retriable`). */
  protocolError(code: number): Error {
    return this.#loaded.createErrorFromCode(code)
  }

  /**
   * Sends one request of kafkajs' definition `api` to a connected broker, at the version
   * `lookupRequest` picked. `decodeOnly` skips the parse step (which throws the response's
   * first error): the decoded response comes back with its error codes, plus `extra(raw,
   * apiVersion)` of the raw response bytes when given; when kafkajs' decoder throws, `recover(raw,
   * apiVersion)` decodes the response instead, if given. `minVersion` rejects (UNSUPPORTED_VERSION,
   * by kafkajs' own error) when the broker cannot take a field the request needs.
   */
  async send<T>(
    broker: InternalBroker,
    api: ApiName,
    args: Record<string, unknown>,
    options: {
      decodeOnly?: boolean
      minVersion?: number
      extra?: (raw: Buffer, apiVersion: number) => unknown
      recover?: (raw: Buffer, apiVersion: number) => Promise<object>
    } = {}
  ): Promise<T> {
    if (typeof broker.lookupRequest !== 'function') {
      throw new StreamsError('ILLEGAL_STATE', `kafkajs broker has no lookupRequest (kafkajs must be exactly ${REQUIRED_KAFKAJS_VERSION})`)
    }
    const protocol = broker.lookupRequest(this.#loaded.apiKeys[api], this.#loaded.requests[api])(args)
    const apiVersion = protocol.request.apiVersion
    if (options.minVersion !== undefined && apiVersion < options.minVersion) {
      throw Object.assign(this.protocolError(KAFKA_ERRORS.UNSUPPORTED_VERSION.code), {
        message: `${api} v${options.minVersion} needed, the broker supports v${apiVersion}`
      })
    }
    const { decode } = protocol.response
    const { extra, recover } = options
    const decodeOrRecover = async (raw: Buffer): Promise<object> => {
      try {
        return (await decode(raw)) as object
      } catch (error) {
        if (recover === undefined) throw error
        try {
          return await recover(raw, apiVersion)
        } catch {
          throw error // what kafkajs threw, when the response cannot be read this way either
        }
      }
    }
    const request: ProtocolRequest =
      options.decodeOnly === true
        ? {
            ...protocol,
            response: {
              decode: async raw =>
                extra === undefined ? await decodeOrRecover(raw) : { ...(await decodeOrRecover(raw)), extra: extra(raw, apiVersion) },
              parse: async decoded => decoded
            }
          }
        : protocol
    const send = (broker as unknown as Record<symbol, SendRequest>)[this.#loaded.sendRequest]!
    return (await send.call(broker, request)) as T
  }
}

function clusterFactory(kafka: Kafka): CreateCluster | undefined {
  const symbol = Object.getOwnPropertySymbols(kafka).find(s => s.description === 'private:Kafka:createCluster')
  const factory = symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol]
  return typeof factory === 'function' ? (factory as CreateCluster) : undefined
}
