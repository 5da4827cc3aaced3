/**
 * The state store seams (DESIGN.md §3). A store is a cache of its changelog; layers
 * (metered -> caching -> change-logging -> backend) are composed by a StoreBuilder.
 */
import type { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { RecordMetadata } from '../processor/api.js'
import type { ProcessorRecordContext } from '../runtime/record-context.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { StreamsMetrics } from '../metrics/streams-metrics.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { Position, PositionBound } from '../runtime/iq/v2/position.js'
import type { QueryConfig } from '../runtime/iq/v2/query-config.js'
import type { QueryResult } from '../runtime/iq/v2/query-result.js'
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
  /**
   * Answers an IQv2 query (Kafka Streams' `StateStore.query`, KIP-796): `KafkaStreams.query()`
   * and the TopologyTestDriver hand each local store partition the request's query. A store
   * answers with a result, or with a failure: UNKNOWN_QUERY_TYPE for a query it does not know
   * (`QueryResult.forUnknownQueryType`), NOT_UP_TO_BOUND when its position is behind
   * `positionBound` (`PositionBound.permits`, `QueryResult.notUpToBound`; a store that tracks no
   * position answers NOT_UP_TO_BOUND for any bound but `unbounded()`). When
   * `config.isCollectExecutionInfo()`, it adds a line to the result's execution info; it sets
   * its position on the result. Optional, as Kafka's default: a store without it answers every
   * query UNKNOWN_QUERY_TYPE. The built-in stores answer the built-in queries in their typed
   * outer layer and hand any other query to the layers below, down to the backend store.
   */
  query?<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R>
  /**
   * How far the store has seen its input (Kafka Streams' `StateStore.getPosition`): the offsets
   * of the input records whose processing wrote to it. Optional: Kafka's default refuses
   * (UnsupportedOperationException); a store without it tracks no position.
   */
  getPosition?(): Position
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
   * The config entries whose key starts with `prefix`, keyed by the rest of the key (Kafka's
   * `appConfigsWithPrefix`; see ProcessingContext.appConfigsWithPrefix).
   */
  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown }
  /** The config's default key serde (Kafka's `keySerde()`); a ConfigError naming `defaultKeySerde` when none is set. */
  keySerde(): Serde<unknown>
  /** The config's default value serde (Kafka's `valueSerde()`); a ConfigError naming `defaultValueSerde` when none is set. */
  valueSerde(): Serde<unknown>
  /** The metrics of the thread that runs the task (Kafka's `metrics()`), for a store's own sensors. */
  metrics(): StreamsMetrics
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
  /** @internal The thread's metrics registry. Without one, stores count operations but report no metrics. */
  readonly metricsRegistry?: StreamsMetricsRegistry | undefined
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
