/**
 * Runs the versioned store compliance suite (ports of Kafka's RocksDBVersionedStoreTest) against
 * the RocksDB versioned store, including a reopen on the same files.
 */
import { expect } from 'chai'
import { versionedStoreCompliance } from '@kstreams/stores/compliance'
import { RocksDBStores } from '../src/index.js'
import { TempDirs } from './helpers/temp-dirs.js'

const dirs = new TempDirs()

versionedStoreCompliance({
  name: 'rocksdb',
  persistent: true,
  supplier: (name, historyRetentionMs, segmentIntervalMs) =>
    RocksDBStores.persistentVersionedKeyValueStore(name, historyRetentionMs, segmentIntervalMs),
  newStateDir: async () => await dirs.make(),
  cleanup: async () => {
    await dirs.cleanup()
  }
})

describe('RocksDBStores.persistentVersionedKeyValueStore', () => {
  it("defaults the segment interval as Kafka's supplier does", () => {
    expect(RocksDBStores.persistentVersionedKeyValueStore('s', 300_000).segmentIntervalMs).to.equal(60_000)
    expect(RocksDBStores.persistentVersionedKeyValueStore('s', 24 * 3_600_000).segmentIntervalMs).to.equal(3_600_000)
    expect(RocksDBStores.persistentVersionedKeyValueStore('s', 300_000, 7).segmentIntervalMs).to.equal(7)
  })
})
