/** The DSL's in-memory stores (Kafka Streams' `BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers`), the default of @kstreams/dsl. */
import type { DslStoreSuppliers } from '@kstreams/core'
import { Stores } from './stores.js'

/** The DSL's in-memory stores: set it as the config's `dslStoreSuppliers` to make the default explicit. */
export const InMemoryDslStoreSuppliers: DslStoreSuppliers = Object.freeze<DslStoreSuppliers>({
  keyValueStore: ({ name }) => Stores.inMemoryKeyValueStore(name),
  windowStore: ({ name, retentionPeriodMs, windowSizeMs, retainDuplicates }) =>
    Stores.inMemoryWindowStore(name, retentionPeriodMs, windowSizeMs, retainDuplicates),
  sessionStore: ({ name, retentionPeriodMs }) => Stores.inMemorySessionStore(name, retentionPeriodMs)
})
