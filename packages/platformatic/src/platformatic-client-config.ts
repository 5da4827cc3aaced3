/**
 * The adapter's options (what a user may tune), their resolution together with the runtime's
 * client settings, and the one place connection options for platformatic are made. `ssl` goes
 * to platformatic as it is, `sasl` through the adapter's authenticators (platformatic-sasl.ts);
 * both are checked first (core's checkSslConfig, checkSaslConfig) and never logged (redact()).
 */
import { compressionsAlgorithms, type Broker, type ConnectionOptions, type SASLOptions } from '@platformatic/kafka'
import {
  checkSaslConfig,
  checkSslConfig,
  ConfigError,
  intAtLeast,
  systemClock,
  type AdapterClientConfigs,
  type ClientConfigs,
  type ClientConfigValue,
  type Clock,
  type KafkaClientSettings,
  type Logger
} from '@kstreams/core'
import { parseBrokers } from './broker-connections.js'
import { platformaticSasl } from './platformatic-sasl.js'

/** The options of the `@platformatic/kafka` adapter: `platformatic(options)`. */
export interface PlatformaticOptions {
  /** How long cached leaders are used before they are reloaded; default 300000 (metadata.max.age.ms). */
  readonly metadataMaxAgeMs?: number
  /**
   * How often the transactional producer retries a retriable failure at least (platformatic's
   * `retries`); default 5, at least 2. It keeps retrying for about `max.block.ms` in any case.
   */
  readonly retries?: number
  /** The pause before the first such retry, doubling up to 1 s; default 250 ms. */
  readonly retryDelayMs?: number
}

export interface PlatformaticClientConfig {
  readonly logger: Logger
  readonly clock: Clock
  readonly clientId: string
  readonly bootstrap: readonly Broker[]
  readonly metadataMaxAgeMs: number
  readonly retries: number
  readonly retryDelayMs: number
  readonly requestTimeoutMs: number
  /** Transactional producers: default 10000 (Kafka Streams' transaction.timeout.ms under exactly-once). */
  readonly transactionTimeoutMs: number
  /** How long the transactional producer retries a request (the runtime's `max.block.ms`); default 60000. */
  readonly maxBlockMs: number
  /** Connection options (timeouts, TLS, SASL) with `requestTimeout` given, or the settings' one. */
  readonly connectionOptions: (requestTimeoutMs?: number) => ConnectionOptions
  /** The producer's record batch compression (`compression.type`); 'none' by default. */
  readonly compression: PlatformaticCompression
}

/** A record batch compression platformatic has a codec for. */
export type PlatformaticCompression = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd'

const compressionCheck = (v: ClientConfigValue): string | undefined => {
  const name = String(v).toLowerCase()
  const codec = Object.hasOwn(compressionsAlgorithms, name) ? compressionsAlgorithms[name as PlatformaticCompression] : undefined
  if (codec === undefined) return `must be one of ${Object.keys(compressionsAlgorithms).join(', ')}, not ${JSON.stringify(v)}`
  return codec.available ? undefined : `"${name}" needs a Node.js with zlib zstd support`
}

/** The Kafka client configs this adapter honours itself (StreamsConfig `consumer`, `producer`, `admin` keys). */
export const PLATFORMATIC_CLIENT_CONFIGS: AdapterClientConfigs = {
  consumer: { 'request.timeout.ms': intAtLeast(1) },
  producer: {
    'request.timeout.ms': intAtLeast(1),
    'compression.type': compressionCheck,
    retries: intAtLeast(2),
    'retry.backoff.ms': intAtLeast(0)
  },
  admin: { 'request.timeout.ms': intAtLeast(1) }
}

/** The config of one port: the adapter's, with the port's pass-through configs (PLATFORMATIC_CLIENT_CONFIGS) laid over it. */
export function portConfig(config: PlatformaticClientConfig, configs: ClientConfigs | undefined): PlatformaticClientConfig {
  if (configs === undefined || Object.keys(configs).length === 0) return config
  const requestTimeoutMs = configs['request.timeout.ms'] === undefined ? config.requestTimeoutMs : Number(configs['request.timeout.ms'])
  return {
    ...config,
    requestTimeoutMs,
    retries: configs.retries === undefined ? config.retries : Number(configs.retries),
    retryDelayMs: configs['retry.backoff.ms'] === undefined ? config.retryDelayMs : Number(configs['retry.backoff.ms']),
    compression:
      configs['compression.type'] === undefined
        ? config.compression
        : (String(configs['compression.type']).toLowerCase() as PlatformaticCompression),
    connectionOptions: (timeoutMs = requestTimeoutMs) => config.connectionOptions(timeoutMs)
  }
}

const DEFAULT_METADATA_MAX_AGE_MS = 300_000
const DEFAULT_TRANSACTION_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BLOCK_MS = 60_000
const DEFAULT_RETRIES = 5
const DEFAULT_RETRY_DELAY_MS = 250

