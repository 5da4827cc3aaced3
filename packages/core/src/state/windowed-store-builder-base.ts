/**
 * What the window, timestamped window and session store builders share (Kafka's
 * WindowStoreBuilder, TimestampedWindowStoreBuilder and SessionStoreBuilder): the checked
 * supplier, its retention period, the changelog topic configs (the windowed defaults, overridden
 * by those given to withLoggingEnabled()) and the options of the metered layer. @internal
 */
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import type { StateStore } from './state-store.js'

/** Kafka's default `windowstore.changelog.additional.retention.ms`: one day. */
export const WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS = 86_400_000

/** Java's Long.MAX_VALUE, where Kafka caps the changelog retention. */
const LONG_MAX_VALUE = '9223372036854775807'

/** What the base reads of a window or session bytes-store supplier. */
interface WindowedSupplier {
  readonly name: string
  readonly metricsScope: string
  readonly retentionPeriod: number
}

/** The options every metered layer takes. */
export interface MeteredLayerOptions<I, K, V> {
  inner: I
  metricsScope: string
  keySerde: Serde<K> | undefined
  valueSerde: Serde<V> | undefined
}

export abstract class WindowedStoreBuilderBase<K, V, S extends StateStore, P extends WindowedSupplier> extends AbstractStoreBuilder<
  K,
  V,
  S
> {
  readonly #supplier: P

  /** `supplier` is checked by the concrete builder. */
  constructor(supplier: P, keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined) {
    super(supplier.name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** The supplier's retention period (ms); the changelog topic's retention derives from it. */
  get retentionPeriod(): number {
    return this.#supplier.retentionPeriod
  }

  /** The changelog topic configs: the windowed defaults, overridden by those given to withLoggingEnabled(). */
  override get logConfig(): Readonly<Record<string, string>> {
    return this.changelogConfig(WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS)
  }

  /**
   * The changelog topic configs with `retention.ms` = retention period + `additionalRetentionMs`
   * (the application's `windowstoreChangelogAdditionalRetentionMs`), overridden by those given to
   * withLoggingEnabled().
   */
  changelogConfig(additionalRetentionMs: number): Readonly<Record<string, string>> {
    return windowedChangelogConfig(this.loggingEnabled, this.retentionPeriod, additionalRetentionMs, super.logConfig)
  }

  protected get supplier(): P {
    return this.#supplier
  }

  /** The options of the metered layer over `inner`: the supplier's metrics scope and the builder's serdes. */
  protected meteredOptions<I>(inner: I): MeteredLayerOptions<I, K, V> {
    return { inner, metricsScope: this.#supplier.metricsScope, keySerde: this.keySerde, valueSerde: this.valueSerde }
  }
}

/**
 * Kafka's WindowedChangelogTopicConfig: `cleanup.policy=compact,delete` and `retention.ms` =
 * retention period + one day (capped at Long.MAX_VALUE), then the user's topic configs. Empty
 * when logging is off.
 */
function windowedChangelogConfig(
  loggingEnabled: boolean,
  retentionPeriod: number,
  additionalRetentionMs: number,
  userConfig: Readonly<Record<string, string>>
): Readonly<Record<string, string>> {
  if (!loggingEnabled) return userConfig
  const retention = retentionPeriod + additionalRetentionMs
  return Object.freeze({
    'cleanup.policy': 'compact,delete',
    'retention.ms': Number.isSafeInteger(retention) ? String(retention) : LONG_MAX_VALUE,
    ...userConfig
  })
}
