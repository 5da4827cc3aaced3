/**
 * Large changelog batches (restores, standby updates) are written to RocksDB on a worker thread
 * while the stream thread goes on; every other use of the store waits for them first, so what a
 * read, a flush, a checkpoint or a reopen sees is every batch applied, in order. A batch that
 * fails fails the store for good with a typed error naming it.
 */
import { expect } from 'chai'
import { fileURLToPath } from 'node:url'
import { BackgroundWriter } from '../src/background-writes.js'
import { RocksDBStoreError } from '../src/rocksdb-store-error.js'
import { entries, eventually, s, StoreFixture, WriteCounter } from './helpers/open-store.js'

const failingBinding = fileURLToPath(new URL('./helpers/failing-binding.cjs', import.meta.url))

/** `count` changelog records key-0000.. with values `${tag}-<i>`, every third one a delete when `deletes`. */
function changelog(count: number, tag: string, deletes = false): Array<{ key: Buffer; value: Buffer | null }> {
  return Array.from({ length: count }, (_, i) => ({
    key: s(`key-${String(i).padStart(4, '0')}`),
    value: deletes && i % 3 === 0 ? null : s(`${tag}-${i}`)
  }))
}

describe('RocksDB: large changelog batches written on the background writer thread', function () {
  this.timeout(20_000)
  const fixture = new StoreFixture()
  afterEach(async () => {
    await fixture.cleanup()
  })

  it('reads, ranges and a reopen see every batch applied, in the order restored', async () => {
    const counter = new WriteCounter()
    const { store, context, stateDir } = await fixture.open('store', { databaseFactory: counter.factory })
    for (let round = 0; round < 20; round++) context.restore('store', changelog(500, `r${round}`))
    context.restore('store', changelog(500, 'last', true))
    // None of the 21 batches went through this thread's writes.
    expect(counter.writes).to.deep.equal([])
    expect(store.get(s('key-0000'))).to.equal(null)
    expect(store.get(s('key-0001'))?.toString()).to.equal('last-1')
    const all = entries(store.all())
    expect(all).to.have.length(500 - 167)
    expect(all.every(kv => kv.includes('=last-'))).to.equal(true)
    // A small batch after large ones is written here, after them.
    context.restore('store', [{ key: s('key-0001'), value: s('small') }])
    expect(counter.writes).to.deep.equal([{ sync: false }])
    expect(store.get(s('key-0001'))?.toString()).to.equal('small')
    const reopened = await fixture.reopen(store, stateDir)
    expect(reopened.get(s('key-0001'))?.toString()).to.equal('small')
    expect(reopened.get(s('key-0499'))?.toString()).to.equal('last-499')
    expect(reopened.get(s('key-0498'))).to.equal(null)
  })

  it('flush() waits for the batches, then fsyncs the WAL, before a checkpoint can cover them', async () => {
    const counter = new WriteCounter()
    const { store, context } = await fixture.open('store', { databaseFactory: counter.factory })
    context.restore('store', changelog(1000, 'v'))
    store.flush()
    expect(counter.writes).to.deep.equal([{ sync: true }])
    expect(store.approximateNumEntries()).to.be.greaterThan(0)
    expect(store.get(s('key-0999'))?.toString()).to.equal('v-999')
  })

  it('a batch that fails to write fails the store for good: every later use throws STORE_IO_ERROR naming it', async () => {
    const writer = new BackgroundWriter(failingBinding)
    const { store, context } = await fixture.open('Counts', { backgroundWriter: writer })
    context.restore('Counts', changelog(100, 'ok'))
    context.restore('Counts', [...changelog(99, 'x'), { key: s('fail'), value: s('1') }])
    const flushed = (): unknown => {
      try {
        store.flush()
        return undefined
      } catch (err) {
        return err
      }
    }
    const err = flushed()
    expect(err).to.be.instanceOf(RocksDBStoreError)
    expect((err as RocksDBStoreError).code).to.equal('STORE_IO_ERROR')
    expect((err as RocksDBStoreError).storeName).to.equal('Counts')
    expect((err as Error).message).to.contain('No space left on device')
    expect((flushed() as Error).message).to.equal((err as Error).message)
    expect(() => store.get(s('key-0001'))).to.throw(RocksDBStoreError, 'No space left on device')
    expect(() => context.restore('Counts', changelog(100, 'later'))).to.throw(RocksDBStoreError, 'No space left on device')
    expect(() => store.close()).to.throw(RocksDBStoreError, 'No space left on device')
    await store.whenClosed().catch(() => {})
    expect(store.isOpen()).to.equal(false)
  })

  it('a writer thread that stopped is not replaced: the batches it lost fail the store, later ones are refused', async () => {
    const writer = new BackgroundWriter(failingBinding)
    const { store, context } = await fixture.open('Counts', { backgroundWriter: writer })
    context.restore('Counts', [...changelog(99, 'x'), { key: s('crash'), value: s('1') }])
    await eventually(() => writer.stopped !== undefined)
    expect(() => store.flush()).to.throw(RocksDBStoreError, 'the background writer thread stopped (exit code 3)')
    expect(() => context.restore('Counts', changelog(100, 'later'))).to.throw(RocksDBStoreError, 'background writer thread stopped')
    expect(() => store.close()).to.throw(RocksDBStoreError, 'background writer thread stopped')
    await store.whenClosed().catch(() => {})
  })
})
