import { expect } from 'chai'
import type { ProcessorRecordContext } from '../../src/runtime/record-context.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { CachingWindowStore } from '../../src/state/caching-window-store.js'
import { ChangeLoggingWindowBytesStore } from '../../src/state/change-logging-window-bytes-store.js'
import type { KeyValueIterator } from '../../src/state/key-value-store.js'
import type { MeteredWindowStore } from '../../src/state/metered-window-store.js'
import { WindowKeySchema } from '../../src/state/window-key-schema.js'
import { WindowStoreBuilder } from '../../src/state/window-store-builder.js'
import type { WindowBytesStoreSupplier } from '../../src/state/window-store.js'
import type { Windowed } from '../../src/state/windowed.js'
import { codeOf } from './helpers/expect-code.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleWindowBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { stringSerde } from './helpers/test-serdes.js'

const WINDOW = 10
const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const str = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'))
const times = (it: KeyValueIterator<number, Buffer>): string[] => [...it].map(kv => `${kv.key}=${kv.value.toString()}`)
const windows = (it: KeyValueIterator<Windowed<Buffer>, Buffer>): string[] =>
  [...it].map(kv => `${kv.key.key.toString()}@${kv.key.window.start}=${kv.value.toString()}`)
const rows = (backend: SimpleWindowBytesStore): string[] =>
  backend.rows.map(r => `${r.key.toString()}@${r.start}=${r.value.toString()}`).sort()

interface Forwarded {
  key: string
  start: number
  seqnum: number
  newValue: string | null
  oldValue: string | null
  timestamp: number
  offset: number
}

function open(options: { maxCacheSizeBytes?: number; noCache?: boolean; retentionPeriod?: number } = {}) {
  const cache = options.noCache === true ? undefined : new ThreadCache({ maxCacheSizeBytes: options.maxCacheSizeBytes ?? 100_000 })
  const context = new LayerTestContext({ cache })
  const backend = new SimpleWindowBytesStore('windows', WINDOW)
  const store = new CachingWindowStore(new ChangeLoggingWindowBytesStore(backend, false), {
    windowSize: WINDOW,
    segmentInterval: 1,
    retentionPeriod: options.retentionPeriod ?? 1000
  })
  store.init(context, store)
  return { cache, context, backend, store }
}

function listen(store: CachingWindowStore, sendOldValues: boolean): Forwarded[] {
  const forwarded: Forwarded[] = []
  store.setFlushListener((key, newValue, oldValue, timestamp, rc: ProcessorRecordContext) => {
    forwarded.push({
      key: WindowKeySchema.extractStoreKeyBytes(key).toString(),
      start: WindowKeySchema.extractStoreTimestamp(key),
      seqnum: WindowKeySchema.extractStoreSequence(key),
      newValue: str(newValue),
      oldValue: str(oldValue),
      timestamp,
      offset: rc.offset
    })
  }, sendOldValues)
  return forwarded
}

/** The changelog as `key@start#seqnum=value/timestamp`. */
const changelog = (context: LayerTestContext): string[] =>
  context.rawChangelog.map(
    r =>
      `${WindowKeySchema.extractStoreKeyBytes(r.key).toString()}@${WindowKeySchema.extractStoreTimestamp(r.key)}#${WindowKeySchema.extractStoreSequence(r.key)}=${str(r.value)}/${r.timestamp}`
  )

