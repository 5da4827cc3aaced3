/**
 * Which store backend the DSL materializes its stores with (Kafka Streams' `DslStoreSuppliers`,
 * config `dsl.store.suppliers.class`). `@kstreams/stores` exports the in-memory one (the default
 * here), `@kstreams/rocksdb` the RocksDB one; setting `dslStoreSuppliers` switches every DSL store
 * of an application that gives no explicit supplier in its Materialized/StreamJoined.
 */
import type { KeyValueBytesStoreSupplier } from './key-value-store.js'
import type { SessionBytesStoreSupplier } from './session-store.js'
import type { WindowBytesStoreSupplier } from './window-store.js'

/** What the DSL asks of a key-value store supplier. */
export interface DslKeyValueParams {
  /** The store's name. */
  readonly name: string
  /** Whether the store keeps a timestamp with each value (KTables). */
  readonly isTimestamped: boolean
}
/** What the DSL asks of a window store supplier. */
export interface DslWindowParams {
  /** The store's name. */
  readonly name: string
  /** How long (ms) windows are kept. */
  readonly retentionPeriodMs: number
  /** The window size (ms). */
  readonly windowSizeMs: number
  /** Whether every put is kept, even for the same key and window (stream-stream joins). */
  readonly retainDuplicates: boolean
  /** Whether the store keeps a timestamp with each value (windowed aggregations). */
  readonly isTimestamped: boolean
}
/** What the DSL asks of a session store supplier. */
export interface DslSessionParams {
  /** The store's name. */
  readonly name: string
  /** How long (ms) sessions are kept. */
  readonly retentionPeriodMs: number
}

/** The store backend of the DSL's stores (Kafka Streams' DslStoreSuppliers): one bytes-store supplier per store kind. */
export interface DslStoreSuppliers {
  /** The supplier of a key-value store (aggregations, tables, ...). */
  keyValueStore(params: DslKeyValueParams): KeyValueBytesStoreSupplier
  /** The supplier of a window store (windowed aggregations, stream-stream joins). */
  windowStore(params: DslWindowParams): WindowBytesStoreSupplier
  /** The supplier of a session store (session-windowed aggregations). */
  sessionStore(params: DslSessionParams): SessionBytesStoreSupplier
}
