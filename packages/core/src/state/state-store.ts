/**
 * The state store seams (DESIGN.md §3). A store is a cache of its changelog; layers
 * (metered -> caching -> change-logging -> backend) are composed by a StoreBuilder.
 */
import type { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { RecordMetadata } from '../processor/api.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { ThreadCache } from './cache/thread-cache.js'
import type { Serde } from '../serialization/serde.js'

/** A state store (Kafka Streams' StateStore): local state of a task, backed by its changelog topic. */
export interface StateStore {
  /** The store's name, unique in the topology. */
  readonly name: string
  /** Whether the store keeps its data on disk (RocksDB) rather than in memory. */
  readonly persistent: boolean
  /** Opens the store. Persistent backends may open asynchronously. */
  init(context: StateStoreContext, root: StateStore): void | Promise<void>
  /** Writes out what is cached or buffered (called before each commit). */
  flush(): void
  /** Closes the store; it is not used after. */
  close(): void
  /** Whether the store is open (between init and close). */
  isOpen(): boolean
  /**
   * Resolves once a closed store has let go of its files: a backend that closes in the
   * background (RocksDB) must not have its directory deleted or reopened before. Layers forward it.
   */
  whenClosed?(): Promise<void>
}

/** Applies a batch of changelog records to a store while it is restored. */
export type StateRestoreCallback = (records: ReadonlyArray<{ key: Buffer; value: Buffer | null; timestamp: number }>) => void

/** The one thing the change-logging layer needs from the task. */
export interface ChangelogWriter {
  /** Sends one changelog record (a null value for a delete). */
  append(key: Buffer, value: Buffer | null, timestamp: number): void
}

/** What a store sees of its task when it is initialised. */
export interface StateStoreContext {
  /** The application id of the config. */
  readonly applicationId: string
  /** The task the store belongs to. */
  readonly taskId: TaskId
  /** The application's resolved config. */
  readonly appConfigs: ResolvedStreamsConfig
  /** The task's state directory; stores that persist create their files below it. */
  readonly stateDir: string | undefined
  /**
   * The config entries whose key starts with `prefix`, keyed by the rest of the key (see
   * ProcessingContext.appConfigsWithPrefix). Every context kstreams gives a store (a task's, the
   * TopologyTestDriver's, MockProcessorContext's) has it; optional so that a store layer may hand
   * the layers below it a context of its own.
   */
  appConfigsWithPrefix?(prefix: string): { readonly [key: string]: unknown }
  /** The config's default key serde (Kafka's `keySerde()`); a ConfigError naming `defaultKeySerde` when none is set. Optional as appConfigsWithPrefix. */
  keySerde?(): Serde<unknown>
  /** The config's default value serde (Kafka's `valueSerde()`); a ConfigError naming `defaultValueSerde` when none is set. Optional as appConfigsWithPrefix. */
  valueSerde?(): Serde<unknown>
  /** Where the record being processed came from; undefined outside processing. */
  recordMetadata(): RecordMetadata | undefined
  /** Registers the store with the task, with the callback that applies changelog records. */
  register(store: StateStore, restore: StateRestoreCallback): void
  /** The changelog writer for a store, or undefined when the store is not logged. */
  changelogWriter(storeName: string): ChangelogWriter | undefined
  /**
   * @internal The record being processed (timestamp, headers, origin). The caching layer keeps it with each
   * cached write; the change-logging layer stamps changelog records with its timestamp (0 when
   * the context has none).
   */
  recordContext?(): ProcessorRecordContext | undefined
  /** @internal The thread's record cache. Without one, stores built with caching write straight through. */
  readonly cache?: ThreadCache | undefined
  /** @internal The thread's metrics. Without them, stores count operations but report no metrics. */
  readonly metrics?: StreamsMetricsRegistry | undefined
}

/** Builds one store instance per task, with the layers it was configured with. */
export interface StoreBuilder<S extends StateStore = StateStore> {
  /** The name of the stores it builds. */
  readonly name: string
  /** A new store (one per task). */
  build(): S
  /** Whether the stores write a changelog topic. */
  readonly loggingEnabled: boolean
  /** The topic configs of the changelog topic (e.g. `retention.ms`). */
  readonly logConfig: Readonly<Record<string, string>>
}
