/**
 * Runs the window and session compliance suites through the full stack the builders compose over
 * RocksDB (metered -> caching -> change-logging -> rocksdb), with a roomy record cache and a tiny
 * one, and a segment interval small enough that the checks span several segments (so the merge
 * of cache and store follows RocksDB's segment-then-key order); then checks that the changelog
 * each stack wrote restores a fresh RocksDB store to the same contents, and that cached writes
 * survive a reopen.
 */
import { expect } from 'chai'
import { SessionWindow, Windowed } from '@kstreams/core'
import { ThreadCache } from '@kstreams/core/internal'
import type { KeyValueIterator } from '@kstreams/core'
import { sessionStoreCompliance, windowStoreCompliance } from '@kstreams/stores/compliance'
import { RocksDBSessionBytesStoreSupplier } from '../src/rocksdb-session-bytes-store-supplier.js'
import { RocksDBWindowBytesStoreSupplier } from '../src/rocksdb-window-bytes-store-supplier.js'
import { TempDirs } from './helpers/temp-dirs.js'
import { sessionStackHarness, windowStackHarness } from '@kstreams/stores/compliance'

const RETENTION = 100
const WINDOW = 10
const ROOMY = 10 * 1024 * 1024
const TINY = 300

const dirs = new TempDirs()
const stateDirRoot = await dirs.make('kstreams-rocksdb-windowed-stack-')
after(async () => {
  await dirs.cleanup()
})

const windowSupplier =
  (segmentInterval: number, retainDuplicates = false) =>
  (name: string) =>
    new RocksDBWindowBytesStoreSupplier(name, RETENTION, WINDOW, retainDuplicates, false, { segmentInterval })
const sessionSupplier = (segmentInterval: number) => (name: string) =>
  new RocksDBSessionBytesStoreSupplier(name, RETENTION, { segmentInterval })

for (const [segmentInterval, label, maxCacheSizeBytes] of [
  [7, 'roomy', ROOMY],
  [7, 'tiny', TINY],
  [60_000, 'tiny', TINY]
] as const) {
  const name = `metered -> caching (${label} record cache) -> change-logging -> rocksdb (segment interval ${segmentInterval})`
  const newCache = (): ThreadCache => new ThreadCache({ maxCacheSizeBytes })
  windowStoreCompliance(
    windowStackHarness({
      name,
      supplier: windowSupplier(segmentInterval),
      persistent: true,
      stateDirRoot,
      newCache,
      retentionPeriod: RETENTION,
      windowSize: WINDOW,
      retainDuplicates: false
    })
  )
  sessionStoreCompliance(
    sessionStackHarness({
      name,
      supplier: sessionSupplier(segmentInterval),
      persistent: true,
      stateDirRoot,
      newCache,
      retentionPeriod: RETENTION
    })
  )
}

// Caching is asked for but never applied to a store that retains duplicates (as in Kafka).
windowStoreCompliance(
  windowStackHarness({
    name: 'metered -> change-logging -> rocksdb (segment interval 7, caching asked for)',
    supplier: windowSupplier(7, true),
    persistent: true,
    stateDirRoot,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
    retentionPeriod: RETENTION,
    windowSize: WINDOW,
    retainDuplicates: true
  })
)

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const entries = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] => {
  try {
    return [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)
  } finally {
    it.close()
  }
}

