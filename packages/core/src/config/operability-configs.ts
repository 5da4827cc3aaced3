/**
 * The StreamsConfig keys of operations (Kafka Streams' `windowstore.changelog.additional.retention.ms`,
 * `repartition.purge.interval.ms`, `log.summary.interval.ms`, `group.protocol`) with their checks
 * and Kafka's defaults, and the message for a key kstreams does not know: the Kafka Streams
 * keys it knows but cannot honour get their reason, a dotted Kafka name its camelCase or nested form.
 * @internal
 */
import { KAFKA_PREFIXES } from './client-configs.js'

/** Operations keys of a StreamsConfig. */
export interface OperabilityConfig {
  /**
   * Added to a window or session store's retention period for the `retention.ms` of its changelog
   * topic, so clock drift does not delete changelog records the store still keeps
   * (`windowstore.changelog.additional.retention.ms`); default 86400000 (1 day).
   */
  windowstoreChangelogAdditionalRetentionMs?: number
  /**
   * How often a stream thread deletes the records of its repartition topics that its tasks
   * committed (`repartition.purge.interval.ms`; checked after each commit); default 30000.
   */
  repartitionPurgeIntervalMs?: number
  /** How often each stream thread logs a summary of what it did (records, punctuations, commits) at info (`log.summary.interval.ms`); default 120000. */
  logSummaryIntervalMs?: number
  /** The group protocol (`group.protocol`): only 'classic' (the default); KIP-1071's 'streams' protocol is not implemented. */
  groupProtocol?: 'classic'
}

const nonNegativeInt = (v: unknown): string | undefined =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'must be a non-negative integer'

/** The checks of the operations keys. */
export const OPERABILITY_CHECKS: { readonly [K in keyof Required<OperabilityConfig>]: (value: unknown) => string | undefined } = {
  windowstoreChangelogAdditionalRetentionMs: nonNegativeInt,
  repartitionPurgeIntervalMs: nonNegativeInt,
  logSummaryIntervalMs: nonNegativeInt,
  groupProtocol: v =>
    v === 'classic' ? undefined : 'must be "classic": the "streams" group protocol (KIP-1071) is not implemented by kstreams'
}

/** The operations keys with Kafka's defaults filled in. */
export function operabilityDefaults(config: OperabilityConfig): Required<OperabilityConfig> {
  return {
    windowstoreChangelogAdditionalRetentionMs: config.windowstoreChangelogAdditionalRetentionMs ?? 86_400_000,
    repartitionPurgeIntervalMs: config.repartitionPurgeIntervalMs ?? 30_000,
    logSummaryIntervalMs: config.logSummaryIntervalMs ?? 120_000,
    groupProtocol: config.groupProtocol ?? 'classic'
  }
}

/** Kafka Streams configs kstreams knows but does not support (camelCase keys), with the reason. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  rackAwareAssignmentStrategy: 'rack-aware task assignment (KIP-925) is not implemented',
  rackAwareAssignmentTags: 'rack-aware standby placement (KIP-708) is not implemented',
  rackAwareAssignmentTrafficCost: 'rack-aware task assignment (KIP-925) is not implemented',
  rackAwareAssignmentNonOverlapCost: 'rack-aware task assignment (KIP-925) is not implemented',
  taskAssignorClass: 'custom task assignors (KIP-924) are not supported',
  processorWrapperClass: 'processor wrappers (KIP-1112) are not supported',
  ensureExplicitInternalResourceNaming: 'the check for generated internal topic and store names (KIP-1111) is not implemented',
  metricReporters: 'metric reporters are not supported; read KafkaStreams.metrics()',
  metricsNumSamples: 'metrics are not sampled in windows; read KafkaStreams.metrics()',
  metricsSampleWindowMs: 'metrics are not sampled in windows; read KafkaStreams.metrics()',
  enableMetricsPush: 'client metrics push (KIP-714) is not implemented',
  clientTag: 'client tags (rack-aware standby placement, KIP-708) are not supported',
  upgradeFrom: 'rolling upgrades from older Java Kafka Streams versions do not apply',
  builtInMetricsVersion: 'only the latest built-in metrics exist',
  connectionsMaxIdleMs: 'neither client adapter closes idle connections after a timeout',
  receiveBufferBytes: "the socket buffer sizes are Node's",
  sendBufferBytes: "the socket buffer sizes are Node's",
  reconnectBackoffMs: 'the client adapters reconnect with their own backoff (kafkajs({ retry }), platformatic({ retryDelayMs }))',
  reconnectBackoffMaxMs: 'the client adapters reconnect with their own backoff (kafkajs({ retry }), platformatic({ retryDelayMs }))',
  metadataRecoveryStrategy: 'the client adapters bootstrap again on their own',
  metadataRecoveryRebootstrapTriggerMs: 'the client adapters bootstrap again on their own'
}

/** Why `key` is not a StreamsConfig key; `known` says whether a camelCase key exists. */
export function unknownKeyMessage(key: string, known: (key: string) => boolean): string {
  const reason = Object.hasOwn(UNSUPPORTED, key) ? UNSUPPORTED[key] : undefined
  if (reason !== undefined) return `Unsupported config "${key}": ${reason}`
  const prefixes = Object.entries(KAFKA_PREFIXES).sort((a, b) => b[1].length - a[1].length)
  for (const [prefix, kafka] of prefixes) {
    if (key.startsWith(kafka))
      return `Unknown config key "${key}": pass Kafka's prefixed configs as an object by their Kafka names, ${prefix}: { '${key.slice(kafka.length)}': ... }`
  }
  if (key.includes('.')) {
    const camel = key.replace(/[._]([a-z0-9])/g, (_, c: string) => c.toUpperCase())
    const hint =
      known(camel) || Object.hasOwn(UNSUPPORTED, camel)
        ? `StreamsConfig keys are camelCase: "${camel}"`
        : 'StreamsConfig keys are camelCase (application.id -> applicationId); Kafka client configs go in the consumer, producer or admin object by their Kafka names'
    return `Unknown config key "${key}": ${hint}`
  }
  return `Unknown config key "${key}"`
}
