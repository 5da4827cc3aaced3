/**
 * The adapter's options (what a user may tune for kafkajs), their resolution together with the
 * runtime's client settings, and the one place a kafkajs `Kafka` client is made. `ssl` and
 * `sasl` go to kafkajs untouched and are never logged (see redact()).
 */
import { Kafka, type KafkaConfig, type RetryOptions } from 'kafkajs'
import { ConfigError, systemClock, type Clock, type KafkaClientSettings, type Logger } from '@kstreams/core'
import { createLogCreator, KAFKAJS_LOG_LEVELS, type KafkajsLogLevelName } from './kafkajs-log-creator.js'

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
  /** Makes the kafkajs client of one port; `clientId` is the port's client id (the settings' one when empty). */
  readonly createKafka: (clientId: string) => Kafka
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

export function resolveKafkajsConfig(settings: KafkaClientSettings, options: KafkajsOptions = {}): KafkajsClientConfig {
  validateKafkajsOptions(options)
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
    createKafka: (clientId: string) =>
      new Kafka({
        brokers,
        clientId: clientId === '' ? settings.clientId : clientId,
        ...(settings.ssl === undefined ? {} : { ssl: settings.ssl as KafkaConfig['ssl'] }),
        ...(settings.sasl === undefined ? {} : { sasl: settings.sasl as unknown as KafkaConfig['sasl'] }),
        connectionTimeout: settings.connectionTimeoutMs,
        requestTimeout: settings.requestTimeoutMs,
        ...(options.retry === undefined ? {} : { retry: options.retry }),
        logLevel,
        logCreator
      })
  }
}

function positive(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(`kafkajs.${name}`, `${name} must be a positive integer, not ${String(value)}`)
  return value
}
