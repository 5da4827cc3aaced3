import { expect } from 'chai'
import { KeyValue } from '../../src/key-value.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { CachingKeyValueStore } from '../../src/state/caching-key-value-store.js'
import { ChangeLoggingKeyValueBytesStore } from '../../src/state/change-logging-key-value-bytes-store.js'
import type { KeyValueIterator } from '../../src/state/key-value-store.js'
import type { ProcessorRecordContext } from '../../src/runtime/record-context.js'
import { codeOf } from './helpers/expect-code.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const str = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'))
const pairs = (it: KeyValueIterator<Buffer, Buffer>): string[] => [...it].map(kv => `${kv.key.toString()}=${kv.value.toString()}`)
const RAW: { serialize: (topic: string, data: Buffer) => Buffer } = { serialize: (_t, d) => d }

interface Forwarded {
  key: string
  newValue: string | null
  oldValue: string | null
  timestamp: number
  offset: number
}

function open(options: { maxCacheSizeBytes?: number; logged?: boolean; noCache?: boolean } = {}) {
  const cache = options.noCache === true ? undefined : new ThreadCache({ maxCacheSizeBytes: options.maxCacheSizeBytes ?? 100_000 })
  const context = new LayerTestContext({ cache })
  const backend = new SimpleBytesStore('words')
  const logging = new ChangeLoggingKeyValueBytesStore(backend)
  const store = new CachingKeyValueStore(options.logged === false ? backend : logging)
  store.init(context, store)
  return { cache, context, backend, store }
}

function listen(store: CachingKeyValueStore, sendOldValues: boolean): Forwarded[] {
  const forwarded: Forwarded[] = []
  store.setFlushListener((key, newValue, oldValue, timestamp, rc: ProcessorRecordContext) => {
    forwarded.push({ key: key.toString(), newValue: str(newValue), oldValue: str(oldValue), timestamp, offset: rc.offset })
  }, sendOldValues)
  return forwarded
}