describe('CachingWindowStore', () => {
  it('keeps puts in the cache until flushed, reading its own writes by every kind of read', () => {
    const { store, backend, context } = open()
    context.at(5)
    store.put(s('a'), s('1'), 0)
    store.put(s('b'), s('2'), 10)
    expect(str(store.fetch(s('a'), 0))).to.equal('1')
    expect(times(store.fetch(s('a'), 0, 100))).to.deep.equal(['0=1'])
    expect(windows(store.fetch(s('a'), s('b'), 0, 100))).to.deep.equal(['a@0=1', 'b@10=2'])
    expect(windows(store.fetchAll(10, 10))).to.deep.equal(['b@10=2'])
    expect(windows(store.all())).to.deep.equal(['a@0=1', 'b@10=2'])
    expect(windows(store.backwardAll())).to.deep.equal(['b@10=2', 'a@0=1'])
    expect(backend.rows).to.deep.equal([])
    expect(context.rawChangelog).to.deep.equal([])
    store.flush()
    expect(rows(backend)).to.deep.equal(['a@0=1', 'b@10=2'])
    expect(changelog(context)).to.deep.equal(['a@0#0=1/5', 'b@10#0=2/5'])
  })

  it("collapses the puts of a window between flushes into one write below and one forward, with the last write's context", () => {
    const { store, context } = open()
    const forwarded = listen(store, true)
    context.at(10)
    store.put(s('a'), s('1'), 0)
    context.at(11)
    store.put(s('a'), s('2'), 0)
    context.at(12)
    store.put(s('b'), s('x'), 0)
    context.at(13)
    store.put(s('a'), s('3'), 0)
    store.flush()
    expect(forwarded).to.deep.equal([
      { key: 'b', start: 0, seqnum: 0, newValue: 'x', oldValue: null, timestamp: 12, offset: 3 },
      { key: 'a', start: 0, seqnum: 0, newValue: '3', oldValue: null, timestamp: 13, offset: 4 }
    ])
    expect(changelog(context)).to.deep.equal(['b@0#0=x/12', 'a@0#0=3/13'])
    context.at(20)
    store.put(s('a'), s('4'), 0)
    store.flush()
    expect(forwarded[2]).to.deep.include({ key: 'a', newValue: '4', oldValue: '3', timestamp: 20 })
  })

  it('sends old values only when asked, and always reads them for deletes', () => {
    const { store, context } = open()
    const forwarded = listen(store, false)
    store.put(s('a'), s('1'), 0)
    store.flush()
    context.at(30)
    store.put(s('a'), s('2'), 0)
    store.put(s('b'), s('2'), 0)
    store.flush()
    store.put(s('b'), null, 0)
    store.flush()
    expect(forwarded.map(f => [f.key, f.newValue, f.oldValue])).to.deep.equal([
      ['a', '1', null],
      ['a', '2', null],
      ['b', '2', null],
      ['b', null, null]
    ])
  })

  it('a window put and deleted between flushes is neither written below nor forwarded; without a listener the delete goes below', () => {
    const listened = open()
    const forwarded = listen(listened.store, true)
    listened.store.put(s('a'), s('1'), 0)
    listened.store.put(s('a'), null, 0)
    listened.store.flush()
    expect(forwarded).to.deep.equal([])
    expect(listened.context.rawChangelog).to.deep.equal([])

    const plain = open()
    plain.store.put(s('a'), s('1'), 0)
    plain.store.put(s('a'), null, 0)
    plain.store.flush()
    expect(changelog(plain.context)).to.deep.equal(['a@0#0=null/0'])
  })

  it("merges cached and stored windows in the store's order: a cached write wins, a cached delete hides", () => {
    const { store, backend } = open()
    store.put(s('b'), s('stored-b'), 0)
    store.put(s('a'), s('stored-a'), 20)
    store.put(s('a'), s('stored-a0'), 0)
    store.put(s('c'), s('stored-c'), 10)
    store.flush()
    store.put(s('a'), s('cached-a'), 10)
    store.put(s('a'), s('new-a0'), 0)
    store.put(s('b'), null, 0)
    store.put(s('d'), s('cached-d'), 0)
    expect(rows(backend)).to.deep.equal(['a@0=stored-a0', 'a@20=stored-a', 'b@0=stored-b', 'c@10=stored-c'])
    const all = ['a@0=new-a0', 'd@0=cached-d', 'a@10=cached-a', 'c@10=stored-c', 'a@20=stored-a']
    expect(windows(store.all())).to.deep.equal(all)
    expect(windows(store.backwardAll())).to.deep.equal([...all].reverse())
    expect(windows(store.fetchAll(0, 10))).to.deep.equal(all.slice(0, 4))
    expect(windows(store.backwardFetchAll(10, 20))).to.deep.equal(['a@20=stored-a', 'c@10=stored-c', 'a@10=cached-a'])
    expect(windows(store.fetch(s('a'), s('c'), 0, 100))).to.deep.equal(['a@0=new-a0', 'a@10=cached-a', 'c@10=stored-c', 'a@20=stored-a'])
    expect(windows(store.backwardFetch(undefined, s('b'), 0, 100))).to.deep.equal(['a@20=stored-a', 'a@10=cached-a', 'a@0=new-a0'])
    expect(times(store.fetch(s('a'), 0, 20))).to.deep.equal(['0=new-a0', '10=cached-a', '20=stored-a'])
    expect(times(store.backwardFetch(s('a'), 5, 20))).to.deep.equal(['20=stored-a', '10=cached-a'])
    expect(times(store.fetch(s('b'), 0, 20))).to.deep.equal([])
    expect(str(store.fetch(s('b'), 0))).to.equal(null)
    expect(str(store.fetch(s('c'), 10))).to.equal('stored-c')
  })

  it('a key range excludes cached keys outside it, also keys that extend a bound', () => {
    const { store } = open()
    for (const key of ['a', 'ab', 'b', 'ba', 'c']) store.put(s(key), s(key), 0)
    expect(windows(store.fetch(s('ab'), s('b'), 0, 0))).to.deep.equal(['ab@0=ab', 'b@0=b'])
    expect(times(store.fetch(s('b'), 0, 0))).to.deep.equal(['0=b'])
    expect(windows(store.fetch(s('c'), s('a'), 0, 0))).to.deep.equal([])
  })

  it('peekNextKey shows the next window without consuming it', () => {
    const { store } = open()
    store.put(s('a'), s('1'), 0)
    store.flush()
    store.put(s('a'), s('2'), 10)
    const it = store.fetch(s('a'), 0, 10)
    expect(it.peekNextKey()).to.equal(0)
    expect(it.peekNextKey()).to.equal(0)
    expect(it.next().value?.key).to.equal(0)
    expect(it.peekNextKey()).to.equal(10)
    expect(str(it.next().value?.value ?? null)).to.equal('2')
    expect(it.peekNextKey()).to.equal(undefined)
    expect(it.next().done).to.equal(true)
    it.close()
  })

  it('hides windows expired by the stream time it saw, in the cache and in the store below alike', () => {
    const { store, backend } = open({ retentionPeriod: 100 })
    store.put(s('a'), s('old'), 10)
    store.flush()
    store.put(s('b'), s('cached-old'), 10)
    store.put(s('c'), s('new'), 110)
    // The store below has not seen stream time 110 yet: it still holds a@10.
    expect(rows(backend)).to.deep.equal(['a@10=old'])
    expect(store.fetch(s('a'), 10)).to.equal(null)
    expect(store.fetch(s('b'), 10)).to.equal(null)
    expect(times(store.fetch(s('a'), 0, 200))).to.deep.equal([])
    expect(windows(store.all())).to.deep.equal(['c@110=new'])
    expect(windows(store.fetchAll(0, 200))).to.deep.equal(['c@110=new'])
    expect(windows(store.backwardFetch(s('a'), s('z'), 0, 200))).to.deep.equal(['c@110=new'])
    store.put(s('d'), s('live'), 11)
    expect(str(store.fetch(s('d'), 11))).to.equal('live')
  })

  it('restored changelog records move its stream time', () => {
    const { store, context } = open({ retentionPeriod: 100 })
    context.restore('windows', [{ key: WindowKeySchema.toStoreKeyBinary(s('x'), 500, 0), value: s('r') }])
    store.put(s('late'), s('l'), 400)
    expect(store.fetch(s('late'), 400)).to.equal(null)
    store.put(s('live'), s('l'), 401)
    expect(str(store.fetch(s('live'), 401))).to.equal('l')
  })

  it('evicting a dirty window flushes every dirty window in write order', () => {
    const { store, backend, context } = open({ maxCacheSizeBytes: 200 })
    for (let i = 0; i < 6; i++) {
      context.at(i)
      store.put(s(`k${i}`), s(`v${i}`), i * 10)
    }
    expect(backend.rows.length).to.be.greaterThan(0)
    expect(changelog(context).slice(0, 2)).to.deep.equal(['k0@0#0=v0/0', 'k1@10#0=v1/1'])
    expect(windows(store.all())).to.deep.equal(['k0@0=v0', 'k1@10=v1', 'k2@20=v2', 'k3@30=v3', 'k4@40=v4', 'k5@50=v5'])
  })

  it('close() flushes, drops its cache and closes its open iterators; a closed store throws STORE_NOT_OPEN', () => {
    const { store, backend, cache } = open()
    store.put(s('a'), s('1'), 0)
    store.put(s('b'), s('1'), 0)
    const fresh = store.all()
    const started = store.fetch(s('a'), 0, 10)
    started.next()
    store.close()
    expect(rows(backend)).to.deep.equal(['a@0=1', 'b@0=1'])
    expect(cache!.namedCache('0_0-windows')).to.equal(undefined)
    for (const it of [fresh, started]) {
      expect(codeOf(() => it.next())).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => it.peekNextKey())).to.equal('STORE_NOT_OPEN')
    }
    expect(
      codeOf(() => {
        store.put(s('a'), s('2'), 0)
      })
    ).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.fetch(s('a'), 0))).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.all())).to.equal('STORE_NOT_OPEN')
    expect(
      codeOf(() => {
        store.flush()
      })
    ).to.equal('STORE_NOT_OPEN')
    expect(() => {
      store.close()
    }).to.not.throw()
  })

  it('rejects a null key with ILLEGAL_ARGUMENT', () => {
    const { store } = open()
    expect(
      codeOf(() => {
        store.put(null as never, s('x'), 0)
      })
    ).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetch(null as never, 0))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetch(null as never, 0, 10))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('writes straight through without a record cache, and says it cannot forward', () => {
    const { store, backend, context } = open({ noCache: true })
    expect(store.setFlushListener(() => {}, false)).to.equal(false)
    store.put(s('a'), s('1'), 0)
    expect(rows(backend)).to.deep.equal(['a@0=1'])
    expect(changelog(context)).to.deep.equal(['a@0#0=1/0'])
    expect(windows(store.all())).to.deep.equal(['a@0=1'])
  })
})

