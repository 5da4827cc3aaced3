import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { ConfigError } from '../../src/errors.js'
import type { KeyValue } from '../../src/key-value.js'
import { ValueAndTimestamp } from '../../src/state/key-value-store.js'
import type { KeyValueIterator } from '../../src/state/key-value-store.js'
import { MeteredTimestampedWindowStore } from '../../src/state/metered-timestamped-window-store.js'
import { MeteredWindowStore } from '../../src/state/metered-window-store.js'
import type { Windowed } from '../../src/state/windowed.js'
import { codeOf, errorOf } from './helpers/expect-code.js'
import { SimpleWindowBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { TestStateStoreContext } from './helpers/test-state-store-context.js'
import { intSerde, RecordingSerde, stringSerde } from './helpers/test-serdes.js'

const CHANGELOG = 'test-app-win-changelog'
const str = (s: string): Buffer => Buffer.from(s, 'utf8')
const windowed = <V>(it: KeyValueIterator<Windowed<string>, V>): string[] =>
  [...it].map(kv => `${kv.key.key}@${kv.key.window.start}/${kv.key.window.end}=${String(kv.value)}`)
const pairs = <K, V>(it: Iterable<KeyValue<K, V>>): Array<[K, V]> => [...it].map(kv => [kv.key, kv.value])

function open(
  context = new TestStateStoreContext(),
  serdes: { keySerde?: typeof stringSerde; valueSerde?: typeof intSerde } = { keySerde: stringSerde, valueSerde: intSerde }
) {
  const inner = new SimpleWindowBytesStore('win', 10)
  const store = new MeteredWindowStore<string, number>({ inner, metricsScope: 'test-window', windowSize: 10, ...serdes })
  store.init(context, store)
  return { inner, store, context }
}

describe('MeteredWindowStore', () => {
  it('stores serialized keys and values in the inner bytes store, by window start', () => {
    const { inner, store } = open()
    store.put('a', 1, 100)
    expect(inner.rows.map(r => [r.key.toString(), r.start, r.value.readInt32BE(0)])).to.deep.equal([['a', 100, 1]])
    expect(store.fetch('a', 100)).to.equal(1)
    expect(store.fetch('a', 101)).to.equal(null)
    store.put('a', null, 100)
    expect(inner.rows).to.deep.equal([])
  })

  it('passes the changelog topic to the serdes', () => {
    const keys = new RecordingSerde(stringSerde)
    const values = new RecordingSerde(intSerde)
    const { store } = open(new TestStateStoreContext(), { keySerde: keys as never, valueSerde: values as never })
    store.put('a', 1, 0)
    store.fetch('a', 0)
    expect(keys.serializeTopics).to.deep.equal([CHANGELOG, CHANGELOG])
    expect(values.serializeTopics).to.deep.equal([CHANGELOG])
    expect(values.deserializeTopics).to.deep.equal([CHANGELOG])
  })

  it('routes each fetch overload to the same overload of the inner store', () => {
    const { inner, store } = open()
    for (const [k, t, v] of [
      ['a', 0, 1],
      ['b', 10, 2],
      ['a', 20, 3]
    ] as const)
      store.put(k, v, t)
    inner.calls.length = 0
    expect(store.fetch('a', 20)).to.equal(3)
    expect(pairs(store.fetch('a', 0, 20))).to.deep.equal([
      [0, 1],
      [20, 3]
    ])
    expect(windowed(store.fetch('a', 'b', 0, 10))).to.deep.equal(['a@0/10=1', 'b@10/20=2'])
    expect(pairs(store.backwardFetch('a', 0, 20))).to.deep.equal([
      [20, 3],
      [0, 1]
    ])
    expect(windowed(store.backwardFetch('a', 'b', 0, 10))).to.deep.equal(['b@10/20=2', 'a@0/10=1'])
    expect(windowed(store.fetchAll(10, 20))).to.deep.equal(['b@10/20=2', 'a@20/30=3'])
    expect(windowed(store.backwardFetchAll(10, 20))).to.deep.equal(['a@20/30=3', 'b@10/20=2'])
    expect(windowed(store.all())).to.have.length(3)
    expect(windowed(store.backwardAll())[0]).to.equal('a@20/30=3')
    expect(inner.calls).to.deep.equal([
      'fetch/2',
      'fetch/3',
      'fetch/4',
      'backwardFetch/3',
      'backwardFetch/4',
      'fetchAll',
      'backwardFetchAll',
      'all',
      'backwardAll'
    ])
  })

  it('passes undefined and null key bounds to the inner store as open bounds', () => {
    const { inner, store } = open()
    store.put('a', 1, 0)
    store.put('b', 2, 0)
    expect(windowed(store.fetch(undefined, 'a', 0, 10))).to.deep.equal(['a@0/10=1'])
    expect(windowed(store.fetch(null as unknown as undefined, undefined, 0, 10))).to.deep.equal(['a@0/10=1', 'b@0/10=2'])
    expect(windowed(store.backwardFetch('b', undefined, 0, 10))).to.deep.equal(['b@0/10=2'])
    expect(inner.calls.filter(c => c.startsWith('fetch') || c.startsWith('backward'))).to.deep.equal([
      'fetch/4',
      'fetch/4',
      'backwardFetch/4'
    ])
  })

  it('deserializes iterator entries lazily; peekNextKey deserializes the key; close closes the inner iterator', () => {
    const values = new RecordingSerde(intSerde)
    const { inner, store } = open(new TestStateStoreContext(), { keySerde: stringSerde, valueSerde: values as never })
    store.put('a', 1, 0)
    store.put('a', 2, 10)
    const it = store.fetch(undefined, undefined, 0, 10)
    expect(values.deserializeCount).to.equal(0)
    expect(it.peekNextKey()?.key).to.equal('a')
    expect(it.next().value?.value).to.equal(1)
    expect(values.deserializeCount).to.equal(1)
    const times = store.fetch('a', 0, 10)
    expect(times.peekNextKey()).to.equal(0)
    expect(inner.openIterators.size).to.equal(2)
    it.close()
    times.close()
    expect(inner.openIterators.size).to.equal(0)
  })

  it('throws STORE_NOT_OPEN before init; the inner store throws it after close', () => {
    const store = new MeteredWindowStore<string, number>({
      inner: new SimpleWindowBytesStore('win', 10),
      metricsScope: 's',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    for (const call of [
      () => store.put('a', 1, 0),
      () => store.fetch('a', 0),
      () => store.fetch('a', 0, 1),
      () => store.fetchAll(0, 1),
      () => store.all(),
      () => store.backwardFetch('a', 0, 1)
    ]) {
      expect(codeOf(call)).to.equal('STORE_NOT_OPEN')
    }
    const { store: opened } = open()
    opened.close()
    expect(opened.isOpen()).to.equal(false)
    expect(codeOf(() => opened.fetch('a', 0))).to.equal('STORE_NOT_OPEN')
  })

  it('rejects a null key and a window start that is not an integer with ILLEGAL_ARGUMENT', () => {
    const { store } = open()
    expect(codeOf(() => store.put(null as unknown as string, 1, 0))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetch(null as unknown as string, 0))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetch(undefined as unknown as string, 0, 1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.put('a', 1, 1.5))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.put('a', 1, NaN))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('falls back to the default serdes of the config, and names the missing one otherwise', () => {
    const { store } = open(new TestStateStoreContext({ defaultKeySerde: stringSerde, defaultValueSerde: intSerde }), {})
    store.put('a', 7, 0)
    expect(store.fetch('a', 0)).to.equal(7)
    const err = errorOf(() => open(new TestStateStoreContext({ defaultKeySerde: stringSerde }), {}))
    expect(err).to.be.instanceOf(ConfigError)
    expect((err as ConfigError).key).to.equal('defaultValueSerde')
    expect((errorOf(() => open(new TestStateStoreContext(), { valueSerde: intSerde })) as ConfigError).key).to.equal('defaultKeySerde')
  })

  it('reports name, persistence, scope and window size of the store', () => {
    const { store } = open()
    expect([store.name, store.persistent, store.metricsScope, store.windowSize, store.isOpen()]).to.deep.equal([
      'win',
      false,
      'test-window',
      10,
      true
    ])
  })
})

interface GoldenCase {
  name: string
  timestamp: number
  string?: string
  int?: number
  hex: string
}
const golden = JSON.parse(readFileSync(new URL('./fixtures/value-and-timestamp.json', import.meta.url), 'utf8')) as { cases: GoldenCase[] }

describe('MeteredTimestampedWindowStore', () => {
  function openTimestamped(context = new TestStateStoreContext(), valueSerde: typeof stringSerde | undefined = stringSerde) {
    const inner = new SimpleWindowBytesStore('win', 10)
    const store = new MeteredTimestampedWindowStore<string, string>({
      inner,
      metricsScope: 's',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde
    })
    store.init(context, store)
    return { inner, store }
  }

  for (const c of golden.cases.filter(c => c.string !== undefined)) {
    it(`writes the value of ${c.name} in the timestamped-value layout (golden bytes)`, () => {
      const { inner, store } = openTimestamped()
      store.put('k', ValueAndTimestamp.make(c.string!, c.timestamp), 5)
      expect(inner.rows[0]?.value.toString('hex')).to.equal(c.hex)
      const read = store.fetch('k', 5)
      expect([read?.value, read?.timestamp]).to.deep.equal([c.string, c.timestamp])
    })
  }

  it('wraps the default value serde when none is given; a null ValueAndTimestamp deletes', () => {
    const { inner, store } = openTimestamped(new TestStateStoreContext({ defaultValueSerde: stringSerde }), undefined)
    store.put('k', ValueAndTimestamp.make('v', 1), 0)
    expect(inner.rows[0]?.value.toString('hex')).to.equal('0000000000000001' + str('v').toString('hex'))
    store.put('k', null, 0)
    expect(inner.rows).to.deep.equal([])
  })
})
