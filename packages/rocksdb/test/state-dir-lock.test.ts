/**
 * A store's files are held by one store instance at a time: RocksDB's LOCK file (an fcntl lock,
 * released by the OS when a process dies, so never stale) keeps a second instance, in this or
 * another process, out with STATE_DIR_LOCKED; an instance that is still closing is waited for.
 */
import { expect } from 'chai'
import { StreamsError } from '@kstreams/core'
import { createTestStoreContext } from '@kstreams/stores/compliance'
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { s, StoreFixture } from './helpers/open-store.js'

const bindingPath = createRequire(import.meta.url).resolve('@nxtedition/rocksdb')

async function initError(store: RocksDBStore, stateDir: string): Promise<unknown> {
  return await store.init(createTestStoreContext({ stateDir }), store).then(
    () => undefined,
    (err: unknown) => err
  )
}

describe('RocksDB store: directory lock', () => {
  const fixture = new StoreFixture()
  afterEach(async () => {
    await fixture.cleanup()
  })

  it('a second store on the same task directory fails with STATE_DIR_LOCKED after lockTimeoutMs', async () => {
    const { store, stateDir } = await fixture.open('counts')
    store.put(s('a'), s('1'))
    const second = fixture.track(new RocksDBStore('counts', { lockTimeoutMs: 100 }))
    const err = await initError(second, stateDir)
    expect(err).to.be.instanceOf(StreamsError)
    expect((err as StreamsError).code).to.equal('STATE_DIR_LOCKED')
    expect(second.isOpen()).to.equal(false)
    // the first store is unaffected
    expect(store.get(s('a'))?.toString()).to.equal('1')
  })

  it('opening waits for an instance of the same store that is still closing', async () => {
    const { store, stateDir } = await fixture.open('counts')
    store.put(s('a'), s('1'))
    store.close()
    const { store: next } = await fixture.open('counts', {}, stateDir)
    expect(next.get(s('a'))?.toString()).to.equal('1')
  })

  it('another process holding the store keeps it locked until that process exits', async () => {
    const stateDir = await fixture.dirs.make()
    const storeDir = join(stateDir, 'rocksdb', 'counts')
    const { store } = await fixture.open('counts', {}, stateDir)
    store.close()
    await store.whenClosed()
    const script = `
      const { RocksLevel } = require(${JSON.stringify(bindingPath)})
      const db = new RocksLevel(${JSON.stringify(storeDir)}, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
      db.open({ createIfMissing: true }).then(() => {
        process.stdout.write('locked\\n')
        process.stdin.on('data', () => process.exit(0))
      }, err => { process.stderr.write(String(err)); process.exit(1) })
    `
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] })
    const exited = new Promise(resolve => child.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => {
          resolve()
        })
        child.once('exit', code => {
          reject(new Error(`child exited with ${String(code)}`))
        })
      })
      const blocked = fixture.track(new RocksDBStore('counts', { lockTimeoutMs: 50 }))
      const err = await initError(blocked, stateDir)
      expect((err as StreamsError).code).to.equal('STATE_DIR_LOCKED')
    } finally {
      child.stdin.write('exit\n')
      await exited
    }
    const { store: after } = await fixture.open('counts', { lockTimeoutMs: 0 }, stateDir)
    expect(after.isOpen()).to.equal(true)
  })
})
