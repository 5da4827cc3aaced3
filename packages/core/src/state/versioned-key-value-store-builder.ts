/**
 * Builds versioned key-value stores from a versioned bytes-store supplier (Kafka's
 * VersionedKeyValueStoreBuilder): each build() wraps a new backend store in change-logging (when
 * logging is enabled), then the metered layer, which applies the serdes. Versioned stores have no
 * caching layer (as in Kafka Streams): withCachingEnabled() is refused.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { ChangeLoggingVersionedBytesStore } from './change-logging-versioned-bytes-store.js'
import { MeteredVersionedKeyValueStore } from './metered-versioned-key-value-store.js'
import { WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS } from './windowed-store-builder-base.js'
import { isVersionedBytesStoreSupplier } from './versioned-key-value-store.js'
import type { VersionedBytesStoreSupplier, VersionedKeyValueStore } from './versioned-key-value-store.js'

/** Builds versioned key-value stores (see `Stores.versionedKeyValueStoreBuilder` in @kstreams/stores). */
export class VersionedKeyValueStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, VersionedKeyValueStore<K, V>> {
  readonly #supplier: VersionedBytesStoreSupplier

  constructor(supplier: VersionedBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    if (!isVersionedBytesStoreSupplier(supplier)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        'A versioned store builder needs a versioned store supplier (with get(), historyRetentionMs and segmentIntervalMs)'
      )
    }
    super(supplier.name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** How long (ms) the stores keep old versions (the supplier's). */
  get historyRetentionMs(): number {
    return this.#supplier.historyRetentionMs
  }

  /** The changelog topic configs: the versioned defaults, overridden by those given to withLoggingEnabled(). */
  override get logConfig(): Readonly<Record<string, string>> {
    return this.changelogConfig(WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS)
  }

  /**
   * Kafka's VersionedChangelogTopicConfig: a compacted changelog whose `min.compaction.lag.ms` is
   * the history retention + `additionalRetentionMs` (the application's
   * `windowstoreChangelogAdditionalRetentionMs`), so compaction keeps the versions restore needs;
   * then the topic configs given to withLoggingEnabled(). Empty when logging is off.
   */
  changelogConfig(additionalRetentionMs: number): Readonly<Record<string, string>> {
    const userConfig = super.logConfig
    if (!this.loggingEnabled) return userConfig
    const lag = this.#supplier.historyRetentionMs + additionalRetentionMs
    return Object.freeze({
      'cleanup.policy': 'compact',
      'min.compaction.lag.ms': String(Math.min(lag, Number.MAX_SAFE_INTEGER)),
      ...userConfig
    })
  }

  /** Versioned stores have no caching layer: refused, as Kafka Streams does. */
  override withCachingEnabled(): this {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${this.name}": versioned stores do not support caching`)
  }

  build(): VersionedKeyValueStore<K, V> {
    const supplier = this.#supplier
    const backend = supplier.get()
    const inner = this.loggingEnabled ? new ChangeLoggingVersionedBytesStore(backend) : backend
    return new MeteredVersionedKeyValueStore<K, V>({
      inner,
      metricsScope: supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}
