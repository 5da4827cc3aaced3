/**
 * A StateStoreContext that a store layer hands to the layers below it, delegating everything to
 * the task's context except what the layer overrides: the record context (the caching layer
 * shows the layers below the record context of the entry it is flushing) or the restore
 * registration (the timestamped change-logging layer converts changelog records on restore).
 * @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { RecordMetadata } from '../processor/api.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import type { TaskId } from '../task-id.js'
import type { Serde } from '../serialization/serde.js'
import type { StreamsMetrics } from '../metrics/streams-metrics.js'
import type { ThreadCache } from './cache/thread-cache.js'
import type { ChangelogWriter, StateRestoreCallback, StateStore, StateStoreContext } from './state-store.js'

export interface StateStoreContextOverrides {
  /** When it returns a context, that context replaces the task's (record metadata included). */
  readonly recordContext?: () => ProcessorRecordContext | undefined
  readonly register?: (store: StateStore, restore: StateRestoreCallback) => void
}

export class StateStoreContextOverlay implements StateStoreContext {
  readonly #base: StateStoreContext
  readonly #overrides: StateStoreContextOverrides

  constructor(base: StateStoreContext, overrides: StateStoreContextOverrides) {
    this.#base = base
    this.#overrides = overrides
  }

  get applicationId(): string {
    return this.#base.applicationId
  }
  get taskId(): TaskId {
    return this.#base.taskId
  }
  get appConfigs(): ResolvedStreamsConfig {
    return this.#base.appConfigs
  }
  get stateDir(): string | undefined {
    return this.#base.stateDir
  }
  get cache(): ThreadCache | undefined {
    return this.#base.cache
  }
  get metricsRegistry(): StreamsMetricsRegistry | undefined {
    return this.#base.metricsRegistry
  }

  metrics(): StreamsMetrics {
    return this.#base.metrics()
  }

  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown } {
    return this.#base.appConfigsWithPrefix(prefix)
  }

  keySerde(): Serde<unknown> {
    return this.#base.keySerde()
  }

  valueSerde(): Serde<unknown> {
    return this.#base.valueSerde()
  }

  recordContext(): ProcessorRecordContext | undefined {
    return this.#overrides.recordContext?.() ?? this.#base.recordContext?.()
  }

  recordMetadata(): RecordMetadata | undefined {
    const overridden = this.#overrides.recordContext?.()
    if (overridden === undefined) return this.#base.recordMetadata()
    const topic = overridden.topic
    return topic === undefined || topic === '' ? undefined : { topic, partition: overridden.partition, offset: overridden.offset }
  }

  register(store: StateStore, restore: StateRestoreCallback): void {
    const register = this.#overrides.register
    if (register !== undefined) register(store, restore)
    else this.#base.register(store, restore)
  }

  changelogWriter(storeName: string): ChangelogWriter | undefined {
    return this.#base.changelogWriter(storeName)
  }
}
