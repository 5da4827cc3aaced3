/**
 * `@kstreams/stores`: built-in store backends and the Stores factory.
 * @module \@kstreams/stores
 */
export { Stores } from './stores.js'
export { InMemoryKeyValueStore } from './in-memory-key-value-store.js'
export { InMemoryKeyValueBytesStoreSupplier } from './in-memory-key-value-bytes-store-supplier.js'
export { InMemoryWindowStore } from './in-memory-window-store.js'
export { InMemoryWindowBytesStoreSupplier } from './in-memory-window-bytes-store-supplier.js'
export { InMemorySessionStore } from './in-memory-session-store.js'
export { InMemorySessionBytesStoreSupplier } from './in-memory-session-bytes-store-supplier.js'
export { InMemoryVersionedBytesStoreSupplier } from './in-memory-versioned-bytes-store-supplier.js'
export { InMemoryDslStoreSuppliers } from './in-memory-dsl-store-suppliers.js'
