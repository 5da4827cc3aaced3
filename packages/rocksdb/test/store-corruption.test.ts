/**
 * Corrupt store files: opening fails, or a read of a damaged block fails, with a
 * RocksDBStoreError STORE_CORRUPTED that names the store and its directory (the runtime wipes
 * such a store and restores it from its changelog).
 */
import { expect } from 'chai'
import type { StreamsError } from '@kstreams/core'
import { createTestStoreContext } from '@kstreams/stores/compliance'
import { open as openFile, readdir, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBStoreError } from '../src/rocksdb-store-error.js'
import type { RocksDBStoreOptions } from '../src/rocksdb-store-options.js'
import { s, StoreFixture } from './helpers/open-store.js'

/** Small memtables, so that a few hundred KiB of writes end up in SST files. */
const smallMemtables: RocksDBStoreOptions = {
  configSetter: {
    setConfig: (_name, options) => {
      options.memtableMemoryBudget = 256 * 1024
    }
  }
}

async function openError(store: RocksDBStore, stateDir: string): Promise<unknown> {
  return await store.init(createTestStoreContext({ stateDir }), store).then(
    () => undefined,
    (err: unknown) => err
  )
}

function expectCorrupted(err: unknown, storeDir: string): void {
  expect(err).to.be.instanceOf(RocksDBStoreError)
  expect((err as StreamsError).code).to.equal('STORE_CORRUPTED')
  expect((err as RocksDBStoreError).storeName).to.equal('victim')
  expect((err as RocksDBStoreError).path).to.equal(storeDir)
  expect((err as Error).message)
    .to.contain('victim')
    .and.to.contain(storeDir)
  expect((err as Error).cause).to.not.equal(undefined)
}

describe('RocksDB store: corrupt files', () => {
  const fixture = new StoreFixture()
  afterEach(async () => {
    await fixture.cleanup()
  })

  /** A closed store with data in SST files; returns its state and store directories. */
  async function writtenStore(): Promise<{ stateDir: string; storeDir: string; sst: string[] }> {
    const { store, stateDir } = await fixture.open('victim', smallMemtables)
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 500; i++) store.put(s(`key-${round}-${i}`), Buffer.alloc(100, i))
      store.flush()
    }
    store.close()
    await store.whenClosed()
    const storeDir = join(stateDir, 'rocksdb', 'victim')
    const sst = (await readdir(storeDir)).filter(f => f.endsWith('.sst')).sort()
    return { stateDir, storeDir, sst }
  }

  it('a garbled CURRENT file fails the open with STORE_CORRUPTED naming the store and path', async () => {
    const { stateDir, storeDir } = await writtenStore()
    await writeFile(join(storeDir, 'CURRENT'), 'not-a-manifest\n')
    const store = fixture.track(new RocksDBStore('victim'))
    expectCorrupted(await openError(store, stateDir), storeDir)
    expect(store.isOpen()).to.equal(false)
  })

  it('a garbled MANIFEST fails the open with STORE_CORRUPTED', async () => {
    const { stateDir, storeDir } = await writtenStore()
    const manifest = (await readdir(storeDir)).find(f => f.startsWith('MANIFEST-'))!
    await writeFile(join(storeDir, manifest), Buffer.alloc(300, 0x41))
    expectCorrupted(await openError(fixture.track(new RocksDBStore('victim')), stateDir), storeDir)
  })

  it('a truncated SST file fails the open with STORE_CORRUPTED', async () => {
    const { stateDir, storeDir, sst } = await writtenStore()
    expect(sst.length).to.be.greaterThan(0)
    await truncate(join(storeDir, sst[0]!), 100)
    expectCorrupted(await openError(fixture.track(new RocksDBStore('victim')), stateDir), storeDir)
  })

  it('a damaged block inside an SST file fails the read with STORE_CORRUPTED', async () => {
    const { stateDir, storeDir, sst } = await writtenStore()
    for (const file of sst) {
      const handle = await openFile(join(storeDir, file), 'r+')
      await handle.write(Buffer.alloc(256, 0x55), 0, 256, 64)
      await handle.close()
    }
    const store = fixture.track(new RocksDBStore('victim'))
    const err = await openError(store, stateDir)
    if (err !== undefined) {
      expectCorrupted(err, storeDir)
      return
    }
    let readError: unknown
    try {
      for (const _ of store.all()) {
        /* read everything */
      }
    } catch (e) {
      readError = e
    }
    expectCorrupted(readError, storeDir)
  })

  it('a store whose files were fixed (wiped) opens again', async () => {
    const { stateDir, storeDir } = await writtenStore()
    await writeFile(join(storeDir, 'CURRENT'), 'garbage\n')
    expectCorrupted(await openError(fixture.track(new RocksDBStore('victim')), stateDir), storeDir)
    const { rm } = await import('node:fs/promises')
    await rm(storeDir, { recursive: true, force: true })
    const { store } = await fixture.open('victim', {}, stateDir)
    expect(store.approximateNumEntries()).to.equal(0)
  })
})
