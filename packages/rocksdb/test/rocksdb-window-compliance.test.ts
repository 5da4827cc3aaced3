/**
 * Runs the window store compliance suite against the RocksDB window store: windows only, with
 * duplicates retained, with a segment interval small enough that the checks span several
 * segments and drop expired ones, and through the builder's metered layer.
 */
import { Serdes } from '@kstreams/core'
import { windowStoreCompliance } from '@kstreams/stores/compliance'
import { Stores } from '@kstreams/stores'
import { RocksDBWindowStore } from '../src/rocksdb-window-store.js'
import { RocksDBWindowBytesStoreSupplier } from '../src/rocksdb-window-bytes-store-supplier.js'
import { persistentHarness } from './helpers/persistent-harness.js'

const retentionPeriod = 100
const windowSize = 10

function direct(retainDuplicates: boolean, segmentInterval: number): void {
  const build = (): RocksDBWindowStore =>
    new RocksDBWindowStore({ name: 'compliance-window', retentionPeriod, windowSize, retainDuplicates, segmentInterval })
  windowStoreCompliance({
    ...persistentHarness(`rocksdb (segment interval ${segmentInterval})`, build),
    retentionPeriod,
    windowSize,
    retainDuplicates
  })
}

direct(false, 60_000)
direct(false, 7)
direct(true, 7)

for (const retainDuplicates of [false, true]) {
  const supplier = new RocksDBWindowBytesStoreSupplier('compliance-window', retentionPeriod, windowSize, retainDuplicates, false, {
    segmentInterval: 7
  })
  const build = () => Stores.windowStoreBuilder(supplier, Serdes.Buffer(), Serdes.Buffer()).build()
  windowStoreCompliance({
    ...persistentHarness('metered -> rocksdb (segment interval 7)', build),
    retentionPeriod,
    windowSize,
    retainDuplicates
  })
}
