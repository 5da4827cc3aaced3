/** Opens RocksDB stores in temporary state directories for the unit tests, and closes them all. */
import { expect } from 'chai'
import { createTestStoreContext } from '@kstreams/stores/compliance'
import type { TestStoreContext } from '@kstreams/stores/compliance'
import { loadNativeDatabaseFactory } from '../../src/rocks-binding.js'
import type { NativeChainedBatch, NativeDatabase, NativeDatabaseFactory } from '../../src/rocks-binding.js'
import { RocksDBStore } from '../../src/rocksdb-store.js'
import type { RocksDBStoreOptions } from '../../src/rocksdb-store-options.js'
import { TempDirs } from './temp-dirs.js'

/** Waits until `condition` holds, checking every 5 ms; fails the test after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`condition not met within ${timeoutMs} ms`)
    await new Promise(resolve => setTimeout(resolve, 5))
  }
}

export const b = (...bytes: number[]): Buffer => Buffer.from(bytes)
export const s = (text: string): Buffer => Buffer.from(text, 'utf8')
export const entries = (iterator: Iterable<{ key: Buffer; value: Buffer }>): string[] =>
  [...iterator].map(kv => `${kv.key.toString()}=${kv.value.toString()}`)

/** Counts the batches written through the databases a factory opens, and their sync flags; `onWrite` is told of each before it is written. */
export class WriteCounter {
  readonly writes: Array<{ sync: boolean }> = []
  readonly factory: NativeDatabaseFactory

  constructor(onWrite?: (sync: boolean) => void) {
    const real = loadNativeDatabaseFactory()
    this.factory = location => {
      const db: NativeDatabase = real(location)
      const batch = db.batch.bind(db)
      const writes = this.writes
      return Object.assign(Object.create(db) as NativeDatabase, {
        open: db.open.bind(db),
        close: db.close.bind(db),
        _getManySync: db._getManySync.bind(db),
        iterator: db.iterator.bind(db),
        getProperty: db.getProperty.bind(db),
        _clear: db._clear.bind(db),
        batch: (): NativeChainedBatch => {
          const native = batch()
          return {
            _put: (k, v) => {
              native._put(k, v)
            },
            _del: k => {
              native._del(k)
            },
            _closeSync: () => {
              native._closeSync()
            },
            _writeSync: options => {
              writes.push({ sync: options?.sync === true })
              onWrite?.(options?.sync === true)
              native._writeSync(options)
            }
          }
        }
      })
    }
  }
}

export class StoreFixture {
  readonly dirs = new TempDirs()
  readonly #stores: RocksDBStore[] = []

  /** A store in `stateDir` (a new directory when undefined), opened. */
  async open(
    name = 'store',
    options: RocksDBStoreOptions = {},
    stateDir?: string
  ): Promise<{ store: RocksDBStore; context: TestStoreContext; stateDir: string }> {
    const dir = stateDir ?? (await this.dirs.make())
    const store = this.track(new RocksDBStore(name, options))
    const context = createTestStoreContext({ stateDir: dir })
    await store.init(context, store)
    return { store, context, stateDir: dir }
  }

  /** Closes `store`, waits for its files, and opens a new store on them. */
  async reopen(store: RocksDBStore, stateDir: string, options: RocksDBStoreOptions = {}): Promise<RocksDBStore> {
    store.close()
    await store.whenClosed()
    return (await this.open(store.name, options, stateDir)).store
  }

  track(store: RocksDBStore): RocksDBStore {
    this.#stores.push(store)
    return store
  }

  async cleanup(): Promise<void> {
    for (const store of this.#stores.splice(0)) {
      try {
        store.close()
      } catch {
        /* already failed */
      }
      await store.whenClosed().catch(() => {})
    }
    await this.dirs.cleanup()
  }
}
