/**
 * The settings of the kafkajs adapter and the one place a kafkajs `Kafka` client is made from
 * them. `ssl` and `sasl` go to kafkajs untouched; they are never logged (see redact()).
 * Defaults follow Kafka Streams' client defaults where kafkajs has the same knob.
 */
import { Kafka, type KafkaConfig, type RetryOptions } from 'kafkajs'
import { systemClock, type Clock } from '../../../clock.js'
import { ConfigError } from '../../../errors.js'
import { silentLogger, type Logger } from '../../../logger.js'
import { createLogCreator, KAFKAJS_LOG_LEVELS, type KafkajsLogLevelName } from './kafkajs-log-creator.js'

export interface KafkajsClientConfig {
  /** "host:port" list, as a comma-separated string or an array. */
  readonly bootstrapServers: string | readonly string[]
  /** Prefix (joined with "-") of every client id the runtime asks for. */
  readonly clientId?: string | undefined
  /** Passed to kafkajs as is: `true` or tls.ConnectionOptions. */
  readonly ssl?: boolean | Readonly<Record<string, unknown>> | undefined
  /** Passed to kafkajs as is: { mechanism: plain | scram-sha-256 | scram-sha-512 | aws | oauthbearer, ... }. */
  readonly sasl?: Readonly<{ mechanism: string } & Record<string, unknown>> | undefined
  /** TCP connect timeout; default 10000 (kafkajs' 1000 is short for TLS + SASL). */
  readonly connectionTimeoutMs?: number | undefined
  readonly authenticationTimeoutMs?: number
  /** Default 30000. */
  readonly requestTimeoutMs?: number | undefined
  /** kafkajs retry settings for every client. */
  readonly retry?: RetryOptions
  /** Where kafkajs' log lines go; default silent. */
  readonly logger?: Logger | undefined
  /** kafkajs log level; default "warn". */
  readonly logLevel?: KafkajsLogLevelName
  readonly metadataMaxAgeMs?: number
  /** Group consumer: default 45000 (Kafka Streams' session.timeout.ms). */
  readonly sessionTimeoutMs?: number
  /** Group consumer: max time to re-join, revocation included; default 300000 (max.poll.interval.ms). */
  readonly rebalanceTimeoutMs?: number
  /** Group consumer: default 3000. */
  readonly heartbeatIntervalMs?: number
  /** Fetch wait when no data is available (group consumer); default 500 (fetch.max.wait.ms). */
  readonly fetchMaxWaitMs?: number
  /** Default 52428800 (fetch.max.bytes). */
  readonly fetchMaxBytes?: number
  /** Default 1048576 (max.partition.fetch.bytes). */
  readonly fetchMaxBytesPerPartition?: number
  /**
   * Isolation of the group consumers: Kafka Streams uses read_committed under exactly-once and
   * read_uncommitted otherwise. Default true (kafkajs' default).
   */
  readonly groupReadCommitted?: boolean
  /** Transactional producers: default 10000 (Kafka Streams' transaction.timeout.ms under EOS). */
  readonly transactionTimeoutMs?: number
  readonly clock?: Clock
}

export interface ResolvedKafkajsConfig {
  readonly brokers: string[]
  readonly clientIdPrefix: string | undefined
  readonly logger: Logger
  readonly clock: Clock
  readonly metadataMaxAgeMs: number
  readonly sessionTimeoutMs: number
  readonly rebalanceTimeoutMs: number
  readonly heartbeatIntervalMs: number
  readonly fetchMaxWaitMs: number
  readonly fetchMaxBytes: number
  readonly fetchMaxBytesPerPartition: number
  readonly groupReadCommitted: boolean
  readonly transactionTimeoutMs: number
  readonly retry: RetryOptions | undefined
  /** Makes the kafkajs client of one port. */
  readonly createKafka: (clientId: string) => Kafka
}

export function resolveKafkajsConfig (config: KafkajsClientConfig): ResolvedKafkajsConfig {
  const brokers = (typeof config.bootstrapServers === 'string' ? config.bootstrapServers.split(',') : [...config.bootstrapServers])
    .map(b => b.trim())
    .filter(b => b !== '')
  if (brokers.length === 0) throw new ConfigError('bootstrap.servers', 'bootstrapServers must name at least one broker')
  const sessionTimeoutMs = config.sessionTimeoutMs ?? 45_000
  const heartbeatIntervalMs = config.heartbeatIntervalMs ?? 3000
  if (!(heartbeatIntervalMs < sessionTimeoutMs)) {
    throw new ConfigError('heartbeat.interval.ms', `heartbeatIntervalMs (${heartbeatIntervalMs}) must be lower than sessionTimeoutMs (${sessionTimeoutMs})`)
  }
  const logger = config.logger ?? silentLogger
  const logCreator = createLogCreator(logger)
  const logLevel = KAFKAJS_LOG_LEVELS[config.logLevel ?? 'warn']
  const prefix = config.clientId
  return {
    brokers,
    clientIdPrefix: prefix,
    logger,
    clock: config.clock ?? systemClock,
    metadataMaxAgeMs: config.metadataMaxAgeMs ?? 300_000,
    sessionTimeoutMs,
    rebalanceTimeoutMs: config.rebalanceTimeoutMs ?? 300_000,
    heartbeatIntervalMs,
    fetchMaxWaitMs: config.fetchMaxWaitMs ?? 500,
    fetchMaxBytes: config.fetchMaxBytes ?? 52_428_800,
    fetchMaxBytesPerPartition: config.fetchMaxBytesPerPartition ?? 1_048_576,
    groupReadCommitted: config.groupReadCommitted ?? true,
    transactionTimeoutMs: config.transactionTimeoutMs ?? 10_000,
    retry: config.retry,
    createKafka: (clientId: string) => new Kafka({
      brokers,
      clientId: prefix === undefined || prefix === '' ? clientId : `${prefix}-${clientId}`,
      ...(config.ssl === undefined ? {} : { ssl: config.ssl as KafkaConfig['ssl'] }),
      ...(config.sasl === undefined ? {} : { sasl: config.sasl as unknown as KafkaConfig['sasl'] }),
      connectionTimeout: config.connectionTimeoutMs ?? 10_000,
      ...(config.authenticationTimeoutMs === undefined ? {} : { authenticationTimeout: config.authenticationTimeoutMs }),
      requestTimeout: config.requestTimeoutMs ?? 30_000,
      ...(config.retry === undefined ? {} : { retry: config.retry }),
      logLevel,
      logCreator
    })
  }
}
