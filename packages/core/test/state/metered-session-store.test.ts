import { expect } from 'chai'
import type { ConfigError } from '../../src/errors.js'
import type { KeyValueIterator } from '../../src/state/key-value-store.js'
import { MeteredSessionStore } from '../../src/state/metered-session-store.js'
import { SessionWindow, Windowed } from '../../src/state/windowed.js'
import { codeOf, errorOf } from './helpers/expect-code.js'
import { SimpleSessionBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { TestStateStoreContext } from './helpers/test-state-store-context.js'
import { intSerde, RecordingSerde, stringSerde } from './helpers/test-serdes.js'

const CHANGELOG = 'test-app-sessions-changelog'
const session = (key: string, start: number, end: number): Windowed<string> => new Windowed(key, new SessionWindow(start, end))
const entries = <V>(it: KeyValueIterator<Windowed<string>, V>): string[] =>
  [...it].map(kv => `${kv.key.key}@${kv.key.window.start}/${kv.key.window.end}=${String(kv.value)}`)

function open(
  context = new TestStateStoreContext(),
  serdes: { keySerde?: typeof stringSerde; valueSerde?: typeof intSerde } = { keySerde: stringSerde, valueSerde: intSerde }
) {
  const inner = new SimpleSessionBytesStore('sessions')
  const store = new MeteredSessionStore<string, number>({ inner, metricsScope: 'test-session', ...serdes })
  store.init(context, store)
  return { inner, store }
}

describe('MeteredSessionStore', () => {
  it('stores serialized keys with their session window, and serialized aggregates', () => {
    const { inner, store } = open()
    store.put(session('a', 1, 5), 3)
    expect(inner.rows.map(r => [r.key.toString(), r.start, r.end, r.value.readInt32BE(0)])).to.deep.equal([['a', 1, 5, 3]])
    expect(store.fetchSession('a', 1, 5)).to.equal(3)
    expect(store.fetchSession('a', 1, 4)).to.equal(null)
    store.put(session('a', 1, 5), null)
    expect(inner.rows).to.deep.equal([])
    store.put(session('a', 1, 5), 4)
    store.remove(session('a', 1, 5))
    expect(inner.rows).to.deep.equal([])
  })

  it('passes the changelog topic to the serdes', () => {
    const keys = new RecordingSerde(stringSerde)
    const values = new RecordingSerde(intSerde)
    const { store } = open(new TestStateStoreContext(), { keySerde: keys as never, valueSerde: values as never })
    store.put(session('a', 0, 0), 1)
    expect(entries(store.fetch('a'))).to.deep.equal(['a@0/0=1'])
    expect(keys.serializeTopics).to.deep.equal([CHANGELOG, CHANGELOG])
    expect(keys.deserializeTopics).to.deep.equal([CHANGELOG])
    expect(values.deserializeTopics).to.deep.equal([CHANGELOG])
  })

  it('routes each overload to the same overload of the inner store', () => {
    const { inner, store } = open()
    store.put(session('a', 0, 5), 1)
    store.put(session('b', 10, 15), 2)
    inner.calls.length = 0
    expect(entries(store.findSessions(0, 5))).to.deep.equal(['a@0/5=1'])
    expect(entries(store.findSessions('b', 0, 100))).to.deep.equal(['b@10/15=2'])
    expect(entries(store.findSessions('a', 'b', 6, 100))).to.deep.equal(['b@10/15=2'])
    expect(entries(store.backwardFindSessions('a', 0, 100))).to.deep.equal(['a@0/5=1'])
    expect(entries(store.backwardFindSessions(undefined, undefined, 0, 100))).to.deep.equal(['b@10/15=2', 'a@0/5=1'])
    expect(entries(store.fetch('a'))).to.deep.equal(['a@0/5=1'])
    expect(entries(store.fetch(undefined, undefined))).to.deep.equal(['a@0/5=1', 'b@10/15=2'])
    expect(entries(store.backwardFetch('b'))).to.deep.equal(['b@10/15=2'])
    expect(entries(store.backwardFetch('a', undefined))).to.deep.equal(['b@10/15=2', 'a@0/5=1'])
    expect(inner.calls).to.deep.equal([
      'findSessions/2',
      'findSessions/3',
      'findSessions/4',
      'backwardFindSessions/3',
      'backwardFindSessions/4',
      'fetch/1',
      'fetch/2',
      'backwardFetch/1',
      'backwardFetch/2'
    ])
  })

  it('rejects a null session key, key or window, and a null fetch key, with ILLEGAL_ARGUMENT', () => {
    const { store } = open()
    expect(codeOf(() => store.put(null as unknown as Windowed<string>, 1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.put(new Windowed(null as unknown as string, new SessionWindow(0, 0)), 1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.remove({ key: 'a' } as unknown as Windowed<string>))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetchSession(null as unknown as string, 0, 0))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.fetch(null as unknown as string))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.findSessions(undefined as unknown as string, 0, 1))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('throws STORE_NOT_OPEN before init', () => {
    const store = new MeteredSessionStore<string, number>({
      inner: new SimpleSessionBytesStore('s'),
      metricsScope: 's',
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    for (const call of [
      () => store.put(session('a', 0, 0), 1),
      () => store.remove(session('a', 0, 0)),
      () => store.fetchSession('a', 0, 0),
      () => store.fetch('a'),
      () => store.findSessions(0, 1)
    ]) {
      expect(codeOf(call)).to.equal('STORE_NOT_OPEN')
    }
  })

  it('falls back to the default serdes of the config, and names the missing one otherwise', () => {
    const { store } = open(new TestStateStoreContext({ defaultKeySerde: stringSerde, defaultValueSerde: intSerde }), {})
    store.put(session('a', 0, 0), 9)
    expect(store.fetchSession('a', 0, 0)).to.equal(9)
    expect((errorOf(() => open(new TestStateStoreContext({ defaultKeySerde: stringSerde }), {})) as ConfigError).key).to.equal(
      'defaultValueSerde'
    )
  })

  it('closes the inner iterator when its iterator is closed', () => {
    const { inner, store } = open()
    store.put(session('a', 0, 0), 1)
    const it = store.fetch('a')
    expect(it.peekNextKey()?.window.end).to.equal(0)
    expect(inner.openIterators.size).to.equal(1)
    it.close()
    expect(inner.openIterators.size).to.equal(0)
  })
})
