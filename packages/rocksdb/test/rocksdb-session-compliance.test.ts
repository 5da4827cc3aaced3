/**
 * Runs the session store compliance suite against the RocksDB session store, with the default
 * segment interval, with one small enough that the checks span several segments, and through
 * the builder's metered layer.
 */
import { Serdes } from '@kstreams/core'
import { sessionStoreCompliance } from '@kstreams/stores/compliance'
import { Stores } from '@kstreams/stores'
import { RocksDBSessionStore } from '../src/rocksdb-session-store.js'
import { RocksDBSessionBytesStoreSupplier } from '../src/rocksdb-session-bytes-store-supplier.js'
import { persistentHarness } from './helpers/persistent-harness.js'

const retentionPeriod = 100

for (const segmentInterval of [60_000, 7]) {
  const build = (): RocksDBSessionStore => new RocksDBSessionStore({ name: 'compliance-session', retentionPeriod, segmentInterval })
  sessionStoreCompliance({ ...persistentHarness(`rocksdb (segment interval ${segmentInterval})`, build), retentionPeriod })
}

const supplier = new RocksDBSessionBytesStoreSupplier('compliance-session', retentionPeriod, { segmentInterval: 7 })
const build = () => Stores.sessionStoreBuilder(supplier, Serdes.Buffer(), Serdes.Buffer()).build()
sessionStoreCompliance({ ...persistentHarness('metered -> rocksdb (segment interval 7)', build), retentionPeriod })
