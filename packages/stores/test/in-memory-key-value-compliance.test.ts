/** Runs the key-value compliance suite against the in-memory bytes store on its own. */
import { keyValueStoreCompliance } from '../src/compliance/key-value/index.js'
import type { KeyValueStoreHarness } from '../src/compliance/harness.js'
import { createTestStoreContext } from '../src/compliance/test-context.js'
import { InMemoryKeyValueStore } from '../src/in-memory-key-value-store.js'

const harness: KeyValueStoreHarness = {
  name: 'in-memory',
  persistent: false,
  open() {
    const store = new InMemoryKeyValueStore('compliance-kv')
    store.init(createTestStoreContext(), store)
    return Promise.resolve(store)
  },
  /** The same store object, closed and initialised again, as a revived task does. */
  reopen(store) {
    store.close()
    store.init(createTestStoreContext(), store)
    return Promise.resolve(store)
  },
  commit(store) {
    store.flush()
  },
  cleanup() {
    return Promise.resolve()
  }
}

keyValueStoreCompliance(harness)
