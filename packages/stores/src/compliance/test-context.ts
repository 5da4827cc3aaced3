/**
 * The StateStoreContext the store tests and the compliance suite initialise stores with: records
 * which stores register and their restore callbacks, captures (copies of) what change-logging
 * layers append, replays changelog records into a registered store as the restore path does,
 * and hands caching layers the record cache it was given, if any.
 */
import { resolveStreamsConfig, StreamsError, TaskId } from '@kstreams/core'
import type {
  ChangelogWriter,
  RecordMetadata,
  ResolvedStreamsConfig,
  StateRestoreCallback,
  StateStore,
  StateStoreContext,
  StreamsConfig,
  StreamsMetrics,
  Serde
} from '@kstreams/core'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde, StreamsMetricsRegistry } from '@kstreams/core/internal'

/** One record a change-logging layer appended, with the store it belongs to. */
export interface CapturedChangelogRecord {
  /** The store whose change-logging layer appended it. */
  readonly storeName: string
  /** The key bytes (a copy). */
  readonly key: Buffer
  /** The value bytes (a copy); null for a delete. */
  readonly value: Buffer | null
  /** The record's timestamp. */
  readonly timestamp: number
}

/** A store that registered with a TestStoreContext, with its restore callback. */
export interface StoreRegistration {
  /** The store (the root of its stack). */
  readonly store: StateStore
  /** The callback that applies changelog records to it. */
  readonly restore: StateRestoreCallback
}

/** The options of a TestStoreContext. */
export interface TestStoreContextOptions {
  /** The task state directory handed to persistent stores; undefined by default. */
  stateDir?: string | undefined
  /** Streams config; `applicationId` defaults to 'test-app'. */
  config?: StreamsConfig
  /**
   * Where appended changelog records go: a new array by default, an existing one to share a
   * changelog across contexts (a store reopened by the same task), false for no changelog writer.
   */
  changelog?: CapturedChangelogRecord[] | false
  /** The task id; 0_0 by default. */
  taskId?: TaskId
  /** What recordMetadata() returns until it is changed. */
  recordMetadata?: RecordMetadata | undefined
  /** The thread's record cache; without one, stores built with caching write straight through. */
  cache?: StateStoreContext['cache']
}

/** A StateStoreContext for testing stores without a task: records registrations, captures the changelog, replays restores. */
export class TestStoreContext implements StateStoreContext {
  readonly applicationId: string
  readonly taskId: TaskId
  readonly appConfigs: ResolvedStreamsConfig
  readonly stateDir: string | undefined
  /** Registrations in the order they happened. */
  readonly registered: StoreRegistration[] = []
  /** Every record appended through changelogWriter(), in order; empty when logging is off. */
  readonly changelog: CapturedChangelogRecord[]
  readonly cache: StateStoreContext['cache']
  /** What recordMetadata() returns; tests may set it. */
  metadata: RecordMetadata | undefined
  readonly #logging: boolean
  #metrics: StreamsMetricsRegistry | undefined

  constructor(options: TestStoreContextOptions = {}) {
    this.appConfigs = resolveStreamsConfig({ applicationId: 'test-app', ...options.config })
    this.applicationId = this.appConfigs.applicationId
    this.taskId = options.taskId ?? new TaskId(0, 0)
    this.stateDir = options.stateDir
    this.metadata = options.recordMetadata
    this.cache = options.cache
    this.#logging = options.changelog !== false
    this.changelog = options.changelog === false || options.changelog === undefined ? [] : options.changelog
  }

  recordMetadata(): RecordMetadata | undefined {
    return this.metadata
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

  /** A metrics registry of the context's own (the stores' operation metrics are not recorded in it). */
  metrics(): StreamsMetrics {
    this.#metrics ??= new StreamsMetricsRegistry({ recordingLevel: this.appConfigs.metricsRecordingLevel })
    return this.#metrics
  }

  /** Throws ILLEGAL_ARGUMENT when a store of that name already registered, like Kafka's state manager. */
  register(store: StateStore, restore: StateRestoreCallback): void {
    if (this.registered.some(r => r.store.name === store.name)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Store "${store.name}" has already been registered`)
    }
    this.registered.push({ store, restore })
  }

  changelogWriter(storeName: string): ChangelogWriter | undefined {
    if (!this.#logging) return undefined
    const changelog = this.changelog
    return {
      append(key: Buffer, value: Buffer | null, timestamp: number): void {
        // Copies, as a producer serializes at send: later writes to the buffers do not show here.
        changelog.push({ storeName, key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestamp })
      }
    }
  }

  /** The captured changelog records of one store, in order. */
  changelogOf(storeName: string): CapturedChangelogRecord[] {
    return this.changelog.filter(r => r.storeName === storeName)
  }

  /** Feeds changelog records, as one batch, to the restore callback the named store registered. */
  restore(storeName: string, records: ReadonlyArray<{ key: Buffer; value: Buffer | null; timestamp?: number }>): void {
    const registration = this.registered.find(r => r.store.name === storeName)
    if (registration === undefined) throw new StreamsError('UNKNOWN_STORE', `Store "${storeName}" was not registered`)
    registration.restore(records.map(r => ({ key: r.key, value: r.value, timestamp: r.timestamp ?? 0 })))
  }
}

/** A TestStoreContext: application id 'test-app', task 0_0, a capturing changelog writer. */
export function createTestStoreContext(options: TestStoreContextOptions = {}): TestStoreContext {
  return new TestStoreContext(options)
}
