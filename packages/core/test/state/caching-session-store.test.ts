import { expect } from 'chai'
import type { ProcessorRecordContext } from '../../src/runtime/record-context.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { CachingSessionStore } from '../../src/state/caching-session-store.js'
import { ChangeLoggingSessionBytesStore } from '../../src/state/change-logging-session-bytes-store.js'
import type { KeyValueIterator } from '../../src/state/key-value-store.js'
import type { MeteredSessionStore } from '../../src/state/metered-session-store.js'
import { SessionKeySchema } from '../../src/state/session-key-schema.js'
import { SessionStoreBuilder } from '../../src/state/session-store-builder.js'
import { SessionWindow, Windowed } from '../../src/state/windowed.js'
import { codeOf } from './helpers/expect-code.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleSessionBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { stringSerde } from './helpers/test-serdes.js'

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const str = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'))
const session = (key: string, start: number, end: number): Windowed<Buffer> => new Windowed(s(key), new SessionWindow(start, end))
const sessions = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] => {
  try {
    return [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}/${kv.key.window.end}=${kv.value.toString()}`)
  } finally {
    it.close()
  }
}
const rows = (backend: SimpleSessionBytesStore): string[] =>
  backend.rows.map(r => `${r.key.toString()}@${r.start}/${r.end}=${r.value.toString()}`).sort()
const MAX = Number.MAX_SAFE_INTEGER

function open(options: { maxCacheSizeBytes?: number; noCache?: boolean; retentionPeriod?: number } = {}) {
  const cache = options.noCache === true ? undefined : new ThreadCache({ maxCacheSizeBytes: options.maxCacheSizeBytes ?? 100_000 })
  const context = new LayerTestContext({ cache })
  const backend = new SimpleSessionBytesStore('sessions')
  const store = new CachingSessionStore(new ChangeLoggingSessionBytesStore(backend), {
    segmentInterval: 1,
    retentionPeriod: options.retentionPeriod ?? 1000
  })
  store.init(context, store)
  return { cache, context, backend, store }
}

/** The changelog as `key@start/end=value/timestamp`. */
const changelog = (context: LayerTestContext): string[] =>
  context.rawChangelog.map(r => {
    const key = SessionKeySchema.fromBinary(r.key)
    return `${key.key.toString()}@${key.window.start}/${key.window.end}=${str(r.value)}/${r.timestamp}`
  })

describe('CachingSessionStore', () => {
  it('keeps puts and removes in the cache until flushed, reading its own writes', () => {
    const { store, backend, context } = open()
    context.at(4)
    store.put(session('a', 0, 5), s('1'))
    store.put(session('b', 2, 3), s('2'))
    store.put(session('c', 1, 1), s('3'))
    store.remove(session('c', 1, 1))
    expect(str(store.fetchSession(s('a'), 0, 5))).to.equal('1')
    expect(store.fetchSession(s('c'), 1, 1)).to.equal(null)
    expect(sessions(store.findSessions(s('a'), 0, MAX))).to.deep.equal(['a@0/5=1'])
    expect(sessions(store.findSessions(0, 10))).to.deep.equal(['b@2/3=2', 'a@0/5=1'])
    expect(sessions(store.fetch(s('a'), s('c')))).to.deep.equal(['b@2/3=2', 'a@0/5=1'])
    expect(sessions(store.backwardFetch(s('b')))).to.deep.equal(['b@2/3=2'])
    expect(backend.rows).to.deep.equal([])
    store.flush()
    expect(rows(backend)).to.deep.equal(['a@0/5=1', 'b@2/3=2'])
    // Without a flush listener the cached remove of c goes below (and to the changelog) as is.
    expect(changelog(context)).to.deep.equal(['a@0/5=1/4', 'b@2/3=2/4', 'c@1/1=null/4'])
  })

  it('forwards a session merge as Kafka does: removed sessions with their old value, the merged one new', () => {
    const { store, context } = open()
    const forwarded: string[] = []
    store.setFlushListener((key, newValue, oldValue, timestamp, rc: ProcessorRecordContext) => {
      const k = SessionKeySchema.fromBinary(key)
      forwarded.push(`${k.key.toString()}@${k.window.start}/${k.window.end}:${str(newValue)}<-${str(oldValue)}@${timestamp}#${rc.offset}`)
    }, true)
    context.at(1)
    store.put(session('a', 1, 1), s('1'))
    store.flush()
    context.at(5)
    store.remove(session('a', 1, 1))
    store.put(session('a', 1, 5), s('2'))
    store.flush()
    expect(forwarded).to.deep.equal(['a@1/1:1<-null@1#1', 'a@1/1:null<-1@5#2', 'a@1/5:2<-null@5#2'])
    expect(changelog(context)).to.deep.equal(['a@1/1=1/1', 'a@1/1=null/5', 'a@1/5=2/5'])
  })

  it('a session put and removed between flushes is neither written below nor forwarded when listened to', () => {
    const { store, context } = open()
    const forwarded: unknown[] = []
    store.setFlushListener((...args) => {
      forwarded.push(args)
    }, false)
    store.put(session('a', 0, 1), s('x'))
    store.remove(session('a', 0, 1))
    store.flush()
    expect(forwarded).to.deep.equal([])
    expect(context.rawChangelog).to.deep.equal([])
  })

  it("merges cached and stored sessions without duplicates, even where the store orders a key's sessions otherwise", () => {
    const { store, backend } = open()
    // The simple store orders by end, then start, then key; the cache by end, key, start.
    store.put(session('b', 1, 9), s('stored-b'))
    store.put(session('a', 3, 9), s('stored-a3'))
    store.put(session('a', 1, 9), s('stored-a1'))
    store.put(session('a', 0, 4), s('stored-a0'))
    store.flush()
    store.put(session('a', 1, 9), s('cached-a1'))
    store.put(session('a', 2, 9), s('cached-a2'))
    store.remove(session('a', 0, 4))
    store.put(session('c', 5, 9), s('cached-c'))
    expect(rows(backend)).to.have.length(4)
    const forward = sessions(store.findSessions(undefined, undefined, 0, MAX))
    expect([...forward].sort()).to.deep.equal(['a@1/9=cached-a1', 'a@2/9=cached-a2', 'a@3/9=stored-a3', 'b@1/9=stored-b', 'c@5/9=cached-c'])
    expect(sessions(store.backwardFindSessions(undefined, undefined, 0, MAX)).sort()).to.deep.equal([...forward].sort())
    expect(sessions(store.fetch(s('a'))).sort()).to.deep.equal(['a@1/9=cached-a1', 'a@2/9=cached-a2', 'a@3/9=stored-a3'])
    expect(sessions(store.findSessions(0, 9)).sort()).to.deep.equal([...forward].sort())
  })

  it('orders merged sessions by end, then key, as the segmented stores do', () => {
    const { store } = open()
    store.put(session('b', 0, 2), s('1'))
    store.put(session('a', 5, 7), s('2'))
    store.flush()
    store.put(session('a', 0, 2), s('3'))
    store.put(session('c', 1, 2), s('4'))
    store.put(session('b', 6, 8), s('5'))
    const forward = ['a@0/2=3', 'b@0/2=1', 'c@1/2=4', 'a@5/7=2', 'b@6/8=5']
    expect(sessions(store.findSessions(undefined, undefined, 0, MAX))).to.deep.equal(forward)
    expect(sessions(store.backwardFindSessions(undefined, undefined, 0, MAX))).to.deep.equal([...forward].reverse())
    expect(sessions(store.findSessions(s('a'), s('b'), 2, 5))).to.deep.equal(['a@0/2=3', 'b@0/2=1', 'a@5/7=2'])
    expect(sessions(store.findSessions(3, 7))).to.deep.equal(['a@5/7=2'])
    expect(sessions(store.backwardFindSessions(s('b'), 0, 6))).to.deep.equal(['b@6/8=5', 'b@0/2=1'])
  })

  it('hides sessions expired by the stream time it saw, cached or stored', () => {
    const { store, backend } = open({ retentionPeriod: 100 })
    store.put(session('a', 0, 10), s('old'))
    store.flush()
    store.put(session('b', 5, 10), s('cached-old'))
    store.put(session('c', 100, 110), s('new'))
    expect(rows(backend)).to.deep.equal(['a@0/10=old'])
    expect(store.fetchSession(s('a'), 0, 10)).to.equal(null)
    expect(store.fetchSession(s('b'), 5, 10)).to.equal(null)
    expect(sessions(store.fetch(undefined, undefined))).to.deep.equal(['c@100/110=new'])
    expect(sessions(store.findSessions(0, 200))).to.deep.equal(['c@100/110=new'])
    expect(sessions(store.backwardFetch(s('a')))).to.deep.equal([])
  })

  it('restored changelog records move its stream time', () => {
    const { store, context } = open({ retentionPeriod: 100 })
    context.restore('sessions', [{ key: SessionKeySchema.toBinary(s('x'), 450, 500), value: s('r') }])
    store.put(session('late', 390, 400), s('l'))
    expect(store.fetchSession(s('late'), 390, 400)).to.equal(null)
  })

  it('close() flushes, drops its cache and closes its open iterators', () => {
    const { store, backend, cache } = open()
    store.put(session('a', 0, 1), s('1'))
    const it = store.fetch(s('a'))
    store.close()
    expect(rows(backend)).to.deep.equal(['a@0/1=1'])
    expect(cache!.namedCache('0_0-sessions')).to.equal(undefined)
    expect(codeOf(() => it.next())).to.equal('STORE_NOT_OPEN')
    expect(
      codeOf(() => {
        store.put(session('a', 0, 1), s('2'))
      })
    ).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.fetchSession(s('a'), 0, 1))).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.findSessions(0, 1))).to.equal('STORE_NOT_OPEN')
    expect(
      codeOf(() => {
        store.remove(session('a', 0, 1))
      })
    ).to.equal('STORE_NOT_OPEN')
  })

  it('rejects a null key or session key with ILLEGAL_ARGUMENT', () => {
    const { store } = open()
    expect(
      codeOf(() => {
        store.put(null as never, s('x'))
      })
    ).to.equal('ILLEGAL_ARGUMENT')
    expect(
      codeOf(() => {
        store.put(new Windowed(null as never, new SessionWindow(0, 1)), s('x'))
      })
    ).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetchSession(null as never, 0, 1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.findSessions(null as never, 0, 1))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('writes straight through without a record cache', () => {
    const { store, backend } = open({ noCache: true })
    expect(store.setFlushListener(() => {}, false)).to.equal(false)
    store.put(session('a', 0, 1), s('1'))
    expect(rows(backend)).to.deep.equal(['a@0/1=1'])
    store.remove(session('a', 0, 1))
    expect(rows(backend)).to.deep.equal([])
  })
})

