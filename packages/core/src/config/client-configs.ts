/**
 * Kafka client and topic configs passed through a StreamsConfig, as Kafka Streams does with its
 * `consumer.`, `main.consumer.`, `restore.consumer.`, `global.consumer.`, `producer.`, `admin.`
 * and `topic.` prefixes. In a StreamsConfig they are nested objects keyed by the Kafka client's
 * own (dotted) config names: `consumer: { 'max.poll.records': 500 }`, `topic: { 'min.insync.replicas': 2 }`.
 *
 * Precedence follows Kafka's StreamsConfig.getMainConsumerConfigs / getRestoreConsumerConfigs /
 * getGlobalConsumerConfigs / getProducerConfigs / getAdminConfigs: Kafka Streams' own default
 * overrides (max.poll.records 1000, linger.ms 100), then the un-prefixed level (the camelCase
 * StreamsConfig keys that are client configs: `fetchMaxBytes`, `sessionTimeoutMs`,
 * `requestTimeoutMs`, ...), then `consumer` / `producer` / `admin`, then `mainConsumer` /
 * `restoreConsumer` / `globalConsumer`. `topic` configs go into every internal topic created
 * (changelogs, repartition topics) between the topic kind's defaults and the topic's own configs.
 *
 * A key is honoured by the runtime (which implements the consumer, the record collector and
 * the internal topics itself), by the client adapter (the adapter lists what it supports in
 * `KafkaClientFactory.clientConfigs`), or rejected with a ConfigError naming it: a setting is
 * never dropped silently. @internal
 */
import { ConfigError } from '../errors.js'
import type { AutoOffsetReset } from '../processor/api.js'
import type { IsolationLevel } from '../runtime/kafka/ports.js'
import { parseAutoOffsetReset } from './offset-reset-config.js'

/** A Kafka client config value: Kafka's config strings, or numbers and booleans for them. */
export type ClientConfigValue = string | number | boolean

/** Kafka client configs by their Kafka names (`max.poll.records`, `compression.type`, ...). */
export type ClientConfigs = Readonly<Record<string, ClientConfigValue>>

/** The clients whose configs can be passed through, as the StreamsConfig keys that carry them. */
export type ClientConfigPrefix = 'consumer' | 'mainConsumer' | 'restoreConsumer' | 'globalConsumer' | 'producer' | 'admin'

/** The kind of client a config belongs to: what an adapter declares support for. */
export type ClientKind = 'consumer' | 'producer' | 'admin'

/** A value check: undefined when valid, else what is wrong. */
export type ClientConfigCheck = (value: ClientConfigValue) => string | undefined

/**
 * The configs a client adapter honours itself, by client kind and Kafka name, each with its
 * value check (`KafkaClientFactory.clientConfigs`). Keys not listed here or honoured by the
 * runtime are rejected.
 */
export type AdapterClientConfigs = Readonly<Partial<Record<ClientKind, Readonly<Record<string, ClientConfigCheck>>>>>

/** The un-prefixed level: the StreamsConfig keys that are client configs. */
export interface ClientDefaults {
  /** Longest a broker holds a fetch that has less than `fetch.min.bytes` (`fetch.max.wait.ms`). */
  readonly fetchMaxWaitMs: number
  /** Most bytes one fetch answer carries (`fetch.max.bytes`). */
  readonly fetchMaxBytes: number
  /** Most bytes one fetch answer carries per partition (`max.partition.fetch.bytes`). */
  readonly maxPartitionFetchBytes: number
  /** How long the group coordinator waits for a heartbeat before it evicts the member (`session.timeout.ms`). */
  readonly sessionTimeoutMs: number
  /** How often the member heartbeats (`heartbeat.interval.ms`). */
  readonly heartbeatIntervalMs: number
  /** Longest time between two polls before the member leaves the group (`max.poll.interval.ms`). */
  readonly maxPollIntervalMs: number
  /** Wait before a failed request is tried again (`retry.backoff.ms`). */
  readonly retryBackoffMs: number
  /** Longest a client call may take, retries included (`default.api.timeout.ms`). */
  readonly defaultApiTimeoutMs: number
  /** How old cluster metadata may get before it is fetched again (`metadata.max.age.ms`). */
  readonly metadataMaxAgeMs: number
  /** Where a partition without a committed offset starts (`auto.offset.reset`). */
  readonly autoOffsetReset: AutoOffsetReset
  /** Largest produce request (`max.request.size`). */
  readonly maxRequestSize: number
  /** Longest a transaction may stay open (`transaction.timeout.ms`). */
  readonly transactionTimeoutMs: number
  /** `processing.guarantee`: read_committed consumers and transactional producers under exactly_once_v2. */
  readonly processingGuarantee: 'at_least_once' | 'exactly_once_v2'
}

