/**
 * Runs the window and session compliance suites through the full stack the builders compose
 * (metered -> caching -> change-logging -> in-memory) with a roomy record cache (writes stay
 * cached until commit) and a tiny one (almost every write evicts and flushes), so that reads,
 * ranges, deletes and retention are checked across the cache/store merge; then checks that the
 * changelog each stack wrote (Kafka's key layout) restores a fresh store to the same contents.
 */
import { expect } from 'chai'
import { SessionWindow, Windowed } from '@kstreams/core'
import type { KeyValueIterator, SessionStore, WindowStore } from '@kstreams/core'
import { SessionKeySchema, ThreadCache, WindowKeySchema } from '@kstreams/core/internal'
import { sessionStoreCompliance } from '../src/compliance/session/index.js'
import { windowStoreCompliance } from '../src/compliance/window/index.js'
import { Stores } from '../src/stores.js'
import { sessionStackHarness, windowStackHarness } from '../src/compliance/windowed-stack-harness.js'

const RETENTION = 100
const WINDOW = 10
const CACHES = [
  ['roomy', 10 * 1024 * 1024],
  ['tiny', 300]
] as const

for (const [label, maxCacheSizeBytes] of CACHES) {
  const newCache = (): ThreadCache => new ThreadCache({ maxCacheSizeBytes })
  windowStoreCompliance(
    windowStackHarness({
      name: `metered -> caching (${label} record cache) -> change-logging -> in-memory`,
      supplier: name => Stores.inMemoryWindowStore(name, RETENTION, WINDOW, false),
      persistent: false,
      newCache,
      retentionPeriod: RETENTION,
      windowSize: WINDOW,
      retainDuplicates: false
    })
  )
  sessionStoreCompliance(
    sessionStackHarness({
      name: `metered -> caching (${label} record cache) -> change-logging -> in-memory`,
      supplier: name => Stores.inMemorySessionStore(name, RETENTION),
      persistent: false,
      newCache,
      retentionPeriod: RETENTION
    })
  )
}

// Caching is asked for but never applied to a store that retains duplicates (as in Kafka).
windowStoreCompliance(
  windowStackHarness({
    name: 'metered -> change-logging -> in-memory (caching asked for)',
    supplier: name => Stores.inMemoryWindowStore(name, RETENTION, WINDOW, true),
    persistent: false,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: 10 * 1024 * 1024 }),
    retentionPeriod: RETENTION,
    windowSize: WINDOW,
    retainDuplicates: true
  })
)

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const session = (key: string, start: number, end: number): Windowed<Buffer> => new Windowed(s(key), new SessionWindow(start, end))
const entries = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] => {
  try {
    return [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)
  } finally {
    it.close()
  }
}

