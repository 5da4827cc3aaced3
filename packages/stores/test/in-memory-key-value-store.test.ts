import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import type { KeyValueIterator } from '@kstreams/core'
import { InMemoryKeyValueStore } from '../src/in-memory-key-value-store.js'
import { codeOf } from '../src/compliance/expect-code.js'
import { createTestStoreContext } from '../src/compliance/test-context.js'
import type { TestStoreContext } from '../src/compliance/test-context.js'
import { bytesSerializer } from '../src/compliance/key-value/fixtures.js'

const b = (...bytes: number[]): Buffer => Buffer.from(bytes)
const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const hex = (buf: Buffer | undefined): string | undefined => buf?.toString('hex')
const keysOf = (it: KeyValueIterator<Buffer, Buffer>): string[] => [...it].map(kv => kv.key.toString('hex'))

function openStore(name = 'store'): { store: InMemoryKeyValueStore; context: TestStoreContext } {
  const store = new InMemoryKeyValueStore(name)
  const context = createTestStoreContext()
  store.init(context, store)
  return { store, context }
}

describe('InMemoryKeyValueStore', () => {
  it('is not persistent and is open only between init and close', () => {
    const store = new InMemoryKeyValueStore('store')
    expect(store.persistent).to.equal(false)
    expect(store.name).to.equal('store')
    expect(store.isOpen()).to.equal(false)
    store.init(createTestStoreContext(), store)
    expect(store.isOpen()).to.equal(true)
    store.close()
    expect(store.isOpen()).to.equal(false)
    store.close()
    expect(store.isOpen()).to.equal(false)
  })

  it('gets, puts, deletes; put(k, null) deletes; putIfAbsent and delete return the old value', () => {
    const { store } = openStore()
    expect(store.get(s('a'))).to.equal(null)
    store.put(s('a'), s('1'))
    expect(hex(store.get(s('a')) ?? undefined)).to.equal(hex(s('1')))
    expect(store.putIfAbsent(s('a'), s('2'))?.toString()).to.equal('1')
    expect(store.get(s('a'))?.toString()).to.equal('1')
    expect(store.putIfAbsent(s('b'), s('2'))).to.equal(null)
    expect(store.get(s('b'))?.toString()).to.equal('2')
    store.put(s('a'), null)
    expect(store.get(s('a'))).to.equal(null)
    expect(store.delete(s('b'))?.toString()).to.equal('2')
    expect(store.delete(s('b'))).to.equal(null)
    expect(store.approximateNumEntries()).to.equal(0)
  })

  it('looks keys up by content, not by Buffer identity', () => {
    const { store } = openStore()
    store.put(b(1, 2, 3), s('v'))
    expect(store.get(b(1, 2, 3))?.toString()).to.equal('v')
    store.put(b(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), s('long'))
    expect(store.get(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))?.toString()).to.equal('long')
  })

  it('putAll writes in order and deletes null values', () => {
    const { store } = openStore()
    store.putAll([new KeyValue(s('a'), s('1')), new KeyValue(s('b'), s('2')), new KeyValue(s('a'), null), new KeyValue(s('c'), s('3'))])
    expect(keysOf(store.all())).to.deep.equal([hex(s('b')), hex(s('c'))])
    expect(store.approximateNumEntries()).to.equal(2)
  })

  it('orders keys by unsigned bytes, shorter prefix first', () => {
    const { store } = openStore()
    const keys = [b(0xff), b(0x80), b(0x7f), b(0x00), b(0x00, 0x00), b(), b(0x7f, 0xff), b(0x80, 0x00), b(0xff, 0xff, 0xff), b(0x01)]
    for (const k of keys) store.put(k, s('v'))
    const expected = [...keys].sort(Buffer.compare).map(k => k.toString('hex'))
    expect(expected[0]).to.equal('')
    expect(keysOf(store.all())).to.deep.equal(expected)
    expect(keysOf(store.reverseAll())).to.deep.equal([...expected].reverse())
  })

  it('range is inclusive on both ends; an undefined bound is open', () => {
    const { store } = openStore()
    for (const k of ['a', 'b', 'c', 'd', 'e']) store.put(s(k), s(k))
    const text = (it: KeyValueIterator<Buffer, Buffer>): string[] => [...it].map(kv => kv.key.toString())
    expect(text(store.range(s('b'), s('d')))).to.deep.equal(['b', 'c', 'd'])
    expect(text(store.range(s('bb'), s('dd')))).to.deep.equal(['c', 'd'])
    expect(text(store.range(undefined, s('b')))).to.deep.equal(['a', 'b'])
    expect(text(store.range(s('d'), undefined))).to.deep.equal(['d', 'e'])
    expect(text(store.range(undefined, undefined))).to.deep.equal(['a', 'b', 'c', 'd', 'e'])
    expect(text(store.reverseRange(s('b'), s('d')))).to.deep.equal(['d', 'c', 'b'])
    expect(text(store.reverseRange(undefined, s('b')))).to.deep.equal(['b', 'a'])
    expect(text(store.range(s('c'), s('c')))).to.deep.equal(['c'])
  })

  it('returns an empty iterator when from > to by bytes', () => {
    const { store } = openStore()
    for (const k of ['a', 'b', 'c']) store.put(s(k), s(k))
    expect(keysOf(store.range(s('c'), s('a')))).to.deep.equal([])
    expect(keysOf(store.reverseRange(s('c'), s('a')))).to.deep.equal([])
    // 0x80 sorts after 0x7f as unsigned bytes, although it is negative as a signed byte
    expect(keysOf(store.range(b(0x80), b(0x7f)))).to.deep.equal([])
  })

  it('prefixScan returns the keys that start with the prefix, including after 0xff bytes', () => {
    const { store } = openStore()
    const keys = [b(1), b(1, 0), b(1, 0xff), b(1, 0xff, 0), b(2), b(0xff), b(0xff, 0xff), b(0xff, 0xff, 1), b(0xfe, 0xff)]
    for (const k of keys) store.put(k, s('v'))
    expect(keysOf(store.prefixScan(b(1), bytesSerializer))).to.deep.equal(['01', '0100', '01ff', '01ff00'])
    expect(keysOf(store.prefixScan(b(1, 0xff), bytesSerializer))).to.deep.equal(['01ff', '01ff00'])
    expect(keysOf(store.prefixScan(b(0xff), bytesSerializer))).to.deep.equal(['ff', 'ffff', 'ffff01'])
    expect(keysOf(store.prefixScan(b(0xfe), bytesSerializer))).to.deep.equal(['feff'])
    expect(keysOf(store.prefixScan(b(3), bytesSerializer))).to.deep.equal([])
    expect(keysOf(store.prefixScan(b(), bytesSerializer))).to.have.length(keys.length)
  })

  it('passes the changelog topic to the prefix serializer', () => {
    const { store } = openStore('prefixes')
    const topics: string[] = []
    store
      .prefixScan(b(1), {
        serialize: (topic, data: Buffer | null) => {
          topics.push(topic)
          return data
        }
      })
      .close()
    expect(topics).to.deep.equal(['test-app-prefixes-changelog'])
  })

  describe('iterators', () => {
    it('iterate over the key set of when they were created and read values live', () => {
      const { store } = openStore()
      for (const k of ['a', 'b', 'c', 'd']) store.put(s(k), s('old'))
      const iterator = store.all()
      store.put(s('bb'), s('new key'))
      store.delete(s('c'))
      store.put(s('d'), s('new value'))
      const seen = [...iterator].map(kv => `${kv.key.toString()}=${kv.value.toString()}`)
      expect(seen).to.deep.equal(['a=old', 'b=old', 'd=new value'])
    })

    it('see a key deleted and put again while they run', () => {
      const { store } = openStore()
      for (const k of ['a', 'b']) store.put(s(k), s('1'))
      const iterator = store.reverseAll()
      store.delete(s('a'))
      store.put(s('a'), s('2'))
      expect([...iterator].map(kv => kv.value.toString())).to.deep.equal(['1', '2'])
    })

    it('peekNextKey does not consume, and skips keys deleted meanwhile', () => {
      const { store } = openStore()
      for (const k of ['a', 'b', 'c']) store.put(s(k), s(k))
      const iterator = store.range(undefined, undefined)
      expect(iterator.peekNextKey()?.toString()).to.equal('a')
      expect(iterator.peekNextKey()?.toString()).to.equal('a')
      expect(iterator.next().value?.key.toString()).to.equal('a')
      store.delete(s('b'))
      expect(iterator.peekNextKey()?.toString()).to.equal('c')
      store.delete(s('c'))
      expect(iterator.peekNextKey()).to.equal(undefined)
      expect(iterator.next().done).to.equal(true)
      expect(iterator.next().done).to.equal(true)
    })

    it('skip a peeked key that is deleted before next()', () => {
      const { store } = openStore()
      for (const k of ['a', 'b']) store.put(s(k), s(k))
      const iterator = store.all()
      expect(iterator.peekNextKey()?.toString()).to.equal('a')
      store.delete(s('a'))
      expect(iterator.next().value?.key.toString()).to.equal('b')
    })

    it('throw STORE_NOT_OPEN once closed; close is idempotent', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'))
      const iterator = store.all()
      iterator.close()
      iterator.close()
      expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => iterator.peekNextKey())).to.equal('STORE_NOT_OPEN')
    })

    it('close when a for...of loop breaks, and on dispose', () => {
      const { store } = openStore()
      for (const k of ['a', 'b']) store.put(s(k), s(k))
      const iterator = store.all()
      for (const kv of iterator) {
        expect(kv.key.toString()).to.equal('a')
        break
      }
      expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
      const disposed = store.all()
      disposed[Symbol.dispose]()
      expect(codeOf(() => disposed.next())).to.equal('STORE_NOT_OPEN')
    })

    it('are closed when the store closes, exhausted or not', () => {
      const { store } = openStore()
      for (const k of ['a', 'b']) store.put(s(k), s(k))
      const fresh = store.all()
      const started = store.range(s('a'), s('b'))
      started.next()
      const exhausted = store.all()
      expect([...exhausted]).to.have.length(2)
      store.close()
      for (const iterator of [fresh, started, exhausted]) {
        expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
        expect(codeOf(() => iterator.peekNextKey())).to.equal('STORE_NOT_OPEN')
      }
    })

    it('of a closed and reopened store stay unusable', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'))
      const iterator = store.all()
      store.close()
      store.init(createTestStoreContext(), store)
      store.put(s('a'), s('1'))
      expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
      expect(keysOf(store.all())).to.deep.equal([hex(s('a'))])
    })
  })

  describe('lifecycle', () => {
    const operations = (store: InMemoryKeyValueStore): Array<[string, () => unknown]> => [
      ['get', () => store.get(s('a'))],
      ['put', () => store.put(s('a'), s('1'))],
      ['putIfAbsent', () => store.putIfAbsent(s('a'), s('1'))],
      ['putAll', () => store.putAll([new KeyValue(s('a'), s('1'))])],
      ['delete', () => store.delete(s('a'))],
      ['range', () => store.range(s('a'), s('b'))],
      ['reverseRange', () => store.reverseRange(s('a'), s('b'))],
      ['all', () => store.all()],
      ['reverseAll', () => store.reverseAll()],
      ['prefixScan', () => store.prefixScan(s('a'), bytesSerializer)],
      ['approximateNumEntries', () => store.approximateNumEntries()]
    ]

    it('every operation throws STORE_NOT_OPEN before init', () => {
      const store = new InMemoryKeyValueStore('store')
      for (const [name, op] of operations(store)) expect(codeOf(op), name).to.equal('STORE_NOT_OPEN')
    })

    it('every operation throws STORE_NOT_OPEN after close, naming the store', () => {
      const { store } = openStore('closed-store')
      store.close()
      for (const [name, op] of operations(store)) expect(codeOf(op), name).to.equal('STORE_NOT_OPEN')
      expect(() => store.get(s('a'))).to.throw('closed-store')
    })

    it('reopens empty after close (an in-memory store is rebuilt from its changelog)', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'))
      store.close()
      const context = createTestStoreContext()
      store.init(context, store)
      expect(store.isOpen()).to.equal(true)
      expect(store.get(s('a'))).to.equal(null)
      expect(store.approximateNumEntries()).to.equal(0)
      expect(context.registered).to.have.length(1)
    })

    it('a second init while open (a recycled standby) keeps the data and open iterators and registers with the new context', () => {
      const { store } = openStore()
      store.put(s('a'), s('1'))
      store.put(s('b'), s('2'))
      const open = store.all()
      const context = createTestStoreContext()
      store.init(context, store)
      expect(store.isOpen()).to.equal(true)
      expect(context.registered.map(r => r.store)).to.deep.equal([store])
      context.restore('store', [{ key: s('c'), value: s('3') }])
      expect(keysOf(store.all())).to.deep.equal(['61', '62', '63'])
      expect(keysOf(open)).to.deep.equal(['61', '62'])
      store.close()
      expect(codeOf(() => store.get(s('b')))).to.equal('STORE_NOT_OPEN')
      store.init(createTestStoreContext(), store)
      expect(store.approximateNumEntries()).to.equal(0)
    })

    it('registers the root store with a callback that applies changelog records, null deleting', () => {
      const store = new InMemoryKeyValueStore('restored')
      const root = { name: 'restored' } as unknown as InMemoryKeyValueStore
      const context = createTestStoreContext()
      store.init(context, root)
      expect(context.registered).to.have.length(1)
      expect(context.registered[0]!.store).to.equal(root)
      context.restore('restored', [
        { key: s('a'), value: s('1') },
        { key: s('b'), value: s('2') },
        { key: s('a'), value: null },
        { key: s('c'), value: s('3') },
        { key: s('b'), value: s('22') }
      ])
      expect([...store.all()].map(kv => `${kv.key.toString()}=${kv.value.toString()}`)).to.deep.equal(['b=22', 'c=3'])
    })

    it('rejects an illegal name with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => new InMemoryKeyValueStore('../x'))).to.equal('ILLEGAL_ARGUMENT')
    })
  })
})