/** What one consumer (main, restore or global) runs with: the un-prefixed consumer settings and these. */
export interface ConsumerClientConfig
  extends Pick<
    ClientDefaults,
    | 'fetchMaxWaitMs'
    | 'fetchMaxBytes'
    | 'maxPartitionFetchBytes'
    | 'sessionTimeoutMs'
    | 'heartbeatIntervalMs'
    | 'maxPollIntervalMs'
    | 'retryBackoffMs'
    | 'defaultApiTimeoutMs'
    | 'metadataMaxAgeMs'
    | 'autoOffsetReset'
  > {
  /** Most records one poll hands out (`max.poll.records`; Kafka Streams' default 1000). */
  readonly maxPollRecords: number
  /** Least bytes a broker gathers before it answers a fetch (`fetch.min.bytes`; default 1). */
  readonly fetchMinBytes: number
  /** Which records a fetch returns (`isolation.level`; read_committed under exactly_once_v2). */
  readonly isolationLevel: IsolationLevel
  /** The configs for the adapter's ports (keys it declared), by Kafka name. */
  readonly adapterConfigs: ClientConfigs
}

/** What the producer of a stream thread runs with. */
export interface ProducerClientConfig {
  /** How long the record collector waits for more records before it sends (`linger.ms`; Kafka Streams' default 100). */
  readonly lingerMs: number
  /** Buffered bytes at which a send starts without waiting for linger.ms (`batch.size`); undefined: by record count only. */
  readonly batchSize: number | undefined
  /** Largest produce request (`max.request.size`). */
  readonly maxRequestSize: number
  /** Longest a transaction may stay open (`transaction.timeout.ms`). */
  readonly transactionTimeoutMs: number
  /**
   * How long a transaction step (TxnOffsetCommit, EndTxn) is tried again after retriable errors
   * before the transaction is given up and aborted (`max.block.ms`, Kafka's producer waits as long;
   * default 60000).
   */
  readonly maxBlockMs: number
  /** The configs for the adapter's producer (keys it declared), by Kafka name. */
  readonly adapterConfigs: ClientConfigs
}

/** Every client's configs, resolved with Kafka Streams' precedence. */
export interface ResolvedClientConfigs {
  /** The group consumer of each stream thread (`main.consumer.` over `consumer.`). */
  readonly mainConsumer: ConsumerClientConfig
  /** The consumer that restores changelogs and keeps standbys current (`restore.consumer.` over `consumer.`). */
  readonly restoreConsumer: ConsumerClientConfig
  /** The consumer of the global stores' topics (`global.consumer.` over `consumer.`). */
  readonly globalConsumer: ConsumerClientConfig
  /** The producer of each stream thread (`producer.`). */
  readonly producer: ProducerClientConfig
  /** The admin clients (`admin.`). */
  readonly admin: {
    /** The configs for the adapter's admin client (keys it declared), by Kafka name. */
    readonly adapterConfigs: ClientConfigs
  }
  /** The `topic` configs, as strings (what CreateTopics sends). */
  readonly topic: Readonly<Record<string, string>>
}

/** The prefixed configs as a StreamsConfig carries them. */
export type PrefixedClientConfigs = Readonly<ClientPassThroughConfig>

