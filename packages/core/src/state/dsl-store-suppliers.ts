/**
 * Which store backend the DSL materializes its stores with (Kafka Streams' `DslStoreSuppliers`,
 * config `dsl.store.suppliers.class`). `@kstreams/stores` exports the in-memory one (the default
 * here), `@kstreams/rocksdb` the RocksDB one; setting `dslStoreSuppliers` switches every DSL store
 * of an application that gives no explicit supplier in its Materialized/StreamJoined.
 */
import type { KeyValueBytesStoreSupplier } from './key-value-store.js'
import type { SessionBytesStoreSupplier } from './session-store.js'
import type { WindowBytesStoreSupplier } from './window-store.js'

export interface DslKeyValueParams {
  readonly name: string
  readonly isTimestamped: boolean
}
export interface DslWindowParams {
  readonly name: string
  readonly retentionPeriodMs: number
  readonly windowSizeMs: number
  readonly retainDuplicates: boolean
  readonly isTimestamped: boolean
}
export interface DslSessionParams {
  readonly name: string
  readonly retentionPeriodMs: number
}

export interface DslStoreSuppliers {
  keyValueStore(params: DslKeyValueParams): KeyValueBytesStoreSupplier
  windowStore(params: DslWindowParams): WindowBytesStoreSupplier
  sessionStore(params: DslSessionParams): SessionBytesStoreSupplier
}
