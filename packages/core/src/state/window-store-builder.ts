/**
 * Builds window stores from a bytes-store supplier (Kafka's WindowStoreBuilder): each build()
 * wraps a new backend store in change-logging (when logging is enabled), then caching (when
 * caching is enabled, and never for a store that retains duplicates, as in Kafka), then the
 * metered layer, which applies the serdes. The changelog of a windowed store is created with
 * `cleanup.policy=compact,delete` and `retention.ms` = retention period + one day (Kafka's
 * windowstore.changelog.additional.retention.ms default), both overridable by the topic configs
 * given to withLoggingEnabled().
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { CachingWindowStore } from './caching-window-store.js'
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store.js'
import { MeteredWindowStore } from './metered-window-store.js'
import type { WindowBytesStore, WindowBytesStoreSupplier, WindowStore } from './window-store.js'

/** Kafka's default `windowstore.changelog.additional.retention.ms`: one day. */
export const WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS = 86_400_000

/** Java's Long.MAX_VALUE, where Kafka caps the changelog retention. */
const LONG_MAX_VALUE = '9223372036854775807'

export class WindowStoreBuilder<K, V> extends AbstractStoreBuilder<K, V, WindowStore<K, V>> {
  readonly #supplier: WindowBytesStoreSupplier

  constructor (supplier: WindowBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<V>) {
    super(checkWindowSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** The supplier's retention period (ms); the changelog topic's retention derives from it. */
  get retentionPeriod (): number {
    return this.#supplier.retentionPeriod
  }

  /** The changelog topic configs: the windowed defaults, overridden by those given to withLoggingEnabled(). */
  override get logConfig (): Readonly<Record<string, string>> {
    return windowedChangelogConfig(this.loggingEnabled, this.retentionPeriod, super.logConfig)
  }

  build (): WindowStore<K, V> {
    const supplier = this.#supplier
    const logged = this.loggingEnabled ? new ChangeLoggingWindowBytesStore(supplier.get(), supplier.retainDuplicates) : supplier.get()
    return new MeteredWindowStore<K, V>({
      inner: maybeWrapWindowCaching(this.cachingEnabled, supplier, logged),
      metricsScope: supplier.metricsScope,
      windowSize: supplier.windowSize,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}

/**
 * @internal Shared with TimestampedWindowStoreBuilder. Kafka disables caching of a store that
 * retains duplicates: each put is kept, so a cache could not collapse them.
 */
export function maybeWrapWindowCaching (cachingEnabled: boolean, supplier: WindowBytesStoreSupplier, inner: WindowBytesStore): WindowBytesStore {
  if (!cachingEnabled || supplier.retainDuplicates) return inner
  return new CachingWindowStore(inner, { windowSize: supplier.windowSize, segmentInterval: supplier.segmentInterval, retentionPeriod: supplier.retentionPeriod })
}

/**
 * @internal Shared with the timestamped window and session store builders (Kafka's
 * WindowedChangelogTopicConfig): `cleanup.policy=compact,delete` and `retention.ms` = retention
 * period + one day (capped at Long.MAX_VALUE), then the user's topic configs. Empty when logging
 * is off.
 */
export function windowedChangelogConfig (loggingEnabled: boolean, retentionPeriod: number, userConfig: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (!loggingEnabled) return userConfig
  const retention = retentionPeriod + WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS
  return Object.freeze({
    'cleanup.policy': 'compact,delete',
    'retention.ms': Number.isSafeInteger(retention) ? String(retention) : LONG_MAX_VALUE,
    ...userConfig
  })
}

/** @internal Shared with TimestampedWindowStoreBuilder. */
export function checkWindowSupplier (supplier: WindowBytesStoreSupplier): WindowBytesStoreSupplier {
  if (supplier === null || supplier === undefined || typeof supplier.get !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A window store builder needs a store supplier with a get() method')
  }
  if (typeof supplier.metricsScope !== 'string' || supplier.metricsScope.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no metricsScope`)
  }
  if (!Number.isSafeInteger(supplier.retentionPeriod) || !Number.isSafeInteger(supplier.windowSize)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no integer retentionPeriod and windowSize`)
  }
  return supplier
}