/** Kafka's prefix of each config object, for messages (`mainConsumer` is Kafka's `main.consumer.`). */
export const KAFKA_PREFIXES: Readonly<Record<ClientConfigPrefix | 'topic', string>> = {
  consumer: 'consumer.',
  mainConsumer: 'main.consumer.',
  restoreConsumer: 'restore.consumer.',
  globalConsumer: 'global.consumer.',
  producer: 'producer.',
  admin: 'admin.',
  topic: 'topic.'
}

/** A check for an integer config of at least `min`, given as a number or a string (for adapters' clientConfigs too). */
export const intAtLeast =
  (min: number): ClientConfigCheck =>
  v => {
    const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v
    return Number.isSafeInteger(n) && (n as number) >= min ? undefined : `must be an integer of at least ${min}`
  }
const oneOf =
  (...values: readonly string[]): ClientConfigCheck =>
  v =>
    typeof v === 'string' && values.includes(v.toLowerCase()) ? undefined : `must be one of ${values.map(s => `"${s}"`).join(', ')}`
const only =
  (expected: ClientConfigValue, why: string): ClientConfigCheck =>
  v =>
    String(v).toLowerCase() === String(expected) ? undefined : why

/** An integer config value, whether given as a number or a string. */
export const asInt = (v: ClientConfigValue): number => (typeof v === 'number' ? v : Number(v))

interface RuntimeKey {
  readonly check: ClientConfigCheck
  /** The ConsumerClientConfig / ProducerClientConfig field it sets; none for keys only checked. */
  readonly field?: string
  /** How the value becomes the field's. */
  readonly parse?: (v: ClientConfigValue) => unknown
}

/** Consumer configs the runtime honours (it implements the consumer: Fetcher, ConsumerCoordinator). */
const CONSUMER_KEYS: Readonly<Record<string, RuntimeKey>> = {
  'max.poll.records': { check: intAtLeast(1), field: 'maxPollRecords', parse: asInt },
  'fetch.min.bytes': { check: intAtLeast(0), field: 'fetchMinBytes', parse: asInt },
  'fetch.max.wait.ms': { check: intAtLeast(0), field: 'fetchMaxWaitMs', parse: asInt },
  'fetch.max.bytes': { check: intAtLeast(1), field: 'fetchMaxBytes', parse: asInt },
  'max.partition.fetch.bytes': { check: intAtLeast(1), field: 'maxPartitionFetchBytes', parse: asInt },
  'session.timeout.ms': { check: intAtLeast(1), field: 'sessionTimeoutMs', parse: asInt },
  'heartbeat.interval.ms': { check: intAtLeast(1), field: 'heartbeatIntervalMs', parse: asInt },
  'max.poll.interval.ms': { check: intAtLeast(1), field: 'maxPollIntervalMs', parse: asInt },
  'retry.backoff.ms': { check: intAtLeast(0), field: 'retryBackoffMs', parse: asInt },
  'default.api.timeout.ms': { check: intAtLeast(0), field: 'defaultApiTimeoutMs', parse: asInt },
  'metadata.max.age.ms': { check: intAtLeast(0), field: 'metadataMaxAgeMs', parse: asInt },
  'auto.offset.reset': {
    check: v => {
      try {
        parseAutoOffsetReset(v)
        return undefined
      } catch (error) {
        return (error as Error).message
      }
    },
    field: 'autoOffsetReset',
    parse: parseAutoOffsetReset
  },
  'isolation.level': {
    check: oneOf('read_committed', 'read_uncommitted'),
    field: 'isolationLevel',
    parse: v => (String(v).toLowerCase() === 'read_committed' ? 'READ_COMMITTED' : 'READ_UNCOMMITTED')
  },
  'enable.auto.commit': { check: only(false, 'must be false: Kafka Streams commits offsets itself') },
  'allow.auto.create.topics': { check: only(false, 'must be false: Kafka Streams creates its internal topics itself') },
  'group.protocol': { check: only('classic', 'must be "classic": kstreams speaks the classic group protocol only') }
}

