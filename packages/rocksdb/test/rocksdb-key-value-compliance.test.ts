/**
 * Runs the key-value compliance suite against the RocksDB store on its own (reopened as the same
 * object) and through the full builder stack (reopened as a new store on the same files, which
 * waits for the closing instance's LOCK).
 */
import { createKeyValueStackHarness, createTestStoreContext, keyValueStoreCompliance } from '@kstreams/stores/compliance'
import type { KeyValueStoreHarness } from '@kstreams/stores/compliance'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBKeyValueBytesStoreSupplier } from '../src/rocksdb-key-value-bytes-store-supplier.js'
import { TempDirs } from './helpers/temp-dirs.js'

const dirs = new TempDirs()
const stateDirs = new Map<RocksDBStore, string>()

const direct: KeyValueStoreHarness = {
  name: 'rocksdb',
  persistent: true,
  async open() {
    const stateDir = await dirs.make()
    const store = new RocksDBStore('compliance-kv')
    await store.init(createTestStoreContext({ stateDir }), store)
    stateDirs.set(store, stateDir)
    return store
  },
  async reopen(store) {
    const rocks = store as RocksDBStore
    rocks.close()
    await rocks.init(createTestStoreContext({ stateDir: stateDirs.get(rocks) }), rocks)
    return rocks
  },
  commit(store) {
    store.flush()
  },
  async cleanup() {
    for (const store of stateDirs.keys()) {
      store.close()
      await store.whenClosed()
    }
    stateDirs.clear()
    await dirs.cleanup()
  }
}

keyValueStoreCompliance(direct)

const stackDirs = new TempDirs()
const stackRoot = await stackDirs.make('kstreams-rocksdb-stack-')
after(async () => {
  await stackDirs.cleanup()
})
keyValueStoreCompliance(
  createKeyValueStackHarness({
    name: 'metered -> caching -> change-logging -> rocksdb',
    supplier: name => new RocksDBKeyValueBytesStoreSupplier(name),
    persistent: true,
    stateDirRoot: stackRoot
  })
)
