/**
 * What processor and store contexts read from the application's config: the default serdes
 * (Kafka Streams' `keySerde()` / `valueSerde()`, a ConfigError when none is configured, as
 * Kafka's StreamsConfig.defaultKeySerde throws) and the config entries under a prefix (Kafka's
 * `appConfigsWithPrefix`, AbstractConfig.originalsWithPrefix). @internal
 */
import { ConfigError, StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import type { ResolvedStreamsConfig } from './streams-config.js'

/** The config's defaultKeySerde; a ConfigError naming `defaultKeySerde` when it is not set. */
export function defaultKeySerde(config: ResolvedStreamsConfig): Serde<unknown> {
  const serde = config.defaultKeySerde as Serde<unknown> | undefined
  if (serde === undefined) {
    throw new ConfigError('defaultKeySerde', 'Please specify a key serde or set one through the defaultKeySerde config (default.key.serde)')
  }
  return serde
}

/** The config's defaultValueSerde; a ConfigError naming `defaultValueSerde` when it is not set. */
export function defaultValueSerde(config: ResolvedStreamsConfig): Serde<unknown> {
  const serde = config.defaultValueSerde as Serde<unknown> | undefined
  if (serde === undefined) {
    throw new ConfigError(
      'defaultValueSerde',
      'Please specify a value serde or set one through the defaultValueSerde config (default.value.serde)'
    )
  }
  return serde
}

/**
 * The set entries of `config` whose key starts with `prefix` and is longer, keyed by the rest of
 * the key with its first letter in lower case (the keys are camelCase: the prefix `rocksdb` gives
 * `blockCacheBytes`, `writeBufferBytes`, ...), as Kafka's originalsWithPrefix strips the prefix.
 */
export function configsWithPrefix(config: ResolvedStreamsConfig, prefix: string): { readonly [key: string]: unknown } {
  if (typeof prefix !== 'string')
    throw new StreamsError('ILLEGAL_ARGUMENT', `appConfigsWithPrefix takes a string prefix, got ${String(prefix)}`)
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || !key.startsWith(prefix) || key.length === prefix.length) continue
    const rest = key.slice(prefix.length)
    result[rest.charAt(0).toLowerCase() + rest.slice(1)] = value
  }
  return Object.freeze(result)
}