describe('CachingKeyValueStore', () => {
  it('writes to the cache only until flushed, and reads its own writes', () => {
    const { store, backend, context } = open()
    store.put(s('a'), s('1'))
    expect(str(store.get(s('a')))).to.equal('1')
    expect(backend.entries.size).to.equal(0)
    expect(context.changelog).to.deep.equal([])
    store.flush()
    expect(str(backend.get(s('a')))).to.equal('1')
    expect(context.changelog).to.have.length(1)
  })

  it('collapses updates of a key between flushes into one write below and one forward', () => {
    const { store, context } = open()
    const forwarded = listen(store, true)
    context.at(10)
    store.put(s('a'), s('1'))
    context.at(11)
    store.put(s('a'), s('2'))
    context.at(12)
    store.put(s('a'), s('3'))
    store.flush()
    expect(forwarded).to.deep.equal([{ key: 'a', newValue: '3', oldValue: null, timestamp: 12, offset: 3 }])
    expect(context.changelog).to.deep.equal([{ store: 'words', key: 'a', value: '3', timestamp: 12 }])
  })

  it("flushes in the order of the last write of each key, under each write's record context", () => {
    const { store, context } = open()
    const forwarded = listen(store, false)
    context.at(1)
    store.put(s('b'), s('1'))
    context.at(2)
    store.put(s('a'), s('2'))
    context.at(3)
    store.put(s('b'), s('3'))
    context.at(99)
    store.flush()
    expect(forwarded.map(f => [f.key, f.newValue, f.timestamp])).to.deep.equal([
      ['a', '2', 2],
      ['b', '3', 3]
    ])
    expect(context.changelog.map(c => [c.key, c.value, c.timestamp])).to.deep.equal([
      ['a', '2', 2],
      ['b', '3', 3]
    ])
  })

  it('forwards the old value read from the store below before the write, only when asked to', () => {
    const { store, context } = open()
    const withOld = listen(store, true)
    store.put(s('a'), s('1'))
    store.flush()
    context.at(5)
    store.put(s('a'), s('2'))
    store.flush()
    expect(withOld.map(f => [f.newValue, f.oldValue])).to.deep.equal([
      ['1', null],
      ['2', '1']
    ])
    const withoutOld = listen(store, false)
    store.put(s('a'), s('3'))
    store.flush()
    expect(withoutOld.map(f => [f.newValue, f.oldValue])).to.deep.equal([['3', null]])
  })

  it('forwards a delete of a stored key with its old value', () => {
    const { store, context } = open()
    const forwarded = listen(store, true)
    store.put(s('a'), s('1'))
    store.flush()
    context.at(7)
    expect(str(store.delete(s('a')))).to.equal('1')
    expect(store.get(s('a'))).to.equal(null)
    store.flush()
    expect(forwarded.map(f => [f.key, f.newValue, f.oldValue])).to.deep.equal([
      ['a', '1', null],
      ['a', null, '1']
    ])
    expect(context.changelog.map(c => [c.key, c.value, c.timestamp])).to.deep.equal([
      ['a', '1', 0],
      ['a', null, 7]
    ])
  })

  it('with a flush listener, a key created and deleted between flushes is neither written nor forwarded', () => {
    const { store, context, backend } = open()
    const forwarded = listen(store, true)
    store.put(s('a'), s('1'))
    store.delete(s('a'))
    store.flush()
    expect(forwarded).to.deep.equal([])
    expect(context.changelog).to.deep.equal([])
    expect(backend.entries.size).to.equal(0)
  })

  it('without a flush listener, a key created and deleted between flushes writes a delete below', () => {
    const { store, context } = open()
    store.put(s('a'), s('1'))
    store.put(s('a'), null)
    store.flush()
    expect(context.changelog.map(c => [c.key, c.value])).to.deep.equal([['a', null]])
  })

  it('flushes the whole cache when a dirty entry is evicted', () => {
    // Each entry takes 1 + 24 + 1 + 1 + 20 + 5 ('input') = 52 bytes: the fourth overflows 200.
    const { store, context, cache } = open({ maxCacheSizeBytes: 200 })
    const forwarded = listen(store, false)
    for (const k of ['a', 'b', 'c']) {
      context.at(k.charCodeAt(0))
      store.put(s(k), s(k))
    }
    expect(forwarded).to.deep.equal([])
    context.at(100)
    store.put(s('d'), s('d'))
    expect(forwarded.map(f => f.key)).to.deep.equal(['a', 'b', 'c', 'd'])
    expect(cache!.sizeBytes()).to.equal(3 * 52)
    expect(cache!.namedCache('0_0-words')!.lruKeys).to.deep.equal(['b', 'c', 'd'])
    expect(context.changelog.map(c => [c.key, c.timestamp])).to.deep.equal([
      ['a', 97],
      ['b', 98],
      ['c', 99],
      ['d', 100]
    ])
  })

  it('caches what it reads from the store below, clean', () => {
    const { store, backend, cache, context } = open()
    backend.put(s('a'), s('1'))
    expect(str(store.get(s('a')))).to.equal('1')
    backend.put(s('a'), s('changed-below'))
    expect(str(store.get(s('a')))).to.equal('1')
    expect(cache!.namedCache('0_0-words')!.dirtyKeys).to.deep.equal([])
    store.flush()
    expect(context.changelog).to.deep.equal([])
  })

  it('putIfAbsent and delete see the cache and the store below', () => {
    const { store, backend } = open()
    backend.put(s('below'), s('b'))
    expect(str(store.putIfAbsent(s('below'), s('x')))).to.equal('b')
    expect(store.putIfAbsent(s('new'), s('n'))).to.equal(null)
    expect(str(store.putIfAbsent(s('new'), s('x')))).to.equal('n')
    expect(str(store.delete(s('below')))).to.equal('b')
    expect(store.delete(s('nothing'))).to.equal(null)
    store.putAll([new KeyValue(s('p'), s('1')), new KeyValue(s('q'), s('2'))])
    store.flush()
    expect([...backend.entries.keys()].map(h => Buffer.from(h, 'hex').toString()).sort()).to.deep.equal(['new', 'p', 'q'])
  })

  it('merges cache and store in byte order, the cache winning and its deletes hiding store entries', () => {
    const { store, backend } = open()
    for (const k of ['a', 'c', 'e', 'g']) backend.put(s(k), s('store'))
    store.put(s('b'), s('cache'))
    store.put(s('c'), s('cache'))
    store.delete(s('e'))
    store.put(s('h'), s('cache'))
    store.delete(s('z'))
    expect(pairs(store.all())).to.deep.equal(['a=store', 'b=cache', 'c=cache', 'g=store', 'h=cache'])
    expect(pairs(store.reverseAll())).to.deep.equal(['h=cache', 'g=store', 'c=cache', 'b=cache', 'a=store'])
    expect(pairs(store.range(s('b'), s('g')))).to.deep.equal(['b=cache', 'c=cache', 'g=store'])
    expect(pairs(store.reverseRange(s('b'), s('g')))).to.deep.equal(['g=store', 'c=cache', 'b=cache'])
    expect(pairs(store.range(s('g'), s('b')))).to.deep.equal([])
  })

  it('keeps a cached delete hiding its store entry when store entries come before it, both directions', () => {
    const { store, backend } = open()
    for (const k of ['a', 'b', 'c']) backend.put(s(k), s('store'))
    store.delete(s('b'))
    store.delete(s('0'))
    store.delete(s('d'))
    expect(pairs(store.all())).to.deep.equal(['a=store', 'c=store'])
    expect(pairs(store.reverseAll())).to.deep.equal(['c=store', 'a=store'])
    const it = store.all()
    expect(it.peekNextKey()?.toString()).to.equal('a')
    it.next()
    expect(it.peekNextKey()?.toString()).to.equal('c')
    it.next()
    expect(it.peekNextKey()).to.equal(undefined)
    expect(it.next().done).to.equal(true)
    it.close()
    expect(codeOf(() => it.next())).to.equal('STORE_NOT_OPEN')
  })

  it('prefix-scans the cache and the store below together', () => {
    const { store, backend } = open()
    for (const k of ['ab', 'abc', 'b']) backend.put(s(k), s('store'))
    store.put(s('aa'), s('cache'))
    store.put(s('abc'), s('cache'))
    store.delete(s('ab'))
    store.put(s('a'), s('cache'))
    expect(pairs(store.prefixScan(s('ab'), RAW))).to.deep.equal(['abc=cache'])
    expect(pairs(store.prefixScan(s('a'), RAW))).to.deep.equal(['a=cache', 'aa=cache', 'abc=cache'])
  })

  it("closes its iterators' store side and counts only flushed entries", () => {
    const { store, backend } = open()
    store.put(s('a'), s('1'))
    expect(store.approximateNumEntries()).to.equal(0)
    const it = store.all()
    expect(backend.openIterators.size).to.equal(1)
    it.close()
    expect(backend.openIterators.size).to.equal(0)
    store.flush()
    expect(store.approximateNumEntries()).to.equal(1)
  })

  it('flushes on close, then drops its cache', () => {
    const { store, backend, cache, context } = open()
    store.put(s('a'), s('1'))
    store.close()
    expect(context.changelog.map(c => c.key)).to.deep.equal(['a'])
    expect(backend.isOpen()).to.equal(false)
    expect(cache!.namedCache('0_0-words')).to.equal(undefined)
    expect(cache!.sizeBytes()).to.equal(0)
    expect(codeOf(() => store.get(s('a')))).to.equal('STORE_NOT_OPEN')
    expect(
      codeOf(() => {
        store.put(s('a'), s('1'))
      })
    ).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.all())).to.equal('STORE_NOT_OPEN')
    store.close()
  })

  it('writes straight through when its context has no record cache, and says it cannot forward', () => {
    const { store, backend, context } = open({ noCache: true })
    expect(store.setFlushListener(() => {}, false)).to.equal(false)
    store.put(s('a'), s('1'))
    expect(str(backend.get(s('a')))).to.equal('1')
    expect(context.changelog).to.have.length(1)
    expect(pairs(store.all())).to.deep.equal(['a=1'])
    const cached = open()
    expect(cached.store.setFlushListener(() => {}, false)).to.equal(true)
  })
})
