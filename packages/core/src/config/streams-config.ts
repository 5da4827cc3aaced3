/**
 * The typed configuration shared by the TopologyTestDriver and the runtime: Kafka Streams'
 * StreamsConfig keys in camelCase (`application.id` -> `applicationId`). Unknown keys and
 * invalid values are rejected with a ConfigError naming the key.
 */
import { ConfigError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import type { AutoOffsetReset, TimestampExtractor } from '../processor/api.js'
import { checkAutoOffsetReset, parseAutoOffsetReset } from './offset-reset-config.js'
import type { DslStoreSuppliers } from '../state/dsl-store-suppliers.js'
import type { Headers, Record as StreamsRecord } from '../record.js'
import type { ErrorHandlerResponse, ErrorHandlerResult } from './exception-handler-utils.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PASS_THROUGH_CHECKS, passThroughConfigs, resolveClientConfigs, type ClientPassThroughConfig } from './client-configs.js'
import { formatEndpoint, parseEndpoint } from './endpoint.js'
import { checkSaslConfig, checkSslConfig, type SaslConfig, type SslConfig } from './security-config.js'
import { OPERABILITY_CHECKS, operabilityDefaults, unknownKeyMessage, type OperabilityConfig } from './operability-configs.js'

/** Kafka Streams' `processing.guarantee`: at-least-once (the default) or exactly-once v2 (transactions, KIP-447). */
export type ProcessingGuarantee = 'at_least_once' | 'exactly_once_v2'

/**
 * Where a record that failed came from, for the exception handlers (Kafka's ErrorHandlerContext,
 * KIP-1033/KIP-1034): the source record being processed (its position, timestamp, headers and raw
 * bytes as read from its topic), the processor node that failed and the task.
 */
export interface ErrorHandlerContext {
  /** The topic the source record was read from; '' when there is none (a punctuation, Kafka's null). */
  readonly topic: string
  /** Its partition; -1 without a source record. */
  readonly partition: number
  /** Its offset; -1 without a source record. */
  readonly offset: number
  /** Its timestamp (ms): the source record's, as forwarded (a punctuation: the punctuation time). */
  readonly timestamp: number
  /** The task that read it (TaskId.toString(), e.g. `0_1`). */
  readonly taskId: string
  /** The headers of the record being processed (empty in a punctuation). */
  readonly headers: Headers
  /** The processor node that failed: the source node for a deserialization error, the sink for a production error. */
  readonly processorNodeId: string
  /**
   * The key bytes of the source record as read from its topic (a repartition topic's record in a
   * downstream sub-topology); null in a punctuation, or when the record's key was null.
   */
  readonly sourceRawKey: Buffer | null
  /** The value bytes of the source record as read from its topic; null in a punctuation, or for a null value. */
  readonly sourceRawValue: Buffer | null
}

/**
 * A handler's answer: 'CONTINUE' (skip the record), 'FAIL', or an ErrorHandlerResponse (Kafka 4.2's
 * `Response`) that may also carry dead-letter-queue records to produce.
 */
export type ExceptionHandlerAnswer<R extends ErrorHandlerResult> =
  | 'FAIL'
  | (R extends 'RESUME' ? 'CONTINUE' : never)
  | (R extends 'RETRY' ? 'RETRY' : never)
  | ErrorHandlerResponse<R>

/** Decides whether a record that cannot be deserialized is skipped (CONTINUE / resume) or stops the thread (FAIL). */
export type DeserializationExceptionHandler = (
  context: ErrorHandlerContext,
  error: Error,
  record: ConsumerRecord
) => ExceptionHandlerAnswer<'RESUME' | 'FAIL'>

/** The record a deserialization handler is asked about, still in bytes (Kafka's `ConsumerRecord<byte[], byte[]>`). */
export interface ConsumerRecord {
  /** The topic it was read from. */
  readonly topic: string
  /** Its partition. */
  readonly partition: number
  /** Its offset. */
  readonly offset: number
  /** Its timestamp (ms). */
  readonly timestamp: number
  /** Its key as read (null: none). */
  readonly key: Buffer | null
  /** Its value as read (null: none). */
  readonly value: Buffer | null
  /** Its headers. */
  readonly headers: Headers
}

/**
 * Decides whether a record whose processing threw (or a punctuator that threw) is dropped
 * (CONTINUE / resume) or stops the thread (FAIL). `record` is the record the node was processing
 * (undefined for a punctuator, as Kafka's null).
 */
export type ProcessingExceptionHandler = (
  context: ErrorHandlerContext,
  error: Error,
  record: StreamsRecord<unknown, unknown> | undefined
) => ExceptionHandlerAnswer<'RESUME' | 'FAIL'>

/**
 * The output record a production handler is asked about (Kafka's ProducerRecord): serialized when
 * the send failed; as the processor forwarded it when serializing failed (`serializationExceptionOrigin` set).
 */
export interface ProductionErrorRecord {
  /** The topic it was sent to. */
  readonly topic: string
  /** The partition it was sent to; undefined when serialization failed (not chosen yet). */
  readonly partition: number | undefined
  /** Its key: as serialized when the send failed, the object when serializing it failed. */
  readonly key: unknown
  /** Its value: as serialized when the send failed, the object when serializing it failed. */
  readonly value: unknown
  /** Its headers. */
  readonly headers: Headers
  /** Its timestamp (ms). */
  readonly timestamp: number
  /** Which part could not be serialized (Kafka's SerializationExceptionOrigin); undefined when the send failed. */
  readonly serializationExceptionOrigin?: 'KEY' | 'VALUE' | undefined
}

/**
 * Decides what a record that cannot be serialized or sent does: skip it (CONTINUE / resume), stop
 * (FAIL), or send it again (RETRY, retriable send errors only). The context is the source record's
 * (Kafka's); the output record's topic and partition are in `record`.
 */
export type ProductionExceptionHandler = (
  context: ErrorHandlerContext,
  error: Error,
  record: ProductionErrorRecord
) => ExceptionHandlerAnswer<'RESUME' | 'FAIL' | 'RETRY'>

/**
 * The configuration of a Kafka Streams application: Kafka Streams' StreamsConfig keys in camelCase
 * (`application.id` -> `applicationId`), every one optional. resolveStreamsConfig checks it and fills in
 * the defaults.
 */
export interface StreamsConfig extends ClientPassThroughConfig, OperabilityConfig {
  /** Group id, internal-topic prefix and client-id prefix. Required by the runtime. */
  applicationId?: string
  /** The Kafka brokers to connect to first: `host:port[,host:port]` or an array of `host:port`. */
  bootstrapServers?: string | string[]
  /** Prefix of the Kafka client ids of this instance's clients; default the application id. */
  clientId?: string
  /** How many stream threads the instance runs (`num.stream.threads`); default 1. */
  numStreamThreads?: number
  /** Default 30000, or 100 under exactly_once_v2. */
  commitIntervalMs?: number
  /** The directory below which tasks keep their state (`state.dir`); default `<os tmpdir>/kafka-streams`. */
  stateDir?: string
  /**
   * How long the directory of a task this instance no longer has is kept before the state cleaner
   * deletes it (Kafka's `state.cleanup.delay.ms`); default 600000 (10 min).
   */
  stateCleanupDelayMs?: number
  /**
   * The record cache of the caching store layer, shared equally by the stream threads
   * (`statestore.cache.max.bytes`); default 10 MiB; 0: every write goes straight through.
   */
  statestoreCacheMaxBytes?: number
  /** At-least-once (default) or exactly_once_v2; exactly-once needs a client adapter that supports it. */
  processingGuarantee?: ProcessingGuarantee
  /**
   * The transactional producer's `transaction.timeout.ms` under exactly_once_v2: how long the
   * transaction coordinator lets a transaction stay open before it aborts it (a crashed instance's
   * open transaction blocks read_committed readers of its partitions until then, unless a restart
   * fences it first). Default 10000 (Kafka Streams' override); at least commitIntervalMs.
   */
  transactionTimeoutMs?: number
  /** Replication factor of the internal topics (changelogs, repartition topics) the instance creates; default -1, the broker's default. */
  replicationFactor?: number
  /**
   * How long a task whose other input partitions are caught up but empty waits for data before it
   * processes what it has, out of timestamp order across partitions (`max.task.idle.ms`); default 0,
   * -1 never waits, not even for partitions known to have more data.
   */
  maxTaskIdleMs?: number
  /** How long a stream thread's poll waits for records when it has none buffered (`poll.ms`); default 100. */
  pollMs?: number
  /** Records buffered per input partition before the partition is paused (`buffered.records.per.partition`); default 1000. */
  bufferedRecordsPerPartition?: number
  /**
   * How long a task may keep failing with retriable errors (a commit that times out, a locked state
   * directory) before the thread fails (`task.timeout.ms`); default 300000.
   */
  taskTimeoutMs?: number
  /** Standby replicas per stateful task, kept up to date on other instances (`num.standby.replicas`); default 0. */
  numStandbyReplicas?: number
  /**
   * This instance's `host:port` for interactive queries, shared with the other instances through
   * the group (`application.server`); port 1 to 65535, an IPv6 host as `[::1]:8080` or `::1:8080`.
   */
  applicationServer?: string
  /** The key serde of sources, sinks and stores that do not name one (`default.key.serde`). */
  defaultKeySerde?: Serde<any>
  /** The value serde of sources, sinks and stores that do not name one (`default.value.serde`). */
  defaultValueSerde?: Serde<any>
  /** The timestamp extractor of sources that do not name one (`default.timestamp.extractor`); default the record's own timestamp. */
  defaultTimestampExtractor?: TimestampExtractor
  /** 'logAndFail' (default), 'logAndContinue', or a handler function. */
  deserializationExceptionHandler?: 'logAndFail' | 'logAndContinue' | DeserializationExceptionHandler
  /** 'logAndFail' (default), 'logAndContinue', or a handler function; for errors thrown by processors. */
  processingExceptionHandler?: 'logAndFail' | 'logAndContinue' | ProcessingExceptionHandler
  /** 'fail' (default), 'continue', or a handler function; for records that cannot be serialized or sent. */
  productionExceptionHandler?: 'fail' | 'continue' | ProductionExceptionHandler
  /**
   * Kafka's `errors.dead.letter.queue.topic.name` (KIP-1034): when set, the built-in handlers
   * ('logAndFail', 'logAndContinue', 'fail', 'continue') produce a dead-letter record of each
   * failed record to this topic (the raw source key and value, the source headers and
   * `__streams.errors.*` headers), through the task's record collector. Handler functions build
   * their own (see buildDeadLetterQueueRecord). Not used by global-store updates; the topic is
   * not created for you. Default: unset (no dead-letter records).
   */
  errorsDeadLetterQueueTopicName?: string
  /**
   * The changelog lag up to which an instance counts as caught up on a task and may be given it as active (`acceptable.recovery.lag`); default 10000.
   */
  acceptableRecoveryLag?: number
  /** Most warm-up replicas (standbys restoring for a task's move) assigned at once (`max.warmup.replicas`); default 2. */
  maxWarmupReplicas?: number
  /** How often the group rebalances while warm-up replicas catch up (`probing.rebalance.interval.ms`); default 600000, at least 60000. */
  probingRebalanceIntervalMs?: number
  /**
   * TLS for the Kafka clients: true (the system's CAs), or TLS options (`ca`, and `cert` + `key`
   * for mTLS). Unknown options and TLS material Node cannot load are ConfigErrors.
   */
  ssl?: boolean | SslConfig
  /**
   * SASL authentication for the Kafka clients: `{ mechanism: 'scram-sha-512', username, password }`
   * (also 'plain', 'scram-sha-256') or `{ mechanism: 'oauthbearer', oauthBearerProvider }`. An
   * unknown option is a ConfigError naming it (`sasl.<option>`). Never logged.
   */
  sasl?: SaslConfig
  /** How long the Kafka clients wait for a connection to a broker; default 10000. */
  connectionTimeoutMs?: number
  /** How long the Kafka clients wait for a broker's answer to a request (`request.timeout.ms`); default 30000. */
  requestTimeoutMs?: number
  /** Group session timeout (consumer `session.timeout.ms`); default 45000. */
  sessionTimeoutMs?: number
  /** Group heartbeat interval (consumer `heartbeat.interval.ms`); default 3000. */
  heartbeatIntervalMs?: number
  /**
   * The longest a stream thread may go without polling before it leaves the group (consumer
   * `max.poll.interval.ms`), also the rebalance timeout its JoinGroup gives; default 300000.
   */
  maxPollIntervalMs?: number
  /**
   * Where a source partition without a committed offset (or with one out of range) starts, unless
   * its source has a reset policy of its own (consumer `auto.offset.reset`): 'earliest' (Kafka
   * Streams' default), 'latest', 'none' (the thread fails), or by duration (KIP-1106):
   * `AutoOffsetReset.byDuration(ms)` or Kafka's `'by_duration:<ISO-8601 duration>'` (`'by_duration:PT1H'`).
   */
  autoOffsetReset?: AutoOffsetReset | `by_duration:${string}`
  /** How often a pattern subscription looks for new matching topics (consumer `metadata.max.age.ms`); default 300000. */
  metadataMaxAgeMs?: number
  /** Pause before a failed Kafka request is sent again (consumer `retry.backoff.ms`); default 100. */
  retryBackoffMs?: number
  /** How long a consumer's blocking calls (offset commit, committed offsets) retry before they time out (`default.api.timeout.ms`); default 60000. */
  defaultApiTimeoutMs?: number
  /** How long a broker may hold a fetch when it has no data (`fetch.max.wait.ms`); default 500. */
  fetchMaxWaitMs?: number
  /** Most bytes one fetch response may carry (`fetch.max.bytes`); default 52428800. */
  fetchMaxBytes?: number
  /** Most bytes per partition in one fetch response (`max.partition.fetch.bytes`); default 1048576. */
  maxPartitionFetchBytes?: number
  /**
   * The largest record the producer sends (`max.request.size`, key, value and headers counted);
   * a larger one is never sent and goes to the production exception handler; default 1048576.
   */
  maxRequestSize?: number
  /**
   * Block cache shared out over the RocksDB stores of an instance (`rocksdb.config`); default 64 MiB.
   * On worker threads (KafkaStreams.onWorkerThreads) each worker's stores get this / numStreamThreads.
   */
  rocksdbBlockCacheBytes?: number
  /** Write buffers shared out over the RocksDB stores of an instance, split over worker threads as rocksdbBlockCacheBytes; default 64 MiB. */
  rocksdbWriteBufferBytes?: number
  /** Tunes each RocksDB store's options before it opens (Kafka's `rocksdb.config.setter`). */
  rocksdbConfigSetter?: {
    /** Sets a store's RocksDB options before it opens. */
    setConfig: (storeName: string, options: Record<string, unknown>, configs: ResolvedStreamsConfig) => void
    /** Releases what setConfig made for a store, once the store has closed. */
    close?: (storeName: string, options: Record<string, unknown>) => void
  }
  /** Which metrics are recorded: 'INFO' (default), 'DEBUG' (adds store latencies) or 'TRACE'. */
  metricsRecordingLevel?: 'INFO' | 'DEBUG' | 'TRACE'
  /** The store backend of DSL stores without an explicit supplier (Kafka's `dsl.store.suppliers.class`); in-memory when unset. */
  dslStoreSuppliers?: DslStoreSuppliers
  /**
   * Kafka's `topology.optimization`, applied by the DSL's `StreamsBuilder.build(config)`:
   * 'none' (default), 'all', or a comma-separated list of 'reuse.ktable.source.topics' (a
   * materialized `table()` uses its source topic as its changelog), 'merge.repartition.topics'
   * and 'single.store.self.join' (both accepted, not applied yet: see the README).
   */
  topologyOptimization?: string
  /** How often a stream-stream left/outer join emits its pending null results at most (Kafka's internal `__emit.interval.ms.kstreams.outer.join.spurious.results.fix__`); default 1000, 0 in the TopologyTestDriver. */
  outerJoinEmitIntervalMs?: number
  /** How often an emit-on-window-close aggregation emits closed windows at most (Kafka's internal `__emit.interval.ms.kstreams.windowed.aggregation__`); default 1000, 0 in the TopologyTestDriver. */
  windowedAggregationEmitIntervalMs?: number
}

/** A StreamsConfig checked and completed with the defaults (resolveStreamsConfig): what the runtime and the stores read. */
export type ResolvedStreamsConfig = Readonly<
  Required<
    Omit<
      StreamsConfig,
      | 'defaultKeySerde'
      | 'defaultValueSerde'
      | 'defaultTimestampExtractor'
      | 'bootstrapServers'
      | 'clientId'
      | 'applicationServer'
      | 'ssl'
      | 'sasl'
      | 'rocksdbConfigSetter'
      | 'dslStoreSuppliers'
      | 'autoOffsetReset'
      | 'errorsDeadLetterQueueTopicName'
    >
  >
> &
  Readonly<{
    /** Where a source partition without a committed offset starts, unless its source has a policy of its own. */
    autoOffsetReset: AutoOffsetReset
    /** The store backend of DSL stores without an explicit supplier; undefined: in-memory. */
    dslStoreSuppliers: DslStoreSuppliers | undefined
    /** Tunes each RocksDB store's options before it opens. */
    rocksdbConfigSetter: StreamsConfig['rocksdbConfigSetter']
    /** TLS for the Kafka clients. */
    ssl: boolean | SslConfig | undefined
    /** SASL authentication for the Kafka clients. */
    sasl: SaslConfig | undefined
    /** The Kafka brokers to connect to first, as `host:port` (empty when not configured). */
    bootstrapServers: string[]
    /** Prefix of the Kafka client ids; undefined: the application id. */
    clientId: string | undefined
    /** This instance's `host:port` for interactive queries (an IPv6 host in brackets: `[::1]:8080`). */
    applicationServer: string | undefined
    /** The default key serde. */
    defaultKeySerde: Serde<any> | undefined
    /** The default value serde. */
    defaultValueSerde: Serde<any> | undefined
    /** The default timestamp extractor. */
    defaultTimestampExtractor: TimestampExtractor | undefined
    /** The dead-letter topic of the built-in exception handlers; undefined: none. */
    errorsDeadLetterQueueTopicName: string | undefined
  }>

type Check = (value: unknown) => string | undefined

const nonNegativeInt: Check = v => (Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'must be a non-negative integer')
const positiveInt: Check = v => (Number.isSafeInteger(v) && (v as number) >= 1 ? undefined : 'must be a positive integer')
const nonEmptyString: Check = v => (typeof v === 'string' && v.length > 0 ? undefined : 'must be a non-empty string')
const serde: Check = v =>
  v !== null &&
  typeof v === 'object' &&
  typeof (v as Serde<unknown>).serializer === 'function' &&
  typeof (v as Serde<unknown>).deserializer === 'function'
    ? undefined
    : 'must be a Serde'
const fn: Check = v => (typeof v === 'function' ? undefined : 'must be a function')

const checks: { [K in keyof Required<StreamsConfig>]: Check } = {
  ...PASS_THROUGH_CHECKS,
  ...OPERABILITY_CHECKS,
  applicationId: v =>
    typeof v === 'string' && /^[a-zA-Z0-9._-]{1,249}$/.test(v) && v !== '.' && v !== '..'
      ? undefined
      : 'must be 1 to 249 characters of [a-zA-Z0-9._-], and not "." or ".." (it prefixes internal topic names and names the state directory)',
  bootstrapServers: v =>
    typeof v !== 'string' && !(Array.isArray(v) && v.every(s => typeof s === 'string'))
      ? 'must be "host:port[,host:port]" or an array of them'
      : serverList(v as string | string[]).length === 0
        ? 'must name at least one broker ("host:port")'
        : undefined,
  clientId: nonEmptyString,
  numStreamThreads: positiveInt,
  commitIntervalMs: nonNegativeInt,
  stateDir: nonEmptyString,
  stateCleanupDelayMs: positiveInt,
  statestoreCacheMaxBytes: nonNegativeInt,
  processingGuarantee: v => (v === 'at_least_once' || v === 'exactly_once_v2' ? undefined : 'must be "at_least_once" or "exactly_once_v2"'),
  transactionTimeoutMs: positiveInt,
  replicationFactor: v =>
    Number.isSafeInteger(v) && ((v as number) >= 1 || v === -1) ? undefined : 'must be a positive integer or -1 (broker default)',
  maxTaskIdleMs: v => (Number.isSafeInteger(v) && (v as number) >= -1 ? undefined : 'must be an integer >= -1'),
  pollMs: nonNegativeInt,
  bufferedRecordsPerPartition: positiveInt,
  taskTimeoutMs: nonNegativeInt,
  numStandbyReplicas: nonNegativeInt,
  applicationServer: v =>
    typeof v === 'string' && parseEndpoint(v) !== undefined
      ? undefined
      : 'must be "host:port" with a port from 1 to 65535 (an IPv6 host as "[::1]:8080" or "::1:8080")',
  defaultKeySerde: serde,
  defaultValueSerde: serde,
  defaultTimestampExtractor: fn,
  deserializationExceptionHandler: v =>
    v === 'logAndFail' || v === 'logAndContinue' || typeof v === 'function'
      ? undefined
      : 'must be "logAndFail", "logAndContinue" or a function',
  processingExceptionHandler: v =>
    v === 'logAndFail' || v === 'logAndContinue' || typeof v === 'function'
      ? undefined
      : 'must be "logAndFail", "logAndContinue" or a function',
  productionExceptionHandler: v =>
    v === 'fail' || v === 'continue' || typeof v === 'function' ? undefined : 'must be "fail", "continue" or a function',
  errorsDeadLetterQueueTopicName: v =>
    typeof v === 'string' && /^[a-zA-Z0-9._-]{1,249}$/.test(v) && v !== '.' && v !== '..'
      ? undefined
      : 'must be a valid topic name (1 to 249 characters of [a-zA-Z0-9._-])',
  acceptableRecoveryLag: nonNegativeInt,
  maxWarmupReplicas: positiveInt,
  probingRebalanceIntervalMs: v => (Number.isSafeInteger(v) && (v as number) >= 60000 ? undefined : 'must be an integer >= 60000'),
  // Both throw ConfigErrors naming the option (`sasl.username`).
  ssl: v => {
    checkSslConfig(v)
    return undefined
  },
  sasl: v => {
    checkSaslConfig(v)
    return undefined
  },
  connectionTimeoutMs: positiveInt,
  requestTimeoutMs: positiveInt,
  sessionTimeoutMs: positiveInt,
  heartbeatIntervalMs: positiveInt,
  maxPollIntervalMs: positiveInt,
  autoOffsetReset: checkAutoOffsetReset,
  metadataMaxAgeMs: positiveInt,
  retryBackoffMs: nonNegativeInt,
  defaultApiTimeoutMs: positiveInt,
  fetchMaxWaitMs: nonNegativeInt,
  fetchMaxBytes: positiveInt,
  maxPartitionFetchBytes: positiveInt,
  maxRequestSize: positiveInt,
  rocksdbBlockCacheBytes: positiveInt,
  rocksdbWriteBufferBytes: positiveInt,
  rocksdbConfigSetter: v =>
    v !== null && typeof v === 'object' && typeof (v as { setConfig?: unknown }).setConfig === 'function'
      ? undefined
      : 'must be an object with a setConfig(storeName, options, configs) method',
  metricsRecordingLevel: v => (v === 'INFO' || v === 'DEBUG' || v === 'TRACE' ? undefined : 'must be "INFO", "DEBUG" or "TRACE"'),
  dslStoreSuppliers: v =>
    v !== null &&
    typeof v === 'object' &&
    ['keyValueStore', 'windowStore', 'sessionStore'].every(m => typeof (v as Record<string, unknown>)[m] === 'function')
      ? undefined
      : 'must be DslStoreSuppliers (keyValueStore, windowStore and sessionStore methods)',
  outerJoinEmitIntervalMs: nonNegativeInt,
  windowedAggregationEmitIntervalMs: nonNegativeInt,
  topologyOptimization: v => {
    try {
      parseTopologyOptimization(v)
      return undefined
    } catch (err) {
      return (err as Error).message
    }
  }
}

/** Kafka Streams' topology optimizations. */
export type TopologyOptimizationName = 'reuse.ktable.source.topics' | 'merge.repartition.topics' | 'single.store.self.join'
const OPTIMIZATIONS: readonly TopologyOptimizationName[] = [
  'reuse.ktable.source.topics',
  'merge.repartition.topics',
  'single.store.self.join'
]

/** The optimizations a `topologyOptimization` value enables ('all', 'none' or a comma-separated list). */
export function parseTopologyOptimization(value: unknown): ReadonlySet<TopologyOptimizationName> {
  if (typeof value !== 'string') throw new Error('must be a string: "none", "all" or a comma-separated list of optimizations')
  const names = value
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  if (names.length === 0) throw new Error('must not be empty')
  if (names.includes('none') || names.includes('all')) {
    if (names.length > 1) throw new Error('"none" and "all" cannot be combined with other values')
    return new Set(names[0] === 'all' ? OPTIMIZATIONS : [])
  }
  for (const n of names) {
    if (!(OPTIMIZATIONS as readonly string[]).includes(n))
      throw new Error(`unknown optimization "${n}" (expected "none", "all" or any of ${OPTIMIZATIONS.join(', ')})`)
  }
  return new Set(names as TopologyOptimizationName[])
}

/** Validates a config and fills in Kafka Streams' defaults. */
export function resolveStreamsConfig(config: StreamsConfig = {}): ResolvedStreamsConfig {
  for (const [key, value] of Object.entries(config)) {
    const check = (checks as Record<string, Check | undefined>)[key]
    if (check === undefined)
      throw new ConfigError(
        key,
        unknownKeyMessage(key, k => Object.hasOwn(checks, k))
      )
    if (value === undefined) continue
    const problem = check(value)
    if (problem !== undefined) throw new ConfigError(key, `Invalid value for config "${key}": ${problem}`)
  }
  const guarantee = config.processingGuarantee ?? 'at_least_once'
  const server = config.applicationServer === undefined ? undefined : parseEndpoint(config.applicationServer)!
  const resolved: ResolvedStreamsConfig = Object.freeze({
    ...operabilityDefaults(config),
    ...passThroughConfigs(config),
    applicationId: config.applicationId ?? '',
    bootstrapServers: config.bootstrapServers === undefined ? [] : serverList(config.bootstrapServers),
    clientId: config.clientId,
    numStreamThreads: config.numStreamThreads ?? 1,
    commitIntervalMs: config.commitIntervalMs ?? (guarantee === 'exactly_once_v2' ? 100 : 30000),
    stateDir: config.stateDir ?? join(tmpdir(), 'kafka-streams'),
    stateCleanupDelayMs: config.stateCleanupDelayMs ?? 600000,
    statestoreCacheMaxBytes: config.statestoreCacheMaxBytes ?? 10 * 1024 * 1024,
    processingGuarantee: guarantee,
    transactionTimeoutMs: config.transactionTimeoutMs ?? 10000,
    replicationFactor: config.replicationFactor ?? -1,
    maxTaskIdleMs: config.maxTaskIdleMs ?? 0,
    pollMs: config.pollMs ?? 100,
    bufferedRecordsPerPartition: config.bufferedRecordsPerPartition ?? 1000,
    taskTimeoutMs: config.taskTimeoutMs ?? 300000,
    numStandbyReplicas: config.numStandbyReplicas ?? 0,
    applicationServer: server === undefined ? undefined : formatEndpoint(server.host, server.port),
    defaultKeySerde: config.defaultKeySerde,
    defaultValueSerde: config.defaultValueSerde,
    defaultTimestampExtractor: config.defaultTimestampExtractor,
    deserializationExceptionHandler: config.deserializationExceptionHandler ?? 'logAndFail',
    processingExceptionHandler: config.processingExceptionHandler ?? 'logAndFail',
    productionExceptionHandler: config.productionExceptionHandler ?? 'fail',
    errorsDeadLetterQueueTopicName: config.errorsDeadLetterQueueTopicName,
    acceptableRecoveryLag: config.acceptableRecoveryLag ?? 10000,
    maxWarmupReplicas: config.maxWarmupReplicas ?? 2,
    probingRebalanceIntervalMs: config.probingRebalanceIntervalMs ?? 600000,
    ssl: config.ssl,
    sasl: config.sasl,
    connectionTimeoutMs: config.connectionTimeoutMs ?? 10000,
    requestTimeoutMs: config.requestTimeoutMs ?? 30000,
    sessionTimeoutMs: config.sessionTimeoutMs ?? 45000,
    heartbeatIntervalMs: config.heartbeatIntervalMs ?? 3000,
    maxPollIntervalMs: config.maxPollIntervalMs ?? 300000,
    autoOffsetReset: parseAutoOffsetReset(config.autoOffsetReset ?? 'earliest'),
    metadataMaxAgeMs: config.metadataMaxAgeMs ?? 300000,
    retryBackoffMs: config.retryBackoffMs ?? 100,
    defaultApiTimeoutMs: config.defaultApiTimeoutMs ?? 60000,
    fetchMaxWaitMs: config.fetchMaxWaitMs ?? 500,
    fetchMaxBytes: config.fetchMaxBytes ?? 52428800,
    maxPartitionFetchBytes: config.maxPartitionFetchBytes ?? 1048576,
    maxRequestSize: config.maxRequestSize ?? 1048576,
    rocksdbBlockCacheBytes: config.rocksdbBlockCacheBytes ?? 64 * 1024 * 1024,
    rocksdbWriteBufferBytes: config.rocksdbWriteBufferBytes ?? 64 * 1024 * 1024,
    rocksdbConfigSetter: config.rocksdbConfigSetter,
    metricsRecordingLevel: config.metricsRecordingLevel ?? 'INFO',
    dslStoreSuppliers: config.dslStoreSuppliers,
    outerJoinEmitIntervalMs: config.outerJoinEmitIntervalMs ?? 1000,
    windowedAggregationEmitIntervalMs: config.windowedAggregationEmitIntervalMs ?? 1000,
    topologyOptimization: config.topologyOptimization ?? 'none'
  })
  // The runtime's part of the client configs is checked here, the adapter's part when KafkaStreams makes its client.
  checkHeartbeat(config, resolveClientConfigs(resolved, resolved, 'unchecked').mainConsumer)
  return resolved
}

/** The brokers of a `bootstrapServers` value: comma-separated (in each string), trimmed, blanks dropped. */
function serverList(servers: string | readonly string[]): string[] {
  return (typeof servers === 'string' ? [servers] : servers)
    .flatMap(s => s.split(','))
    .map(s => s.trim())
    .filter(s => s !== '')
}

/**
 * The Java consumer's rule (its Heartbeat): the group consumer's heartbeat interval must be lower
 * than its session timeout. The ConfigError names the key that was set: the heartbeat interval's,
 * or the session timeout's when only that was.
 */
function checkHeartbeat(config: StreamsConfig, consumer: { sessionTimeoutMs: number; heartbeatIntervalMs: number }): void {
  if (consumer.heartbeatIntervalMs < consumer.sessionTimeoutMs) return
  const keyOf = (kafkaName: string, key: 'heartbeatIntervalMs' | 'sessionTimeoutMs'): string | undefined =>
    config.mainConsumer?.[kafkaName] !== undefined
      ? `mainConsumer.${kafkaName}`
      : config.consumer?.[kafkaName] !== undefined
        ? `consumer.${kafkaName}`
        : config[key] !== undefined
          ? key
          : undefined
  const key =
    keyOf('heartbeat.interval.ms', 'heartbeatIntervalMs') ?? keyOf('session.timeout.ms', 'sessionTimeoutMs') ?? 'heartbeatIntervalMs'
  throw new ConfigError(
    key,
    `Invalid value for config "${key}": the heartbeat interval (${consumer.heartbeatIntervalMs} ms) must be lower than the session timeout (${consumer.sessionTimeoutMs} ms)`
  )
}