describe('WindowStoreBuilder with caching', () => {
  function supplier(retainDuplicates = false): WindowBytesStoreSupplier & { last?: SimpleWindowBytesStore } {
    return {
      name: 'counts',
      metricsScope: 'test-window',
      retentionPeriod: 1000,
      windowSize: WINDOW,
      segmentInterval: 1,
      retainDuplicates,
      get() {
        this.last = new SimpleWindowBytesStore('counts', WINDOW)
        return this.last
      }
    }
  }

  it('forwards flushed windows to the metered flush listener as typed windowed keys and values', () => {
    const sup = supplier()
    const store = new WindowStoreBuilder(sup, stringSerde, stringSerde).withCachingEnabled().build() as MeteredWindowStore<string, string>
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    const forwarded: string[] = []
    expect(
      store.setFlushListener((key, newValue, oldValue, timestamp) => {
        forwarded.push(`${key.key}@${key.window.start}/${key.window.end}=${String(newValue)}<-${String(oldValue)}@${timestamp}`)
      }, true)
    ).to.equal(true)
    context.at(7)
    store.put('a', 'x', 20)
    expect(sup.last!.rows).to.deep.equal([])
    store.flush()
    expect(forwarded).to.deep.equal(['a@20/30=x<-null@7'])
    expect(sup.last!.rows).to.have.length(1)
  })

  it('the metered store cannot forward without a caching layer', () => {
    const store = new WindowStoreBuilder(supplier(), stringSerde, stringSerde).build() as MeteredWindowStore<string, string>
    store.init(new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) }), store)
    expect(store.setFlushListener(() => {}, false)).to.equal(false)
  })

  it('never caches a store that retains duplicates, as Kafka', () => {
    const sup = supplier(true)
    const store = new WindowStoreBuilder(sup, stringSerde, stringSerde).withCachingEnabled().build() as MeteredWindowStore<string, string>
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    store.put('a', 'x', 0)
    expect(sup.last!.rows).to.have.length(1)
    expect(context.rawChangelog.map(r => WindowKeySchema.extractStoreSequence(r.key))).to.deep.equal([1])
    expect(store.setFlushListener(() => {}, false)).to.equal(false)
  })
})