describe("full windowed stacks: the cache keeps the in-memory stores' order", () => {
  const windows = windowStackHarness({
    name: 'window',
    supplier: name => Stores.inMemoryWindowStore(name, RETENTION, WINDOW, false),
    persistent: false,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: 100_000 }),
    retentionPeriod: RETENTION,
    windowSize: WINDOW,
    retainDuplicates: false
  })
  const sessions = sessionStackHarness({
    name: 'session',
    supplier: name => Stores.inMemorySessionStore(name, RETENTION),
    persistent: false,
    newCache: () => new ThreadCache({ maxCacheSizeBytes: 100_000 }),
    retentionPeriod: RETENTION
  })
  after(async () => {
    await windows.cleanup()
    await sessions.cleanup()
  })

  it('window reads return cached and stored windows time first, as after a commit', async () => {
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
      ['c', 1],
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
    expect(cached[0]).to.deep.equal([
      'b@0/10=b0*',
      'b@1/11=b1*',
      'c@1/11=c1*',
      'a@2/12=a2*',
      'a@3/13=a3',
      'a@8/18=a8*',
      'ab@8/18=ab8',
      'c@9/19=c9'
    ])
    await windows.commit(store)
    expect(cached).to.deep.equal(reads())
  })

  it('session searches return cached and stored sessions by end, then key, as after a commit', async () => {
    const store = await sessions.open()
    store.put(session('b', 0, 1), s('b1'))
    store.put(session('a', 2, 9), s('a9'))
    store.put(session('c', 3, 4), s('c4'))
    await sessions.commit(store)
    store.put(session('a', 0, 4), s('a4*'))
    store.put(session('b', 5, 9), s('b9*'))
    store.put(session('c', 3, 4), s('c4*'))
    store.put(session('ab', 6, 6), s('ab6*'))
    const reads = (): string[][] => [
      entries(store.fetch(undefined, undefined)),
      entries(store.backwardFetch(undefined, undefined)),
      entries(store.findSessions(0, 9)),
      entries(store.findSessions(s('a'), s('b'), 2, 6)),
      entries(store.backwardFindSessions(s('ab'), s('c'), 0, 9))
    ]
    const cached = reads()
    expect(cached[0]).to.deep.equal(['b@0/1=b1', 'a@0/4=a4*', 'c@3/4=c4*', 'ab@6/6=ab6*', 'a@2/9=a9', 'b@5/9=b9*'])
    await sessions.commit(store)
    expect(cached).to.deep.equal(reads())
  })

  it('sessions of one key and end are each returned once, the cached value winning', async () => {
    // The in-memory store orders them newest start first, the cache oldest first: the merge
    // may order them otherwise than the store alone, but never repeats or loses one.
    const store = await sessions.open()
    store.put(session('a', 1, 9), s('stored-1'))
    store.put(session('a', 3, 9), s('stored-3'))
    await sessions.commit(store)
    store.put(session('a', 1, 9), s('cached-1'))
    store.put(session('a', 2, 9), s('cached-2'))
    const expected = ['a@1/9=cached-1', 'a@2/9=cached-2', 'a@3/9=stored-3']
    expect(entries(store.fetch(s('a'))).sort()).to.deep.equal(expected)
    expect(entries(store.backwardFetch(s('a'))).sort()).to.deep.equal(expected)
    await sessions.commit(store)
    expect(entries(store.fetch(s('a'))).sort()).to.deep.equal(expected)
    expect(store.fetchSession(s('a'), 1, 9)?.toString()).to.equal('cached-1')
  })
})

describe('full window stack: changelog replay', () => {
  for (const [label, maxCacheSizeBytes] of CACHES) {
    const harness = windowStackHarness({
      name: label,
      supplier: name => Stores.inMemoryWindowStore(name, RETENTION, WINDOW, false),
      persistent: false,
      newCache: () => new ThreadCache({ maxCacheSizeBytes }),
      retentionPeriod: RETENTION,
      windowSize: WINDOW,
      retainDuplicates: false
    })
    after(async () => {
      await harness.cleanup()
    })

    it(`restores a fresh store to the same windows from the changelog it wrote (${label} cache)`, async () => {
      const store = await harness.open()
      const write = (key: string, value: string | null, start: number): void => {
        store.put(s(key), value === null ? null : s(value), start)
      }
      write('a', '1', 0)
      write('b', '2', 0)
      write('a', '3', 10)
      write('a', '11', 0)
      write('b', null, 0)
      write('c', 'gone', 20)
      write('c', null, 20)
      write('', 'empty key', 30)
      write('e', '', 30)
      await harness.commit(store)
      const expected = ['a@0/10=11', 'a@10/20=3', '@30/40=empty key', 'e@30/40=']
      expect(entries(store.all())).to.deep.equal(expected)

      const changelog = harness.contextOf(store).changelog
      expect(changelog.every(r => r.storeName === 'compliance-window')).to.equal(true)
      // Kafka's layout: [key][8-byte window start][4-byte seqnum 0], the value as stored.
      const last = changelog.find(r => r.key.equals(WindowKeySchema.toStoreKeyBinary(s('a'), 0, 0)) && r.value?.toString() === '11')
      expect(last, 'the final write of a@0').to.not.equal(undefined)
      expect(changelog.every(r => WindowKeySchema.extractStoreSequence(r.key) === 0)).to.equal(true)

      const restored = await harness.openFromChangelog(changelog)
      expect(entries(restored.all())).to.deep.equal(expected)
      expect(restored.fetch(s('b'), 0)).to.equal(null)
      expect(restored.fetch(s('a'), 0)?.toString()).to.equal('11')
      // restoring writes to the backend directly: nothing is logged again
      expect(harness.contextOf(restored).changelog).to.deep.equal([])
    })

    it(`a restored store holds expired what the changelog's stream time expired (${label} cache)`, async () => {
      const store = await harness.open()
      store.put(s('old'), s('o'), 5)
      store.put(s('new'), s('n'), 5 + RETENTION)
      await harness.commit(store)
      const restored = await harness.openFromChangelog(harness.contextOf(store).changelog)
      expect(restored.fetch(s('old'), 5)).to.equal(null)
      expect(entries(restored.fetchAll(0, 1000))).to.deep.equal([`new@${5 + RETENTION}/${5 + RETENTION + WINDOW}=n`])
      // The caching layer saw the restored stream time: a late write to an expired window stays hidden.
      restored.put(s('late'), s('l'), 5)
      expect(restored.fetch(s('late'), 5)).to.equal(null)
      expect(entries(restored.all())).to.deep.equal([`new@${5 + RETENTION}/${5 + RETENTION + WINDOW}=n`])
    })
  }

  it('logs every put of a store that retains duplicates under its own seqnum, and restores them all', async () => {
    const harness = windowStackHarness({
      name: 'duplicates',
      supplier: name => Stores.inMemoryWindowStore(name, RETENTION, WINDOW, true),
      persistent: false,
      newCache: () => new ThreadCache({ maxCacheSizeBytes: 100_000 }),
      retentionPeriod: RETENTION,
      windowSize: WINDOW,
      retainDuplicates: true
    })
    try {
      const store: WindowStore<Buffer, Buffer> = await harness.open()
      store.put(s('k'), s('x'), 10)
      store.put(s('k'), s('y'), 10)
      store.put(s('k'), s('x'), 10)
      // not cached: the changelog has every put before any commit
      const changelog = harness.contextOf(store).changelog
      expect(
        changelog.map(r => [
          WindowKeySchema.extractStoreKeyBytes(r.key).toString(),
          WindowKeySchema.extractStoreTimestamp(r.key),
          WindowKeySchema.extractStoreSequence(r.key),
          r.value?.toString()
        ])
      ).to.deep.equal([
        ['k', 10, 1, 'x'],
        ['k', 10, 2, 'y'],
        ['k', 10, 3, 'x']
      ])
      const restored = await harness.openFromChangelog(changelog)
      expect(entries(restored.all())).to.deep.equal(['k@10/20=x', 'k@10/20=y', 'k@10/20=x'])
    } finally {
      await harness.cleanup()
    }
  })
})

