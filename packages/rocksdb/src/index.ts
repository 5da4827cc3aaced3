/**
 * `@kstreams/rocksdb`: persistent state stores on RocksDB (`@nxtedition/rocksdb`).
 * @packageDocumentation
 */
export { RocksDBStores } from './rocksdb-stores.js'
export { RocksDBStore } from './rocksdb-store.js'
export { RocksDBWindowStore } from './rocksdb-window-store.js'
export type { RocksDBWindowStoreOptions } from './rocksdb-window-store.js'
export { RocksDBSessionStore } from './rocksdb-session-store.js'
export type { RocksDBSessionStoreOptions } from './rocksdb-session-store.js'
export { RocksDBKeyValueBytesStoreSupplier } from './rocksdb-key-value-bytes-store-supplier.js'
export { RocksDBVersionedBytesStoreSupplier } from './rocksdb-versioned-bytes-store-supplier.js'
export { RocksDBWindowBytesStoreSupplier } from './rocksdb-window-bytes-store-supplier.js'
export type { RocksDBWindowStoreSupplierOptions } from './rocksdb-window-bytes-store-supplier.js'
export { RocksDBSessionBytesStoreSupplier } from './rocksdb-session-bytes-store-supplier.js'
export type { RocksDBSessionStoreSupplierOptions } from './rocksdb-session-bytes-store-supplier.js'
export type { RocksDBStoreOptions } from './rocksdb-store-options.js'
export { RocksDBMemoryBudget } from './rocksdb-memory-budget.js'
export type { RocksDBMemoryBudgetOptions, RocksDBMemoryAllocation, RocksDBMemoryUsage } from './rocksdb-memory-budget.js'
export type { RocksDBConfigSetter, RocksDBOptions } from './rocksdb-config-setter.js'
export { RocksDBStoreError } from './rocksdb-store-error.js'
export type { RocksDBStoreErrorCode } from './rocksdb-store-error.js'
export { RocksDBDslStoreSuppliers } from './rocksdb-dsl-store-suppliers.js'
