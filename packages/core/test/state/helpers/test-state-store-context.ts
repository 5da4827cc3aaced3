/** A StateStoreContext for store tests: records registrations, has no changelog writer. */
import { resolveStreamsConfig } from '../../../src/config/streams-config.js'
import type { ResolvedStreamsConfig, StreamsConfig } from '../../../src/config/streams-config.js'
import type { RecordMetadata } from '../../../src/processor/api.js'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde } from '../../../src/config/app-configs.js'
import { StreamsMetricsRegistry } from '../../../src/metrics/streams-metrics-registry.js'
import type { StreamsMetrics } from '../../../src/metrics/streams-metrics.js'
import type { Serde } from '../../../src/serialization/serde.js'
import type { ChangelogWriter, StateRestoreCallback, StateStore, StateStoreContext } from '../../../src/state/state-store.js'
import { TaskId } from '../../../src/task-id.js'

export interface Registration {
  store: StateStore
  restore: StateRestoreCallback
}

export class TestStateStoreContext implements StateStoreContext {
  readonly applicationId: string
  readonly taskId = new TaskId(0, 0)
  readonly appConfigs: ResolvedStreamsConfig
  readonly stateDir = undefined
  readonly registered: Registration[] = []

  constructor(config: StreamsConfig = {}) {
    this.appConfigs = resolveStreamsConfig({ applicationId: 'test-app', ...config })
    this.applicationId = this.appConfigs.applicationId
  }

  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown } {
    return configsWithPrefix(this.appConfigs, prefix)
  }

  keySerde(): Serde<unknown> {
    return defaultKeySerde(this.appConfigs)
  }

  valueSerde(): Serde<unknown> {
    return defaultValueSerde(this.appConfigs)
  }

  #ownMetrics: StreamsMetricsRegistry | undefined
  metrics(): StreamsMetrics {
    this.#ownMetrics ??= new StreamsMetricsRegistry({ recordingLevel: this.appConfigs.metricsRecordingLevel })
    return this.#ownMetrics
  }

  recordMetadata(): RecordMetadata | undefined {
    return undefined
  }

  register(store: StateStore, restore: StateRestoreCallback): void {
    this.registered.push({ store, restore })
  }

  changelogWriter(_storeName: string): ChangelogWriter | undefined {
    return undefined
  }

  /** Feeds changelog records to the callback the named store registered. */
  restore(storeName: string, records: Array<{ key: Buffer; value: Buffer | null; timestamp?: number }>): void {
    const registration = this.registered.find(r => r.store.name === storeName)
    if (registration === undefined) throw new Error(`store ${storeName} was not registered`)
    registration.restore(records.map(r => ({ key: r.key, value: r.value, timestamp: r.timestamp ?? 0 })))
  }
}