/** Throws a ConfigError (key `platformatic.<option>`) for an invalid option. */
export function validatePlatformaticOptions(options: PlatformaticOptions): void {
  if (options === null || typeof options !== 'object') throw new ConfigError('platformatic', 'options must be an object')
  const known = new Set(['metadataMaxAgeMs', 'retries', 'retryDelayMs'])
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new ConfigError(`platformatic.${key}`, `unknown option ${key} (known: ${[...known].join(', ')})`)
  }
  integer('metadataMaxAgeMs', options.metadataMaxAgeMs, 1)
  integer('retries', options.retries, 2)
  integer('retryDelayMs', options.retryDelayMs, 0)
}

export function resolvePlatformaticConfig(settings: KafkaClientSettings, options: PlatformaticOptions = {}): PlatformaticClientConfig {
  validatePlatformaticOptions(options)
  const servers = settings.bootstrapServers.map(b => b.trim()).filter(b => b !== '')
  if (servers.length === 0)
    throw new ConfigError('bootstrapServers', 'Missing required config "bootstrapServers": name at least one broker')
  const bootstrap = parseBrokers(servers)
  const bad = bootstrap.findIndex(b => b.host === '' || !Number.isInteger(b.port) || b.port <= 0 || b.port > 65535)
  if (bad >= 0) throw new ConfigError('bootstrapServers', `"${servers[bad]!}" is not host:port`)
  positive('connectionTimeoutMs', settings.connectionTimeoutMs)
  positive('requestTimeoutMs', settings.requestTimeoutMs)
  if (settings.transactionTimeoutMs !== undefined) positive('transactionTimeoutMs', settings.transactionTimeoutMs)
  if (settings.maxBlockMs !== undefined && !(Number.isSafeInteger(settings.maxBlockMs) && settings.maxBlockMs >= 0))
    throw new ConfigError('producer.max.block.ms', `max.block.ms must be an integer of at least 0, not ${String(settings.maxBlockMs)}`)
  const tls = tlsOptions(settings.ssl)
  const sasl = saslOptions(settings.sasl)
  return {
    logger: settings.logger,
    clock: systemClock,
    clientId: settings.clientId,
    bootstrap,
    metadataMaxAgeMs: options.metadataMaxAgeMs ?? DEFAULT_METADATA_MAX_AGE_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    requestTimeoutMs: settings.requestTimeoutMs,
    transactionTimeoutMs: settings.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS,
    maxBlockMs: settings.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS,
    connectionOptions: (requestTimeoutMs = settings.requestTimeoutMs) => ({
      connectTimeout: settings.connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      ...(tls === undefined ? {} : { tls }),
      ...(sasl === undefined ? {} : { sasl })
    }),
    compression: 'none'
  }
}

function tlsOptions(ssl: KafkaClientSettings['ssl']): ConnectionOptions['tls'] | undefined {
  checkSslConfig(ssl)
  if (ssl === undefined || ssl === false) return undefined
  return ssl === true ? {} : ({ ...ssl } as ConnectionOptions['tls'])
}

function saslOptions(sasl: KafkaClientSettings['sasl']): SASLOptions | undefined {
  checkSaslConfig(sasl)
  return sasl === undefined ? undefined : platformaticSasl(sasl)
}

function positive(key: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(key, `${key} must be a positive integer, not ${String(value)}`)
}

function integer(name: string, value: number | undefined, min: number): void {
  if (value === undefined) return
  if (!Number.isSafeInteger(value) || value < min)
    throw new ConfigError(`platformatic.${name}`, `${name} must be an integer of at least ${min}, not ${String(value)}`)
}

const REDACTED = '[redacted]'
const SECRET_KEYS = new Set([
  'password',
  'passphrase',
  'secret',
  'token',
  'oauthbearerprovider',
  'key',
  'cert',
  'ca',
  'pfx',
  'credentials',
  'username'
])

/** A copy of `value` safe to log: SASL reduced to its mechanism, TLS options and secrets replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[function]' : value
  if (depth > 6) return '[nested]'
  if (Buffer.isBuffer(value)) return `<Buffer ${value.length} bytes>`
  if (Array.isArray(value)) return value.map(v => redact(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    const lower = key.toLowerCase()
    if (lower === 'sasl')
      out[key] =
        v !== null && typeof v === 'object' ? { mechanism: (v as { mechanism?: unknown }).mechanism, credentials: REDACTED } : REDACTED
    else if (lower === 'ssl' || lower === 'tls') out[key] = v !== null && typeof v === 'object' ? { enabled: true, options: REDACTED } : v
    else if (SECRET_KEYS.has(lower)) out[key] = REDACTED
    else out[key] = redact(v, depth + 1)
  }
  return out
}
