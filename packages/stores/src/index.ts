/** @kstreams/stores: built-in store backends and the Stores factory. */
export { Stores } from './stores.js'
export { InMemoryKeyValueStore } from './in-memory-key-value-store.js'
export { InMemoryKeyValueBytesStoreSupplier } from './in-memory-key-value-bytes-store-supplier.js'
