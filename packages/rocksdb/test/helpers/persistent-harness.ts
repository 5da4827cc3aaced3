/**
 * A compliance harness for persistent stores: each open() gets a fresh state directory, reopen()
 * closes the store and opens a newly built one on the same directory (waiting for the closing
 * one when it can say when it is done, else relying on the open's lock retry), cleanup() closes
 * everything and removes the directories.
 */
import { createTestStoreContext } from '@kstreams/stores/compliance'
import type { StoreHarness } from '@kstreams/stores/compliance'
import type { StateStore } from '@kstreams/core'
import { TempDirs } from './temp-dirs.js'

type Closing = { whenClosed?: () => Promise<void> }

async function closed(store: StateStore): Promise<void> {
  store.close()
  await (store as Closing).whenClosed?.().catch(() => {})
}

export function persistentHarness<S extends StateStore>(name: string, build: () => S): StoreHarness<S> {
  const dirs = new TempDirs()
  const stateDirs = new Map<StateStore, string>()
  const start = async (stateDir: string): Promise<S> => {
    const store = build()
    await store.init(createTestStoreContext({ stateDir }), store)
    stateDirs.set(store, stateDir)
    return store
  }
  return {
    name,
    persistent: true,
    async open() {
      return await start(await dirs.make())
    },
    async reopen(store) {
      const stateDir = stateDirs.get(store)
      if (stateDir === undefined) throw new Error(`store ${store.name} was not opened by harness ${name}`)
      await closed(store)
      return await start(stateDir)
    },
    commit(store) {
      store.flush()
    },
    async cleanup() {
      for (const store of stateDirs.keys()) await closed(store)
      stateDirs.clear()
      await dirs.cleanup()
    }
  }
}
