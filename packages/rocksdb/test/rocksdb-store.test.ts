/** The RocksDB key-value store beyond the compliance suite: write overlay, flushes, restore, lifecycle, directory, names, options. */
import { expect } from 'chai'
import { KeyValue, StreamsError } from '@kstreams/core'
import { codeOf, createTestStoreContext } from '@kstreams/stores/compliance'
import { stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBKeyValueBytesStoreSupplier } from '../src/rocksdb-key-value-bytes-store-supplier.js'
import { b, entries, s, StoreFixture, WriteCounter } from './helpers/open-store.js'

const bytes: { serialize: (topic: string, data: Buffer) => Buffer } = { serialize: (_topic, data) => data }

describe('RocksDBStore', () => {
  const fixture = new StoreFixture()
  afterEach(async () => {
    await fixture.cleanup()
  })

  it('is persistent, opens asynchronously and is open only between init and close', async () => {
    const dir = await fixture.dirs.make()
    const store = fixture.track(new RocksDBStore('store'))
    expect(store.persistent).to.equal(true)
    expect(store.isOpen()).to.equal(false)
    const opened = store.init(createTestStoreContext({ stateDir: dir }), store)
    expect(opened).to.be.instanceOf(Promise)
    expect(codeOf(() => store.get(s('a')))).to.equal('STORE_NOT_OPEN')
    await opened
    expect(store.isOpen()).to.equal(true)
    store.close()
    store.close()
    expect(store.isOpen()).to.equal(false)
    await store.whenClosed()
  })

  it('reads see unflushed writes: pending values and deletes override the DB', async () => {
    const { store } = await fixture.open()
    store.putAll([new KeyValue(s('a'), s('1')), new KeyValue(s('b'), s('2')), new KeyValue(s('c'), s('3'))])
    store.flush()
    store.put(s('b'), s('22'))
    store.delete(s('c'))
    store.put(s('d'), s('4'))
    expect(store.get(s('b'))?.toString()).to.equal('22')
    expect(store.get(s('c'))).to.equal(null)
    expect(store.get(s('d'))?.toString()).to.equal('4')
    expect(entries(store.all())).to.deep.equal(['a=1', 'b=22', 'd=4'])
    expect(entries(store.reverseAll())).to.deep.equal(['d=4', 'b=22', 'a=1'])
    expect(entries(store.range(s('b'), s('c')))).to.deep.equal(['b=22'])
    expect(entries(store.reverseRange(s('a'), s('c')))).to.deep.equal(['b=22', 'a=1'])
    expect(store.approximateNumEntries()).to.equal(3)
    store.flush()
    expect(entries(store.all())).to.deep.equal(['a=1', 'b=22', 'd=4'])
  })

  it('merges pending and flushed keys in byte order, with binary keys and prefix scans', async () => {
    const { store } = await fixture.open()
    for (const key of [b(0x00), b(0x80), b(0xff, 0x01), b(0x41, 0xff)]) store.put(key, s('db'))
    store.flush()
    for (const key of [Buffer.alloc(0), b(0x7f), b(0xff), b(0xff, 0xff), b(0x41)]) store.put(key, s('pending'))
    const keys = [...store.all()].map(kv => kv.key.toString('hex'))
    expect(keys).to.deep.equal(['', '00', '41', '41ff', '7f', '80', 'ff', 'ff01', 'ffff'])
    expect([...store.reverseAll()].map(kv => kv.key.toString('hex'))).to.deep.equal([...keys].reverse())
    expect([...store.prefixScan(b(0xff), bytes)].map(kv => kv.key.toString('hex'))).to.deep.equal(['ff', 'ff01', 'ffff'])
    expect([...store.prefixScan(b(0x41), bytes)].map(kv => kv.key.toString('hex'))).to.deep.equal(['41', '41ff'])
  })

  it('iterators see the store as it was when they were created, across writes and flushes', async () => {
    const { store } = await fixture.open()
    store.putAll([new KeyValue(s('a'), s('1')), new KeyValue(s('c'), s('3'))])
    store.flush()
    store.put(s('b'), s('2'))
    const iterator = store.all()
    expect(iterator.next().value?.key.toString()).to.equal('a')
    store.put(s('a0'), s('new'))
    store.delete(s('c'))
    store.put(s('b'), s('changed'))
    store.flush()
    expect(entries(iterator)).to.deep.equal(['b=2', 'c=3'])
    expect(entries(store.all())).to.deep.equal(['a=1', 'a0=new', 'b=changed'])
  })

  it('reads many rows through growing chunks', async () => {
    const { store } = await fixture.open()
    const n = 5000
    for (let i = 0; i < n; i++) store.put(s(`k${String(i).padStart(5, '0')}`), s(String(i)))
    store.flush()
    for (let i = 0; i < n; i += 3) store.delete(s(`k${String(i).padStart(5, '0')}`))
    let count = 0
    let previous = ''
    for (const kv of store.all()) {
      const key = kv.key.toString()
      expect(key > previous).to.equal(true)
      previous = key
      count++
    }
    expect(count).to.equal(n - Math.ceil(n / 3))
    expect(store.approximateNumEntries()).to.equal(count)
  })

  it('flush() writes the pending writes as one batch and fsyncs the WAL; nothing to write, no batch', async () => {
    const counter = new WriteCounter()
    const { store } = await fixture.open('store', { databaseFactory: counter.factory })
    store.put(s('a'), s('1'))
    store.put(s('a'), s('2'))
    store.put(s('b'), s('1'))
    expect(counter.writes).to.deep.equal([])
    store.flush()
    expect(counter.writes).to.deep.equal([{ sync: true }])
    store.flush()
    expect(counter.writes).to.have.length(1)
  })

  it('syncOnFlush: false writes without fsync', async () => {
    const counter = new WriteCounter()
    const { store } = await fixture.open('store', { databaseFactory: counter.factory, syncOnFlush: false })
    store.put(s('a'), s('1'))
    store.flush()
    expect(counter.writes).to.deep.equal([{ sync: false }])
  })

  it('writes pending writes early once they pass maxPendingBytes, without fsync', async () => {
    const counter = new WriteCounter()
    const { store } = await fixture.open('store', { databaseFactory: counter.factory, maxPendingBytes: 1000 })
    for (let i = 0; i < 5; i++) store.put(s(`k${i}`), Buffer.alloc(100))
    expect(counter.writes).to.deep.equal([])
    for (let i = 5; i < 20; i++) store.put(s(`k${i}`), Buffer.alloc(100))
    expect(counter.writes.length).to.be.at.least(1)
    expect(counter.writes.every(w => !w.sync)).to.equal(true)
    expect(store.approximateNumEntries()).to.equal(20)
  })

  it('close() writes the pending writes, so a reopened store has them', async () => {
    const { store, stateDir } = await fixture.open()
    store.put(s('a'), s('1'))
    store.flush()
    store.put(s('b'), s('2'))
    store.delete(s('a'))
    const reopened = await fixture.reopen(store, stateDir)
    expect(entries(reopened.all())).to.deep.equal(['b=2'])
  })

  it('the same store object can be closed and initialised again on its files', async () => {
    const { store, stateDir } = await fixture.open()
    store.put(s('a'), s('1'))
    store.close()
    await store.init(createTestStoreContext({ stateDir }), store)
    expect(store.get(s('a'))?.toString()).to.equal('1')
  })

  it('restores changelog records straight into RocksDB, after the pending writes', async () => {
    const { store, context, stateDir } = await fixture.open()
    store.put(s('a'), s('pending'))
    store.put(s('z'), s('pending'))
    context.restore('store', [
      { key: s('a'), value: s('restored') },
      { key: s('b'), value: s('2') },
      { key: s('z'), value: null }
    ])
    expect(entries(store.all())).to.deep.equal(['a=restored', 'b=2'])
    const reopened = await fixture.reopen(store, stateDir)
    expect(entries(reopened.all())).to.deep.equal(['a=restored', 'b=2'])
  })

  it('closes its iterators on close; a closed store throws STORE_NOT_OPEN', async () => {
    const { store } = await fixture.open()
    store.put(s('a'), s('1'))
    const iterator = store.all()
    store.close()
    expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.all())).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.approximateNumEntries())).to.equal('STORE_NOT_OPEN')
    store.flush()
  })

  it('close() while opening leaves the store closed and releases the DB; it can be opened again', async () => {
    const dir = await fixture.dirs.make()
    const store = fixture.track(new RocksDBStore('store'))
    const opened = store.init(createTestStoreContext({ stateDir: dir }), store)
    store.close()
    expect(store.isOpen()).to.equal(false)
    // whenClosed() waits for the open to finish and the DB to be let go: another store can open at once.
    await store.whenClosed()
    await opened
    const { store: other } = await fixture.open('store', { lockTimeoutMs: 0 }, dir)
    other.close()
    await other.whenClosed()
    await store.init(createTestStoreContext({ stateDir: dir }), store)
    expect(store.isOpen()).to.equal(true)
  })

  it('keeps its files in <stateDir>/rocksdb/<name>, owner-only (0700)', async () => {
    const { stateDir } = await fixture.open('my-store')
    const storeDir = await stat(join(stateDir, 'rocksdb', 'my-store'))
    expect(storeDir.isDirectory()).to.equal(true)
    expect(storeDir.mode & 0o777).to.equal(0o700)
    expect((await stat(join(stateDir, 'rocksdb'))).mode & 0o777).to.equal(0o700)
    expect((await stat(join(stateDir, 'rocksdb', 'my-store', 'CURRENT'))).isFile()).to.equal(true)
  })

  it('rejects store names that could leave the state directory (ILLEGAL_ARGUMENT)', () => {
    for (const name of ['../escape', '..', '.', 'a/b', '/abs', 'a\\b', '']) {
      expect(
        codeOf(() => new RocksDBStore(name)),
        name
      ).to.equal('ILLEGAL_ARGUMENT')
      expect(
        codeOf(() => new RocksDBKeyValueBytesStoreSupplier(name)),
        name
      ).to.equal('ILLEGAL_ARGUMENT')
    }
  })

  it('a state directory it cannot create fails the open with STORE_IO_ERROR naming the store', async () => {
    const dir = await fixture.dirs.make()
    const file = join(dir, 'not-a-directory')
    await writeFile(file, 'x')
    const store = fixture.track(new RocksDBStore('store'))
    const err = await store.init(createTestStoreContext({ stateDir: file }), store).then(
      () => undefined,
      (e: unknown) => e
    )
    expect((err as StreamsError).code).to.equal('STORE_IO_ERROR')
    expect((err as Error).message).to.contain('"store"')
    expect(store.isOpen()).to.equal(false)
  })

  it('needs a state directory: init without one throws ILLEGAL_STATE', () => {
    const store = new RocksDBStore('store')
    expect(codeOf(() => store.init(createTestStoreContext(), store))).to.equal('ILLEGAL_STATE')
    expect(store.isOpen()).to.equal(false)
  })

  it('rejects invalid options with ILLEGAL_ARGUMENT', () => {
    expect(codeOf(() => new RocksDBStore('s', { lockTimeoutMs: -1 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new RocksDBStore('s', { maxPendingBytes: 1.5 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new RocksDBKeyValueBytesStoreSupplier('s', false, { memoryBudget: {} as never }))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('throws the typed error with the store name and path', async () => {
    const { stateDir } = await fixture.open('held', { lockTimeoutMs: 0 })
    const second = fixture.track(new RocksDBStore('held', { lockTimeoutMs: 0 }))
    const err = await second.init(createTestStoreContext({ stateDir }), second).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(err).to.be.instanceOf(StreamsError)
    expect((err as StreamsError).code).to.equal('STATE_DIR_LOCKED')
    expect((err as StreamsError).retriable).to.equal(true)
    expect((err as { storeName: string }).storeName).to.equal('held')
    expect((err as { path: string }).path).to.equal(join(stateDir, 'rocksdb', 'held'))
    expect(second.isOpen()).to.equal(false)
  })
})
