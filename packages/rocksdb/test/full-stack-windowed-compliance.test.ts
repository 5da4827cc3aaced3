/**
 * Runs the window and session compliance suites through the full stack the builders compose over
 * RocksDB (metered -> caching -> change-logging -> rocksdb), with a roomy record cache and a tiny
 * one, and a segment interval small enough that the checks span several segments (so the merge
 * of cache and store follows RocksDB's segment-then-key order); then checks that the changelog
 * each stack wrote restores a fresh RocksDB store to the same contents, and that cached writes
 * survive a reopen.
 */
import { expect } from 'chai'
import { SessionWindow, ThreadCache, Windowed } from '@kstreams/core/internal'
import type { KeyValueIterator } from '@kstreams/core'
import { sessionStoreCompliance, windowStoreCompliance } from '@kstreams/stores/compliance'
import { RocksDBSessionBytesStoreSupplier } from '../src/rocksdb-session-bytes-store-supplier.js'
import { RocksDBWindowBytesStoreSupplier } from '../src/rocksdb-window-bytes-store-supplier.js'
import { TempDirs } from './helpers/temp-dirs.js'
import { sessionStackHarness, windowStackHarness } from './helpers/windowed-stack-harness.js'

const RETENTION = 100
const WINDOW = 10
const ROOMY = 10 * 1024 * 1024
const TINY = 300

const dirs = new TempDirs()
const stateDirRoot = await dirs.make('kstreams-rocksdb-windowed-stack-')
after(async () => { await dirs.cleanup() })

const windowSupplier = (segmentInterval: number, retainDuplicates = false) => (name: string) =>
  new RocksDBWindowBytesStoreSupplier(name, RETENTION, WINDOW, retainDuplicates, false, { segmentInterval })
const sessionSupplier = (segmentInterval: number) => (name: string) => new RocksDBSessionBytesStoreSupplier(name, RETENTION, { segmentInterval })

for (const [segmentInterval, label, maxCacheSizeBytes] of [[7, 'roomy', ROOMY], [7, 'tiny', TINY], [60_000, 'tiny', TINY]] as const) {
  const name = `metered -> caching (${label} record cache) -> change-logging -> rocksdb (segment interval ${segmentInterval})`
  const newCache = (): ThreadCache => new ThreadCache({ maxCacheSizeBytes })
  windowStoreCompliance(windowStackHarness({
    name, supplier: windowSupplier(segmentInterval), persistent: true, stateDirRoot, newCache, retentionPeriod: RETENTION, windowSize: WINDOW, retainDuplicates: false
  }))
  sessionStoreCompliance(sessionStackHarness({ name, supplier: sessionSupplier(segmentInterval), persistent: true, stateDirRoot, newCache, retentionPeriod: RETENTION }))
}

// Caching is asked for but never applied to a store that retains duplicates (as in Kafka).
windowStoreCompliance(windowStackHarness({
  name: 'metered -> change-logging -> rocksdb (segment interval 7, caching asked for)',
  supplier: windowSupplier(7, true),
  persistent: true,
  stateDirRoot,
  newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
  retentionPeriod: RETENTION,
  windowSize: WINDOW,
  retainDuplicates: true
}))

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const entries = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] => {
  try {
    return [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)
  } finally {
    it.close()
  }
}

describe('full windowed stacks over rocksdb: changelog replay and reopen', () => {
  const windows = windowStackHarness({
    name: 'window', supplier: windowSupplier(7), persistent: true, stateDirRoot, newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
    retentionPeriod: RETENTION, windowSize: WINDOW, retainDuplicates: false
  })
  const sessions = sessionStackHarness({
    name: 'session', supplier: sessionSupplier(7), persistent: true, stateDirRoot, newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }), retentionPeriod: RETENTION
  })
  after(async () => {
    await windows.cleanup()
    await sessions.cleanup()
  })

  it('a window store restored from the changelog the stack wrote has the same windows', async () => {
    const store = await windows.open()
    for (const [key, start, value] of [['b', 0, 'b0'], ['a', 15, 'a15'], ['a', 0, 'a0'], ['c', 30, 'c30'], ['a', 0, 'A0']] as const) store.put(s(key), s(value), start)
    store.put(s('b'), null, 0)
    await windows.commit(store)
    const expected = ['a@0/10=A0', 'a@15/25=a15', 'c@30/40=c30']
    expect(entries(store.all())).to.deep.equal(expected)
    const restored = await windows.openFromChangelog(windows.contextOf(store).changelog)
    expect(entries(restored.all())).to.deep.equal(expected)
    expect(entries(restored.backwardFetch(s('a'), s('c'), 0, 50))).to.deep.equal([...expected].reverse())
  })

  it('cached windows and sessions reach RocksDB when the store closes, and are there after a reopen', async () => {
    const window = await windows.open()
    window.put(s('k'), s('v'), 20)
    const reopenedWindow = await windows.reopen!(window)
    expect(reopenedWindow.fetch(s('k'), 20)?.toString()).to.equal('v')

    const session = await sessions.open()
    session.put(new Windowed(s('k'), new SessionWindow(3, 8)), s('agg'))
    const reopenedSession = await sessions.reopen!(session)
    expect(reopenedSession.fetchSession(s('k'), 3, 8)?.toString()).to.equal('agg')
  })

  it('a session store restored from the changelog the stack wrote has the same sessions', async () => {
    const store = await sessions.open()
    store.put(new Windowed(s('a'), new SessionWindow(0, 4)), s('1'))
    store.put(new Windowed(s('a'), new SessionWindow(6, 9)), s('2'))
    store.remove(new Windowed(s('a'), new SessionWindow(0, 4)))
    store.remove(new Windowed(s('a'), new SessionWindow(6, 9)))
    store.put(new Windowed(s('a'), new SessionWindow(0, 9)), s('3'))
    store.put(new Windowed(s('b'), new SessionWindow(20, 30)), s('4'))
    await sessions.commit(store)
    const expected = ['a@0/9=3', 'b@20/30=4']
    expect(entries(store.fetch(undefined, undefined))).to.deep.equal(expected)
    const restored = await sessions.openFromChangelog(sessions.contextOf(store).changelog)
    expect(entries(restored.fetch(undefined, undefined))).to.deep.equal(expected)
  })
})