/** Producer configs the runtime honours (the record collector batches and sizes the sends). */
const PRODUCER_KEYS: Readonly<Record<string, RuntimeKey>> = {
  'linger.ms': { check: intAtLeast(0), field: 'lingerMs', parse: asInt },
  'batch.size': { check: intAtLeast(0), field: 'batchSize', parse: asInt },
  'max.request.size': { check: intAtLeast(1), field: 'maxRequestSize', parse: asInt },
  'transaction.timeout.ms': { check: intAtLeast(1), field: 'transactionTimeoutMs', parse: asInt },
  'max.block.ms': { check: intAtLeast(0), field: 'maxBlockMs', parse: asInt },
  acks: {
    check: v => (['all', '-1'].includes(String(v).toLowerCase()) ? undefined : 'must be "all" (-1): kstreams producers are idempotent')
  },
  'enable.idempotence': { check: only(true, 'must be true: kstreams producers are idempotent') },
  'max.in.flight.requests.per.connection': {
    check: v => (intAtLeast(1)(v) === undefined && asInt(v) <= 5 ? undefined : 'must be an integer from 1 to 5 (idempotent producer)')
  }
}

/** Keys Kafka Streams sets itself; kstreams rejects them with the reason. */
const SET_BY_STREAMS: Readonly<Record<string, string>> = {
  'bootstrap.servers': 'set it with the bootstrapServers config: every client talks to the same cluster',
  'client.id': 'set the prefix with the clientId config: Kafka Streams derives each client id from it',
  'group.id': 'the group id is the applicationId',
  'group.instance.id': 'static membership is not supported by kstreams',
  'partition.assignment.strategy': "Kafka Streams' own assignor is always used",
  'transactional.id': 'Kafka Streams derives transactional ids under exactly_once_v2',
  'key.deserializer': 'kstreams uses serdes (defaultKeySerde, Consumed.with)',
  'value.deserializer': 'kstreams uses serdes (defaultValueSerde, Consumed.with)',
  'key.serializer': 'kstreams uses serdes (defaultKeySerde, Produced.with)',
  'value.serializer': 'kstreams uses serdes (defaultValueSerde, Produced.with)',
  'security.protocol': 'set TLS with the ssl config and SASL with the sasl config',
  'client.rack': 'neither follower fetching (KIP-392) nor rack-aware assignment is implemented'
}

const CONSUMER_PREFIXES = ['mainConsumer', 'restoreConsumer', 'globalConsumer'] as const

function kindOf(prefix: ClientConfigPrefix): ClientKind {
  return prefix === 'producer' ? 'producer' : prefix === 'admin' ? 'admin' : 'consumer'
}

/** The ConfigError key of a prefixed config: `consumer.max.poll.records`, `mainConsumer.max.poll.records`. */
const keyName = (prefix: ClientConfigPrefix | 'topic', key: string): string => `${prefix}.${key}`

function fail(prefix: ClientConfigPrefix | 'topic', key: string, problem: string): never {
  const kafka = prefix === 'topic' || prefix === kindOf(prefix) ? '' : ` (Kafka's ${KAFKA_PREFIXES[prefix]}${key})`
  throw new ConfigError(keyName(prefix, key), `Invalid client config ${prefix}["${key}"]${kafka}: ${problem}`)
}

/** The StreamsConfig keys that carry Kafka client and topic configs (Kafka Streams' prefixes). */
export interface ClientPassThroughConfig {
  /** Configs of every consumer, by their Kafka names (Kafka Streams' `consumer.` prefix): `{ 'max.poll.records': 500 }`. */
  consumer?: ClientConfigs
  /** Configs of the main consumers only, over `consumer` (Kafka Streams' `main.consumer.` prefix). */
  mainConsumer?: ClientConfigs
  /** Configs of the restore consumers only, over `consumer` (Kafka Streams' `restore.consumer.` prefix). */
  restoreConsumer?: ClientConfigs
  /** Configs of the global consumer only, over `consumer` (Kafka Streams' `global.consumer.` prefix). */
  globalConsumer?: ClientConfigs
  /** Configs of the producers, by their Kafka names (Kafka Streams' `producer.` prefix): `{ 'compression.type': 'gzip' }`. */
  producer?: ClientConfigs
  /** Configs of the admin clients (Kafka Streams' `admin.` prefix): `{ 'request.timeout.ms': 60000 }`. */
  admin?: ClientConfigs
  /**
   * Topic configs of every internal topic kstreams creates, changelogs and repartition topics
   * (Kafka Streams' `topic.` prefix): `{ 'min.insync.replicas': 2 }`. A topic kind's own
   * defaults (`cleanup.policy`, ...) come first, these next, a topic's own configs (a store's
   * `withLoggingEnabled(configs)`, a window store's retention) last.
   */
  topic?: ClientConfigs
}

