/**
 * The adapter's options (what a user may tune for kafkajs), their resolution together with the
 * runtime's client settings, and the one place a kafkajs `Kafka` client is made. `ssl` goes to
 * kafkajs as it is, `sasl` through the adapter's authenticators (kafkajs-sasl.ts); both are checked
 * first (core's checkSslConfig, checkSaslConfig) and never logged (see redact()).
 */
import { CompressionTypes, Kafka, type KafkaConfig, type RetryOptions } from 'kafkajs'
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
import { hasKafkajsCodec, registerKafkajsCodecs } from './kafkajs-codecs.js'
import { KafkajsInternals } from './kafkajs-internals.js'
import { createLogCreator, KAFKAJS_LOG_LEVELS, type KafkajsLogLevelName } from './kafkajs-log-creator.js'
import { kafkajsSasl } from './kafkajs-sasl.js'

/** The options of the kafkajs adapter: `kafkajs(options)`. */
export interface KafkajsOptions {
  /** kafkajs' retry settings (connecting, metadata, finding a coordinator, the producer's sends); kafkajs' defaults otherwise. */
  readonly retry?: RetryOptions
  /** How long cached metadata (leaders, brokers) is used before it is reloaded; default 300000 (metadata.max.age.ms). */
  readonly metadataMaxAgeMs?: number
  /**
   * Upper bound on a Fetch's max bytes, whatever the runtime asks for: kafkajs decodes a whole
   * response at once on the event loop, so a smaller bound keeps each decode short.
   */
  readonly fetchMaxBytes?: number
  /** Upper bound on a Fetch's max bytes per partition (see fetchMaxBytes). */
  readonly fetchMaxPartitionBytes?: number
  /** kafkajs' own log level; its lines go to the runtime's Logger, secrets redacted. Default "warn". */
  readonly logLevel?: KafkajsLogLevelName
}

export interface KafkajsClientConfig {
  readonly logger: Logger
  readonly clock: Clock
  readonly metadataMaxAgeMs: number
  readonly fetchMaxBytes: number | undefined
  readonly fetchMaxPartitionBytes: number | undefined
  /** Transactional producers: default 10000 (Kafka Streams' transaction.timeout.ms under exactly-once). */
  readonly transactionTimeoutMs: number
  /**
   * Makes the kafkajs client of one port; `clientId` is the port's client id (the settings' one
   * when empty), `configs` the port's pass-through configs (KAFKAJS_CLIENT_CONFIGS).
   */
  readonly createKafka: (clientId: string, configs?: ClientConfigs) => Kafka
}

/** The codecs of `compression.type` (gzip is kafkajs' own; snappy, lz4 and zstd come from kafkajs-codecs.ts). */
const COMPRESSION: Readonly<Record<string, CompressionTypes>> = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD
}

/** What is wrong with a `compression.type`: not a Kafka codec, or one kafkajs has no codec for here (zstd before Node.js 22.15). */
function compressionCheck(value: ClientConfigValue): string | undefined {
  const name = typeof value === 'string' ? value.toLowerCase() : undefined
  const type = name !== undefined && Object.hasOwn(COMPRESSION, name) ? COMPRESSION[name]! : undefined
  if (type === undefined) return `must be one of ${Object.keys(COMPRESSION).join(', ')}, not ${JSON.stringify(value)}`
  registerKafkajsCodecs()
  if (hasKafkajsCodec(type)) return undefined
  return (
    `${name} needs Node.js 22.15 or later (node:zlib's zstd; this is ${process.version}), ` +
    `or a ${name} codec registered in kafkajs' CompressionCodecs`
  )
}

/** The Kafka client configs this adapter honours itself (StreamsConfig `consumer`, `producer`, `admin` keys). */
export const KAFKAJS_CLIENT_CONFIGS: AdapterClientConfigs = {
  consumer: { 'request.timeout.ms': intAtLeast(1) },
  producer: {
    'request.timeout.ms': intAtLeast(1),
    'compression.type': compressionCheck,
    retries: intAtLeast(0),
    'retry.backoff.ms': intAtLeast(0)
  },
  admin: { 'request.timeout.ms': intAtLeast(1), retries: intAtLeast(0), 'retry.backoff.ms': intAtLeast(0) }
}