describe('full session stack: changelog replay', () => {
  for (const [label, maxCacheSizeBytes] of CACHES) {
    const harness = sessionStackHarness({
      name: label,
      supplier: name => Stores.inMemorySessionStore(name, RETENTION),
      persistent: false,
      newCache: () => new ThreadCache({ maxCacheSizeBytes }),
      retentionPeriod: RETENTION
    })
    after(async () => {
      await harness.cleanup()
    })

    it(`restores a fresh store to the same sessions from the changelog it wrote (${label} cache)`, async () => {
      const store: SessionStore<Buffer, Buffer> = await harness.open()
      store.put(session('a', 0, 5), s('1'))
      store.put(session('b', 3, 3), s('2'))
      // a session merge: the two sessions of a are replaced by one
      store.put(session('a', 8, 9), s('3'))
      store.remove(session('a', 0, 5))
      store.remove(session('a', 8, 9))
      store.put(session('a', 0, 9), s('4'))
      store.put(session('c', 1, 2), s('x'))
      store.put(session('c', 1, 2), null)
      await harness.commit(store)
      const expected = ['b@3/3=2', 'a@0/9=4']
      expect(entries(store.findSessions(0, RETENTION))).to.deep.equal(expected)

      const changelog = harness.contextOf(store).changelog
      // Kafka's layout: [key][8-byte end][8-byte start].
      expect(changelog.some(r => r.key.equals(SessionKeySchema.toBinary(s('a'), 0, 9)) && r.value?.toString() === '4')).to.equal(true)
      expect(changelog.some(r => r.key.equals(SessionKeySchema.toBinary(s('a'), 0, 5)) && r.value === null)).to.equal(true)

      const restored = await harness.openFromChangelog(changelog)
      expect(entries(restored.findSessions(0, RETENTION))).to.deep.equal(expected)
      expect(restored.fetchSession(s('a'), 0, 5)).to.equal(null)
      expect(restored.fetchSession(s('a'), 0, 9)?.toString()).to.equal('4')
      expect(harness.contextOf(restored).changelog).to.deep.equal([])
    })
  }
})