describe('SessionStoreBuilder with caching', () => {
  it('forwards flushed sessions to the metered flush listener as typed session keys and aggregates', () => {
    let backend: SimpleSessionBytesStore | undefined
    const supplier = {
      name: 'agg',
      metricsScope: 'test-session',
      retentionPeriod: 1000,
      segmentInterval: 1,
      get: () => (backend = new SimpleSessionBytesStore('agg'))
    }
    const store = new SessionStoreBuilder(supplier, stringSerde, stringSerde).withCachingEnabled().build() as MeteredSessionStore<
      string,
      string
    >
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    const forwarded: string[] = []
    expect(
      store.setFlushListener((key, newValue, oldValue, timestamp) => {
        forwarded.push(`${key.key}@${key.window.start}/${key.window.end}=${String(newValue)}<-${String(oldValue)}@${timestamp}`)
      }, false)
    ).to.equal(true)
    context.at(9)
    store.put(new Windowed('k', new SessionWindow(3, 9)), 'v')
    expect(backend!.rows).to.deep.equal([])
    store.flush()
    expect(forwarded).to.deep.equal(['k@3/9=v<-null@9'])
    const uncached = new SessionStoreBuilder(supplier, stringSerde, stringSerde).build() as MeteredSessionStore<string, string>
    uncached.init(new LayerTestContext(), uncached)
    expect(uncached.setFlushListener(() => {}, false)).to.equal(false)
  })
})
