/**
 * What the compliance suites cannot see of the segmented RocksDB stores: the on-disk key layout
 * (8-byte segment id, then Kafka's store key), expired segments physically dropped, segments
 * found again after a reopen, changelog restore, and the suppliers' argument rules.
 */
import { expect } from 'chai'
import { SessionWindow, Windowed } from '@kstreams/core'
import { codeOf, createTestStoreContext } from '@kstreams/stores/compliance'
import type { RocksDBStore } from '../src/rocksdb-store.js'
import { RocksDBSessionStore } from '../src/rocksdb-session-store.js'
import { RocksDBStores } from '../src/rocksdb-stores.js'
import { RocksDBWindowStore } from '../src/rocksdb-window-store.js'
import { s, StoreFixture } from './helpers/open-store.js'

const hexKeys = (store: RocksDBStore): string[] => [...store.all()].map(kv => kv.key.toString('hex'))
const long = (n: number): string => n.toString(16).padStart(16, '0')
const int = (n: number): string => n.toString(16).padStart(8, '0')

describe('RocksDB segmented stores', () => {
  const fixture = new StoreFixture()
  const closing: Array<{ close(): void; whenClosed(): Promise<void> }> = []
  afterEach(async () => {
    for (const store of closing.splice(0)) {
      store.close()
      await store.whenClosed()
    }
    await fixture.cleanup()
  })

  async function openWindow(
    stateDir: string,
    retainDuplicates = false,
    segmentInterval = 1000,
    retentionPeriod = 3000
  ): Promise<{ store: RocksDBWindowStore; context: ReturnType<typeof createTestStoreContext> }> {
    const store = new RocksDBWindowStore({ name: 'windows', retentionPeriod, windowSize: 100, retainDuplicates, segmentInterval })
    const context = createTestStoreContext({ stateDir })
    await store.init(context, store)
    closing.push(store)
    return { store, context }
  }

  async function openSession(stateDir: string, segmentInterval = 1000): Promise<RocksDBSessionStore> {
    const store = new RocksDBSessionStore({ name: 'sessions', retentionPeriod: 3000, segmentInterval })
    await store.init(createTestStoreContext({ stateDir }), store)
    closing.push(store)
    return store
  }

  /** The raw keys of a closed segmented store, read as a plain key-value store on its files. */
  async function rawKeys(store: { close(): void; whenClosed(): Promise<void> }, stateDir: string, name: string): Promise<string[]> {
    store.close()
    await store.whenClosed()
    const { store: raw } = await fixture.open(name, {}, stateDir)
    const keys = hexKeys(raw)
    raw.close()
    await raw.whenClosed()
    return keys
  }

  it('window store keys on disk: [8-byte segment id][key][8-byte window start][4-byte seqnum]', async () => {
    const stateDir = await fixture.dirs.make()
    const { store } = await openWindow(stateDir)
    store.put(s('k'), s('v'), 1000)
    store.put(s('k'), s('v'), 2500)
    expect(await rawKeys(store, stateDir, 'windows')).to.deep.equal([
      long(1) + '6b' + long(1000) + int(0),
      long(2) + '6b' + long(2500) + int(0)
    ])
  })

  it('with retainDuplicates every put gets the next seqnum', async () => {
    const stateDir = await fixture.dirs.make()
    const { store } = await openWindow(stateDir, true)
    store.put(s('k'), s('1'), 10)
    store.put(s('k'), s('2'), 10)
    store.put(s('k'), null, 10)
    expect(await rawKeys(store, stateDir, 'windows')).to.deep.equal([
      long(0) + '6b' + long(10) + int(1),
      long(0) + '6b' + long(10) + int(2)
    ])
  })

  it('session store keys on disk: [8-byte segment id of the end][key][8-byte end][8-byte start]', async () => {
    const stateDir = await fixture.dirs.make()
    const store = await openSession(stateDir)
    store.put(new Windowed(s('k'), new SessionWindow(900, 1200)), s('agg'))
    expect(await rawKeys(store, stateDir, 'sessions')).to.deep.equal([long(1) + '6b' + long(1200) + long(900)])
  })

  it('drops expired segments from disk, so they stay gone after a reopen', async () => {
    const stateDir = await fixture.dirs.make()
    const { store } = await openWindow(stateDir)
    store.put(s('a'), s('old'), 500)
    store.put(s('b'), s('mid'), 2500)
    store.flush()
    store.put(s('c'), s('new'), 4600)
    expect([...store.fetch(s('a'), 0, 10_000)]).to.deep.equal([])
    const keys = await rawKeys(store, stateDir, 'windows')
    expect(keys.map(k => k.slice(0, 16))).to.deep.equal([long(2), long(4)])
    // Stream time is unknown after a reopen, so only a physical drop keeps 'a' hidden.
    const { store: reopened } = await openWindow(stateDir)
    expect([...reopened.fetch(s('a'), 0, 10_000)]).to.deep.equal([])
    expect([...reopened.fetch(s('b'), 0, 10_000)].map(kv => kv.key)).to.deep.equal([2500])
    expect([...reopened.all()].map(kv => kv.key.key.toString())).to.deep.equal(['b', 'c'])
  })

  it('finds its segments again after a reopen and reads across them in order', async () => {
    const stateDir = await fixture.dirs.make()
    const { store } = await openWindow(stateDir, false, 100, 100_000)
    for (const time of [50, 150, 1050, 7777, 150]) store.put(s('k'), s(String(time)), time)
    store.close()
    await store.whenClosed()
    const { store: reopened } = await openWindow(stateDir, false, 100, 100_000)
    expect([...reopened.fetch(s('k'), 0, 10_000)].map(kv => kv.key)).to.deep.equal([50, 150, 1050, 7777])
    expect([...reopened.backwardFetch(s('k'), 100, 2000)].map(kv => kv.key)).to.deep.equal([1050, 150])
    expect(reopened.fetch(s('k'), 7777)?.toString()).to.equal('7777')
  })

  it('restores Kafka-layout changelog records into their segments, skipping expired ones', async () => {
    const stateDir = await fixture.dirs.make()
    const { store, context } = await openWindow(stateDir)
    const key = (k: string, time: number): Buffer => Buffer.concat([s(k), Buffer.from(long(time) + int(0), 'hex')])
    context.restore('windows', [
      { key: key('a', 100), value: s('a') },
      { key: key('b', 5000), value: s('b') },
      { key: key('c', 4000), value: s('c') },
      { key: key('b', 5000), value: null },
      { key: key('d', 1000), value: s('expired') }
    ])
    expect([...store.all()].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}`)).to.deep.equal(['c@4000'])
    expect(await rawKeys(store, stateDir, 'windows')).to.deep.equal([long(4) + '63' + long(4000) + int(0)])
  })

  it('the suppliers check their arguments as Kafka does and default the segment interval', () => {
    expect(RocksDBStores.persistentWindowStore('w', 200_000, 10, false).segmentInterval).to.equal(100_000)
    expect(RocksDBStores.persistentWindowStore('w', 1000, 10, false).segmentInterval).to.equal(60_000)
    expect(RocksDBStores.persistentWindowStore('w', 1000, 10, false, { segmentInterval: 5 }).segmentInterval).to.equal(5)
    expect(RocksDBStores.persistentSessionStore('s', 300_000).segmentInterval).to.equal(150_000)
    expect(RocksDBStores.persistentWindowStore('w', 1000, 10, false).metricsScope).to.equal('rocksdb-window')
    expect(RocksDBStores.persistentSessionStore('s', 1000).metricsScope).to.equal('rocksdb-session')
    expect(RocksDBStores.persistentKeyValueStore('k').metricsScope).to.equal('rocksdb')
    expect(codeOf(() => RocksDBStores.persistentWindowStore('w', 10, 20, false))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => RocksDBStores.persistentWindowStore('w', -1, 0, false))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => RocksDBStores.persistentWindowStore('w', 10, 5, false, { segmentInterval: 0 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => RocksDBStores.persistentTimestampedWindowStore('../w', 10, 5, false))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => RocksDBStores.persistentSessionStore('s', -5))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => RocksDBStores.persistentTimestampedKeyValueStore('a/b'))).to.equal('ILLEGAL_ARGUMENT')
  })
})