const PASS_THROUGH_KEYS = ['consumer', 'mainConsumer', 'restoreConsumer', 'globalConsumer', 'producer', 'admin', 'topic'] as const

/** The config checks of the pass-through keys (the shape only; resolveClientConfigs checks the entries). */
export const PASS_THROUGH_CHECKS: { readonly [K in keyof Required<ClientPassThroughConfig>]: (value: unknown) => string | undefined } =
  Object.fromEntries(PASS_THROUGH_KEYS.map(k => [k, checkClientConfigObject])) as never

/** The pass-through objects of a config, copied and frozen (empty when not set). */
export function passThroughConfigs(config: ClientPassThroughConfig): {
  readonly [K in keyof Required<ClientPassThroughConfig>]: ClientConfigs
} {
  return Object.fromEntries(PASS_THROUGH_KEYS.map(k => [k, Object.freeze({ ...config[k] })])) as never
}

/** Checks the shape of a prefixed config object (a plain object of string, number or boolean values). */
export function checkClientConfigObject(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return "must be an object of Kafka client configs by their Kafka names, e.g. { 'max.poll.records': 500 }"
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      return `"${key}" must be a string, a number or a boolean, not ${v === null ? 'null' : typeof v}`
  }
  return undefined
}

/**
 * The configs of every client with Kafka Streams' precedence, checked: a runtime key with a bad
 * value, a key Kafka Streams sets itself, or a key neither the runtime nor the adapter
 * (`adapter`) honours is a ConfigError naming it (`producer.compression.type`). 'unchecked'
 * leaves the adapter's keys unchecked (resolveStreamsConfig, before an adapter is known).
 */
export function resolveClientConfigs(
  prefixed: PrefixedClientConfigs,
  defaults: ClientDefaults,
  adapter: AdapterClientConfigs | 'unchecked' = {}
): ResolvedClientConfigs {
  const eos = defaults.processingGuarantee === 'exactly_once_v2'
  const consumerBase: Omit<ConsumerClientConfig, 'adapterConfigs'> = {
    maxPollRecords: 1000,
    fetchMinBytes: 1,
    fetchMaxWaitMs: defaults.fetchMaxWaitMs,
    fetchMaxBytes: defaults.fetchMaxBytes,
    maxPartitionFetchBytes: defaults.maxPartitionFetchBytes,
    sessionTimeoutMs: defaults.sessionTimeoutMs,
    heartbeatIntervalMs: defaults.heartbeatIntervalMs,
    maxPollIntervalMs: defaults.maxPollIntervalMs,
    retryBackoffMs: defaults.retryBackoffMs,
    defaultApiTimeoutMs: defaults.defaultApiTimeoutMs,
    metadataMaxAgeMs: defaults.metadataMaxAgeMs,
    autoOffsetReset: defaults.autoOffsetReset,
    isolationLevel: eos ? 'READ_COMMITTED' : 'READ_UNCOMMITTED'
  }
  const common = apply('consumer', prefixed.consumer, consumerBase, {}, CONSUMER_KEYS, adapter, eos)
  const consumers = Object.fromEntries(
    CONSUMER_PREFIXES.map(prefix => {
      const own = apply(prefix, prefixed[prefix], common.fields, common.adapterConfigs, CONSUMER_KEYS, adapter, eos)
      if (prefix !== 'mainConsumer' && prefixed[prefix]?.['auto.offset.reset'] !== undefined)
        fail(
          prefix,
          'auto.offset.reset',
          'Kafka Streams sets "none" for its restore and global consumers; set autoOffsetReset or consumer["auto.offset.reset"] for the main consumer'
        )
      return [prefix, Object.freeze({ ...own.fields, adapterConfigs: Object.freeze(own.adapterConfigs) }) as ConsumerClientConfig]
    })
  ) as Record<(typeof CONSUMER_PREFIXES)[number], ConsumerClientConfig>
  const producerBase: Omit<ProducerClientConfig, 'adapterConfigs'> = {
    lingerMs: 100,
    batchSize: undefined,
    maxRequestSize: defaults.maxRequestSize,
    transactionTimeoutMs: defaults.transactionTimeoutMs,
    maxBlockMs: 60000
  }
  const producer = apply('producer', prefixed.producer, producerBase, {}, PRODUCER_KEYS, adapter, eos)
  const admin = apply('admin', prefixed.admin, {}, {}, {}, adapter, eos)
  const topic = topicConfigs(prefixed.topic)
  const segmentBytes = topic['segment.bytes']
  if (segmentBytes !== undefined && producer.fields.batchSize !== undefined && Number(segmentBytes) < producer.fields.batchSize) {
    throw new ConfigError(
      'topic.segment.bytes',
      `topic["segment.bytes"] (${segmentBytes}) is smaller than producer["batch.size"] (${producer.fields.batchSize}): a produced batch could not be appended to the internal topics`
    )
  }
  return Object.freeze({
    ...consumers,
    producer: Object.freeze({ ...producer.fields, adapterConfigs: Object.freeze(producer.adapterConfigs) }),
    admin: Object.freeze({ adapterConfigs: Object.freeze(admin.adapterConfigs) }),
    topic
  })
}

