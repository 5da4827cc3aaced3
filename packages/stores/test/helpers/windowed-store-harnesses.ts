/**
 * Compliance harnesses for the in-memory window and session stores: the bytes store on its own,
 * and the same store under the metered layer built by Stores (with pass-through Buffer serdes).
 * In-memory stores are not persistent: reopening one (closing it and initialising it again, as a
 * revived task does) leaves it empty.
 */
import { Serdes } from '@kstreams/core'
import type { SessionStore, StateStore, WindowStore } from '@kstreams/core'
import type { SessionStoreHarness, WindowStoreHarness } from '../../src/compliance/harness.js'
import { createTestStoreContext } from '../../src/compliance/test-context.js'
import { Stores } from '../../src/stores.js'

export interface WindowHarnessOptions {
  retentionPeriod: number
  windowSize: number
  retainDuplicates: boolean
  /** Wrap the bytes store in the metered layer built by Stores.windowStoreBuilder. */
  metered: boolean
}

function open<S extends StateStore>(store: S): Promise<S> {
  store.init(createTestStoreContext(), store)
  return Promise.resolve(store)
}

function reopen<S extends StateStore>(store: S): Promise<S> {
  store.close()
  return open(store)
}

export function inMemoryWindowHarness(options: WindowHarnessOptions): WindowStoreHarness {
  const { retentionPeriod, windowSize, retainDuplicates, metered } = options
  let count = 0
  const build = (): WindowStore<Buffer, Buffer> => {
    const supplier = Stores.inMemoryWindowStore(`compliance-window-${count++}`, retentionPeriod, windowSize, retainDuplicates)
    return metered ? Stores.windowStoreBuilder(supplier, Serdes.Buffer(), Serdes.Buffer()).build() : supplier.get()
  }
  return {
    name: `in-memory${metered ? ' + metered' : ''} (retention ${retentionPeriod}, window ${windowSize})`,
    persistent: false,
    retentionPeriod,
    windowSize,
    retainDuplicates,
    open: async () => await open(build()),
    reopen,
    commit: store => {
      store.flush()
    },
    cleanup: async () => {}
  }
}

export function inMemorySessionHarness(options: { retentionPeriod: number; metered: boolean }): SessionStoreHarness {
  const { retentionPeriod, metered } = options
  let count = 0
  const build = (): SessionStore<Buffer, Buffer> => {
    const supplier = Stores.inMemorySessionStore(`compliance-session-${count++}`, retentionPeriod)
    return metered ? Stores.sessionStoreBuilder(supplier, Serdes.Buffer(), Serdes.Buffer()).build() : supplier.get()
  }
  return {
    name: `in-memory${metered ? ' + metered' : ''} (retention ${retentionPeriod})`,
    persistent: false,
    retentionPeriod,
    open: async () => await open(build()),
    reopen,
    commit: store => {
      store.flush()
    },
    cleanup: async () => {}
  }
}
