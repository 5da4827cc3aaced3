/**
 * The DSL's RocksDB stores (Kafka Streams' `BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers`):
 * `new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })` makes every DSL store
 * without an explicit supplier persistent.
 */
import type { DslStoreSuppliers } from '@kstreams/core'
import { RocksDBStores } from './rocksdb-stores.js'

/** The DSL's RocksDB stores: as the config's `dslStoreSuppliers`, every DSL store without an explicit supplier is persistent. */
export const RocksDBDslStoreSuppliers: DslStoreSuppliers = Object.freeze<DslStoreSuppliers>({
  keyValueStore: ({ name, isTimestamped }) =>
    isTimestamped ? RocksDBStores.persistentTimestampedKeyValueStore(name) : RocksDBStores.persistentKeyValueStore(name),
  windowStore: ({ name, retentionPeriodMs, windowSizeMs, retainDuplicates, isTimestamped }) =>
    isTimestamped
      ? RocksDBStores.persistentTimestampedWindowStore(name, retentionPeriodMs, windowSizeMs, retainDuplicates)
      : RocksDBStores.persistentWindowStore(name, retentionPeriodMs, windowSizeMs, retainDuplicates),
  sessionStore: ({ name, retentionPeriodMs }) => RocksDBStores.persistentSessionStore(name, retentionPeriodMs)
})