/** The kafkajs compression of a producer's `compression.type` (None when unset). */
export function kafkajsCompression(configs: ClientConfigs | undefined): CompressionTypes {
  const type = configs?.['compression.type']
  return type === undefined ? CompressionTypes.None : COMPRESSION[String(type).toLowerCase()]!
}

/** kafkajs' retry settings with a port's `retries` and `retry.backoff.ms` laid over the adapter's. */
function retryOf(base: RetryOptions | undefined, configs: ClientConfigs): RetryOptions | undefined {
  const retries = configs.retries
  const backoff = configs['retry.backoff.ms']
  if (retries === undefined && backoff === undefined) return base
  return {
    ...base,
    ...(retries === undefined ? {} : { retries: Number(retries) }),
    ...(backoff === undefined ? {} : { initialRetryTime: Number(backoff) })
  }
}

const DEFAULT_METADATA_MAX_AGE_MS = 300_000
const DEFAULT_TRANSACTION_TIMEOUT_MS = 10_000

/** Throws a ConfigError (key `kafkajs.<option>`) for an invalid option. */
export function validateKafkajsOptions(options: KafkajsOptions): void {
  positive('metadataMaxAgeMs', options.metadataMaxAgeMs)
  positive('fetchMaxBytes', options.fetchMaxBytes)
  positive('fetchMaxPartitionBytes', options.fetchMaxPartitionBytes)
  const levelName = options.logLevel ?? 'warn'
  if (!Object.hasOwn(KAFKAJS_LOG_LEVELS, levelName)) {
    throw new ConfigError(
      'kafkajs.logLevel',
      `logLevel must be one of ${Object.keys(KAFKAJS_LOG_LEVELS).join(', ')}, not ${String(levelName)}`
    )
  }
  if (options.retry !== undefined && (options.retry === null || typeof options.retry !== 'object')) {
    throw new ConfigError('kafkajs.retry', 'retry must be an object of kafkajs retry settings')
  }
}

/** The adapter's config from the runtime's settings and the options; `internals` give the SASL authenticators. */
export function resolveKafkajsConfig(
  settings: KafkaClientSettings,
  options: KafkajsOptions = {},
  internals: KafkajsInternals = KafkajsInternals.load(settings.logger)
): KafkajsClientConfig {
  validateKafkajsOptions(options)
  checkSslConfig(settings.ssl)
  checkSaslConfig(settings.sasl)
  const ssl = settings.ssl === undefined || settings.ssl === false ? undefined : (settings.ssl as KafkaConfig['ssl'])
  const sasl = settings.sasl === undefined ? undefined : kafkajsSasl(settings.sasl, internals)
  const brokers = settings.bootstrapServers.map(b => b.trim()).filter(b => b !== '')
  if (brokers.length === 0)
    throw new ConfigError('bootstrapServers', 'Missing required config "bootstrapServers": name at least one broker')
  const metadataMaxAgeMs = options.metadataMaxAgeMs ?? DEFAULT_METADATA_MAX_AGE_MS
  const fetchMaxBytes = options.fetchMaxBytes
  const fetchMaxPartitionBytes = options.fetchMaxPartitionBytes
  const logLevel = KAFKAJS_LOG_LEVELS[options.logLevel ?? 'warn']
  const logCreator = createLogCreator(settings.logger)
  return {
    logger: settings.logger,
    clock: systemClock,
    metadataMaxAgeMs,
    fetchMaxBytes,
    fetchMaxPartitionBytes,
    transactionTimeoutMs: settings.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS,
    createKafka: (clientId: string, configs: ClientConfigs = {}) => {
      const retry = retryOf(options.retry, configs)
      const requestTimeout = configs['request.timeout.ms']
      return new Kafka({
        brokers,
        clientId: clientId === '' ? settings.clientId : clientId,
        ...(ssl === undefined ? {} : { ssl }),
        ...(sasl === undefined ? {} : { sasl }),
        connectionTimeout: settings.connectionTimeoutMs,
        requestTimeout: requestTimeout === undefined ? settings.requestTimeoutMs : Number(requestTimeout),
        ...(retry === undefined ? {} : { retry }),
        logLevel,
        logCreator
      })
    }
  }
}

function positive(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(`kafkajs.${name}`, `${name} must be a positive integer, not ${String(value)}`)
  return value
}