describe("full windowed stacks over rocksdb: the cache keeps the store's order", () => {
  for (const segmentInterval of [7, 60_000]) {
    const windows = windowStackHarness({
      name: 'window',
      supplier: windowSupplier(segmentInterval),
      persistent: true,
      stateDirRoot,
      newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
      retentionPeriod: RETENTION,
      windowSize: WINDOW,
      retainDuplicates: false
    })
    const sessions = sessionStackHarness({
      name: 'session',
      supplier: sessionSupplier(segmentInterval),
      persistent: true,
      stateDirRoot,
      newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
      retentionPeriod: RETENTION
    })
    after(async () => {
      await windows.cleanup()
      await sessions.cleanup()
    })

    it(`window reads return cached and stored windows in RocksDB's order, as after a commit (segment interval ${segmentInterval})`, async () => {
      const store = await windows.open()
      for (const [key, start] of [
        ['b', 1],
        ['a', 3],
        ['c', 9],
        ['ab', 8]
      ] as const)
        store.put(s(key), s(`${key}${start}`), start)
      await windows.commit(store)
      for (const [key, start] of [
        ['a', 2],
        ['b', 0],
        ['c', 4],
        ['a', 8],
        ['b', 1]
      ] as const)
        store.put(s(key), s(`${key}${start}*`), start)
      const reads = (): string[][] => [
        entries(store.all()),
        entries(store.backwardAll()),
        entries(store.fetchAll(0, 9)),
        entries(store.backwardFetchAll(1, 8)),
        entries(store.fetch(s('a'), s('b'), 0, 9)),
        entries(store.backwardFetch(s('ab'), undefined, 0, 9))
      ]
      const cached = reads()
      // segment, then key: with one segment all windows of a come first, with segments of 7 ms those of 0..6 do
      expect(cached[0]).to.deep.equal(
        segmentInterval === 7
          ? ['a@2/12=a2*', 'a@3/13=a3', 'b@0/10=b0*', 'b@1/11=b1*', 'c@4/14=c4*', 'a@8/18=a8*', 'ab@8/18=ab8', 'c@9/19=c9']
          : ['a@2/12=a2*', 'a@3/13=a3', 'a@8/18=a8*', 'ab@8/18=ab8', 'b@0/10=b0*', 'b@1/11=b1*', 'c@4/14=c4*', 'c@9/19=c9']
      )
      await windows.commit(store)
      expect(cached).to.deep.equal(reads())
    })

    it(`session searches return cached and stored sessions in RocksDB's order, as after a commit (segment interval ${segmentInterval})`, async () => {
      const store = await sessions.open()
      const put = (key: string, start: number, end: number, value: string): void => {
        store.put(new Windowed(s(key), new SessionWindow(start, end)), s(value))
      }
      put('b', 0, 1, 'b1')
      put('a', 2, 9, 'a9')
      put('c', 3, 4, 'c4')
      await sessions.commit(store)
      put('a', 0, 2, 'a2*')
      put('b', 5, 8, 'b8*')
      put('c', 3, 4, 'c4*')
      put('ab', 6, 6, 'ab6*')
      const reads = (): string[][] => [
        entries(store.fetch(undefined, undefined)),
        entries(store.backwardFetch(undefined, undefined)),
        entries(store.findSessions(0, 9)),
        entries(store.findSessions(s('a'), s('b'), 2, 6)),
        entries(store.backwardFindSessions(s('ab'), s('c'), 0, 9))
      ]
      const cached = reads()
      await sessions.commit(store)
      expect(cached).to.deep.equal(reads())
    })
  }
})

describe('full windowed stacks over rocksdb: changelog replay and reopen', () => {
  const windows = windowStackHarness({
    name: 'window',
    supplier: windowSupplier(7),
    persistent: true,
    stateDirRoot,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
    retentionPeriod: RETENTION,
    windowSize: WINDOW,
    retainDuplicates: false
  })
  const sessions = sessionStackHarness({
    name: 'session',
    supplier: sessionSupplier(7),
    persistent: true,
    stateDirRoot,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: ROOMY }),
    retentionPeriod: RETENTION
  })
  after(async () => {
    await windows.cleanup()
    await sessions.cleanup()
  })

  it('a window store restored from the changelog the stack wrote has the same windows', async () => {
    const store = await windows.open()
    for (const [key, start, value] of [
      ['b', 0, 'b0'],
      ['a', 15, 'a15'],
      ['a', 0, 'a0'],
      ['c', 30, 'c30'],
      ['a', 0, 'A0']
    ] as const)
      store.put(s(key), s(value), start)
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