/** One prefix's configs laid over `fields` (runtime keys) and `adapterConfigs` (adapter keys). */
function apply<F extends object>(
  prefix: ClientConfigPrefix,
  configs: ClientConfigs | undefined,
  fields: F,
  adapterConfigs: Readonly<Record<string, ClientConfigValue>>,
  runtimeKeys: Readonly<Record<string, RuntimeKey>>,
  adapter: AdapterClientConfigs | 'unchecked',
  eos: boolean
): { fields: F; adapterConfigs: Record<string, ClientConfigValue> } {
  const outFields = { ...fields } as Record<string, unknown>
  const outAdapter: Record<string, ClientConfigValue> = { ...adapterConfigs }
  const kind = kindOf(prefix)
  for (const [key, value] of Object.entries(configs ?? {})) {
    if (value === undefined) continue
    const runtime = Object.hasOwn(runtimeKeys, key) ? runtimeKeys[key] : undefined
    if (runtime !== undefined) {
      const problem = runtime.check(value)
      if (problem !== undefined) fail(prefix, key, problem)
      if (key === 'isolation.level' && eos && String(value).toLowerCase() !== 'read_committed')
        fail(prefix, key, 'must be read_committed under processingGuarantee "exactly_once_v2"')
      if (runtime.field !== undefined) outFields[runtime.field] = runtime.parse === undefined ? value : runtime.parse(value)
      continue
    }
    const reason = Object.hasOwn(SET_BY_STREAMS, key) ? SET_BY_STREAMS[key] : undefined
    if (reason !== undefined) fail(prefix, key, reason)
    outAdapter[key] = value
    if (adapter === 'unchecked') continue
    const supported = adapter[kind]
    const check = supported !== undefined && Object.hasOwn(supported, key) ? supported[key] : undefined
    if (check === undefined) fail(prefix, key, `neither the kstreams runtime nor its Kafka client adapter can honour this ${kind} config`)
    const problem = check(value)
    if (problem !== undefined) fail(prefix, key, problem)
  }
  return { fields: outFields as F, adapterConfigs: outAdapter }
}

/** The `topic` configs as strings; keys must be non-empty. */
function topicConfigs(configs: ClientConfigs | undefined): Readonly<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(configs ?? {})) {
    if (value === undefined) continue
    if (key.trim() === '') fail('topic', key, 'a topic config needs a name')
    out[key] = String(value)
  }
  return Object.freeze(out)
}
