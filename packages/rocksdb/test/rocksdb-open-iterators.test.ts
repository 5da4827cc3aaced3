/**
 * RocksDBStore.openIterators: the RocksDB iterators open in this thread rise with each range read
 * or fetch and fall again when the iterator is closed, read to its end, left by a `for...of`
 * break, or closed with its store; one left open stays counted, even once its rows are buffered.
 */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import { createTestStoreContext } from '@kstreams/stores/compliance'
import { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBWindowStore } from '../src/rocksdb-window-store.js'
import { s, StoreFixture } from './helpers/open-store.js'

describe('RocksDBStore.openIterators', () => {
  const fixture = new StoreFixture()
  const windowStores: RocksDBWindowStore[] = []
  afterEach(async () => {
    for (const store of windowStores.splice(0)) {
      store.close()
      await store.whenClosed()
    }
    await fixture.cleanup()
  })

  /** The open iterators now, less those open when the test started. */
  const opened = (before: number): number => RocksDBStore.openIterators - before

  it('counts a key-value iterator until it is closed, read to its end or left by a break', async () => {
    const { store } = await fixture.open()
    store.putAll([new KeyValue(s('a'), s('1')), new KeyValue(s('b'), s('2')), new KeyValue(s('c'), s('3'))])
    store.flush()
    const before = RocksDBStore.openIterators

    const closed = store.all()
    closed.next()
    expect(opened(before)).to.equal(1)
    closed.close()
    expect(opened(before)).to.equal(0)

    const drained = store.range(s('a'), s('b'))
    expect(opened(before)).to.equal(1)
    expect([...drained]).to.have.length(2)
    expect(opened(before)).to.equal(0)

    for (const _entry of store.reverseAll()) {
      expect(opened(before)).to.equal(1)
      break
    }
    expect(opened(before)).to.equal(0)

    const leaked = store.all()
    leaked.next()
    store.range(s('b'), s('c'))
    expect(opened(before)).to.equal(2)
  })

  it('a store closes the iterators it handed out, and they stop counting', async () => {
    const { store } = await fixture.open()
    store.put(s('a'), s('1'))
    store.flush()
    const before = RocksDBStore.openIterators
    store.all()
    store.reverseAll().next()
    expect(opened(before)).to.equal(2)
    store.close()
    expect(opened(before)).to.equal(0)
  })

  it('counts a window fetch once, and once more for the segment it is reading', async () => {
    const store = new RocksDBWindowStore({
      name: 'windows',
      retentionPeriod: 100_000,
      windowSize: 100,
      retainDuplicates: false,
      segmentInterval: 1000
    })
    await store.init(createTestStoreContext({ stateDir: await fixture.dirs.make() }), store)
    windowStores.push(store)
    for (const time of [100, 1100, 2100]) store.put(s('k'), s(String(time)), time)
    store.flush()
    const before = RocksDBStore.openIterators

    const walk = store.fetch(s('k'), 0, 5000)
    expect(opened(before)).to.equal(1)
    expect(walk.next().value?.key).to.equal(100)
    expect(opened(before)).to.equal(2)
    expect(walk.next().value?.key).to.equal(1100)
    expect(opened(before)).to.equal(2)
    expect([...walk].map(kv => kv.key)).to.deep.equal([2100])
    expect(opened(before)).to.equal(0)

    store.fetch(s('k'), 0, 5000).next()
    expect(opened(before)).to.equal(2)
    store.close()
    expect(opened(before)).to.equal(0)
  })
})
