import { expect } from 'chai'
import type { KeyValue } from '../../../src/key-value.js'
import type { StateStore } from '../../../src/state/state-store.js'
import { ValueAndTimestamp } from '../../../src/state/key-value-store.js'
import { MeteredKeyValueStore } from '../../../src/state/metered-key-value-store.js'
import { MeteredTimestampedKeyValueStore } from '../../../src/state/metered-timestamped-key-value-store.js'
import { MeteredWindowStore } from '../../../src/state/metered-window-store.js'
import { MeteredTimestampedWindowStore } from '../../../src/state/metered-timestamped-window-store.js'
import { MeteredSessionStore } from '../../../src/state/metered-session-store.js'
import { SessionWindow, Windowed } from '../../../src/state/windowed.js'
import { QueryableStoreProvider, type LocalTaskStore, type QueryableThread } from '../../../src/runtime/iq/queryable-store-provider.js'
import { QueryableStoreTypes } from '../../../src/runtime/iq/queryable-store-types.js'
import { SimpleBytesStore } from '../../state/helpers/simple-bytes-store.js'
import { SimpleSessionBytesStore, SimpleWindowBytesStore } from '../../state/helpers/simple-windowed-bytes-stores.js'
import { TestStateStoreContext } from '../../state/helpers/test-state-store-context.js'
import { intSerde, stringSerde } from '../../state/helpers/test-serdes.js'
import { codeOf, errorOf } from '../../state/helpers/expect-code.js'

type TaskKind = 'running' | 'restoring' | 'standby'
interface FakeTask {
  partition: number
  kind: TaskKind
  store: StateStore
}

class FakeThread implements QueryableThread {
  state = 'RUNNING'
  tasks: FakeTask[] = []
  localStores(storeName: string, stale: boolean): LocalTaskStore[] {
    return this.tasks
      .filter(t => t.store.name === storeName && (stale || t.kind === 'running'))
      .map(t => ({ partition: t.partition, store: t.store }))
  }
}

function kvStore(entries: Record<string, number>): MeteredKeyValueStore<string, number> {
  const store = new MeteredKeyValueStore<string, number>({
    inner: new SimpleBytesStore('counts'),
    metricsScope: 'test',
    keySerde: stringSerde,
    valueSerde: intSerde
  })
  store.init(new TestStateStoreContext(), store)
  for (const [k, v] of Object.entries(entries)) store.put(k, v)
  return store
}

function setup(partitionCount = 3) {
  let clientState = 'RUNNING'
  const threads = [new FakeThread(), new FakeThread()]
  const provider = new QueryableStoreProvider({
    clientState: () => clientState,
    threads: () => threads,
    globalStores: new Map(),
    storeNames: new Set(['counts', 'ts', 'win', 'sessions']),
    partitionExists: (_name, p) => p >= 0 && p < partitionCount
  })
  return {
    provider,
    threads,
    setState: (s: string) => {
      clientState = s
    }
  }
}

const entries = <K, V>(it: Iterable<KeyValue<K, V>>): Array<[K, V]> => [...it].map(kv => [kv.key, kv.value])

describe('QueryableStoreProvider and the composite read-only views', () => {
  it('get() asks every local running store; a partition restricts the query to its store', () => {
    const { provider, threads } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore({ a: 1, c: 3 }) })
    threads[1]!.tasks.push({ partition: 2, kind: 'running', store: kvStore({ b: 2 }) })
    const view = provider.getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    expect(view.get('a')).to.equal(1)
    expect(view.get('b')).to.equal(2)
    expect(view.get('zz')).to.equal(null)
    const p2 = provider.getStore({
      storeName: 'counts',
      queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(),
      partition: 2
    })
    expect(p2.get('a')).to.equal(null)
    expect(p2.get('b')).to.equal(2)
  })

  it('range/all concatenate the partitions (ordered within each), reverse variants too; approximateNumEntries sums', () => {
    const { provider, threads } = setup()
    threads[1]!.tasks.push({ partition: 1, kind: 'running', store: kvStore({ b: 2, d: 4 }) })
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore({ a: 1, c: 3, e: 5 }) })
    const view = provider.getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    expect(entries(view.all())).to.deep.equal([
      ['a', 1],
      ['c', 3],
      ['e', 5],
      ['b', 2],
      ['d', 4]
    ])
    expect(entries(view.reverseAll())).to.deep.equal([
      ['e', 5],
      ['c', 3],
      ['a', 1],
      ['d', 4],
      ['b', 2]
    ])
    expect(entries(view.range('b', 'd'))).to.deep.equal([
      ['c', 3],
      ['b', 2],
      ['d', 4]
    ])
    expect(entries(view.reverseRange('b', 'd'))).to.deep.equal([
      ['c', 3],
      ['d', 4],
      ['b', 2]
    ])
    expect(view.approximateNumEntries()).to.equal(5)
    const it = view.all()
    expect(it.peekNextKey()).to.equal('a')
    it.close()
    expect(it.next().done).to.equal(true)
  })

  it('is read-only: the view has no write methods', () => {
    const { provider, threads } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore({ a: 1 }) })
    const view = provider.getStore({
      storeName: 'counts',
      queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>()
    }) as unknown as Record<string, unknown>
    for (const m of ['put', 'putIfAbsent', 'putAll', 'delete', 'flush', 'close', 'init']) expect(view[m], m).to.equal(undefined)
  })

  it('restoring and standby stores are read only with enableStaleStores', () => {
    const { provider, threads } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'restoring', store: kvStore({ a: 1 }) })
    threads[1]!.tasks.push({ partition: 1, kind: 'standby', store: kvStore({ b: 2 }) })
    threads[1]!.tasks.push({ partition: 2, kind: 'running', store: kvStore({ c: 3 }) })
    const fresh = provider.getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    expect(fresh.get('a')).to.equal(null)
    expect(fresh.get('b')).to.equal(null)
    expect(fresh.get('c')).to.equal(3)
    expect(
      errorOf(() =>
        provider
          .getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(), partition: 0 })
          .get('a')
      ).code
    ).to.equal('STATE_STORE_MIGRATED')
    const stale = provider.getStore({
      storeName: 'counts',
      queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(),
      enableStaleStores: true
    })
    expect([stale.get('a'), stale.get('b'), stale.get('c')]).to.deep.equal([1, 2, 3])
  })

  it('while the client or a thread rebalances a query throws the retriable STREAMS_REBALANCING, unless stale stores are enabled', () => {
    const { provider, threads, setState } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore({ a: 1 }) })
    const view = provider.getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    const stale = provider.getStore({
      storeName: 'counts',
      queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(),
      enableStaleStores: true
    })
    setState('REBALANCING')
    const err = errorOf(() => view.get('a'))
    expect(err.code).to.equal('STREAMS_REBALANCING')
    expect(err.retriable).to.equal(true)
    expect(stale.get('a')).to.equal(1)
    setState('RUNNING')
    threads[1]!.state = 'PARTITIONS_ASSIGNED'
    expect(codeOf(() => view.all())).to.equal('STREAMS_REBALANCING')
    threads[1]!.state = 'RUNNING'
    expect(view.get('a')).to.equal(1)
  })

  it('a store that moved away after the view was obtained throws STATE_STORE_MIGRATED (retriable); also when closed under an open query', () => {
    const { provider, threads } = setup()
    const store = kvStore({ a: 1, b: 2 })
    threads[0]!.tasks.push({ partition: 1, kind: 'running', store })
    const view = provider.getStore({
      storeName: 'counts',
      queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(),
      partition: 1
    })
    expect(view.get('a')).to.equal(1)
    store.close()
    expect(codeOf(() => view.get('a'))).to.equal('STATE_STORE_MIGRATED')
    threads[0]!.tasks = []
    const err = errorOf(() => view.get('a'))
    expect(err.code).to.equal('STATE_STORE_MIGRATED')
    expect(err.retriable).to.equal(true)
  })

  it('typed errors: STREAMS_NOT_STARTED, UNKNOWN_STATE_STORE, INVALID_STATE_STORE_PARTITION, a store type that does not match', () => {
    const { provider, threads, setState } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore({ a: 1 }) })
    const kv = QueryableStoreTypes.keyValueStore<string, number>()
    setState('CREATED')
    expect(codeOf(() => provider.getStore({ storeName: 'counts', queryableStoreType: kv }))).to.equal('STREAMS_NOT_STARTED')
    setState('RUNNING')
    expect(codeOf(() => provider.getStore({ storeName: 'nope', queryableStoreType: kv }))).to.equal('UNKNOWN_STATE_STORE')
    const err = errorOf(() => provider.getStore({ storeName: 'counts', queryableStoreType: kv, partition: 7 }).get('a'))
    expect(err.code).to.equal('INVALID_STATE_STORE_PARTITION')
    expect(err.retriable).to.equal(false)
    expect(
      codeOf(() =>
        provider.getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() }).fetchAll(0, 10)
      )
    ).to.equal('ILLEGAL_ARGUMENT')
    expect(
      codeOf(() =>
        provider
          .getStore({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.timestampedKeyValueStore<string, number>() })
          .get('a')
      )
    ).to.equal('ILLEGAL_ARGUMENT')
    setState('NOT_RUNNING')
    expect(codeOf(() => provider.getStore({ storeName: 'counts', queryableStoreType: kv }))).to.equal('NOT_RUNNING')
  })

  it('a timestamped store: keyValueStore() shows plain values, timestampedKeyValueStore() ValueAndTimestamp', () => {
    const { provider, threads } = setup()
    const store = new MeteredTimestampedKeyValueStore<string, number>({
      inner: new SimpleBytesStore('ts'),
      metricsScope: 'test',
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    store.init(new TestStateStoreContext(), store)
    store.put('a', ValueAndTimestamp.make(7, 100))
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store })
    const plain = provider.getStore({ storeName: 'ts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
    expect(plain.get('a')).to.equal(7)
    expect(entries(plain.all())).to.deep.equal([['a', 7]])
    const ts = provider.getStore({ storeName: 'ts', queryableStoreType: QueryableStoreTypes.timestampedKeyValueStore<string, number>() })
    expect(ts.get('a')?.timestamp).to.equal(100)
  })

  it("window views: single-key fetches find the key's partition, ranges concatenate", () => {
    const { provider, threads } = setup()
    const win = (rows: Array<[string, number, number]>): StateStore => {
      const store = new MeteredWindowStore<string, number>({
        inner: new SimpleWindowBytesStore('win', 10),
        metricsScope: 'w',
        windowSize: 10,
        keySerde: stringSerde,
        valueSerde: intSerde
      })
      store.init(new TestStateStoreContext(), store)
      for (const [k, v, t] of rows) store.put(k, v, t)
      return store
    }
    threads[0]!.tasks.push({
      partition: 0,
      kind: 'running',
      store: win([
        ['a', 1, 0],
        ['a', 2, 10]
      ])
    })
    threads[1]!.tasks.push({ partition: 1, kind: 'running', store: win([['b', 3, 0]]) })
    const view = provider.getStore({ storeName: 'win', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() })
    expect(view.fetch('b', 0)).to.equal(3)
    expect(entries(view.fetch('a', 0, 100))).to.deep.equal([
      [0, 1],
      [10, 2]
    ])
    expect(entries(view.backwardFetch('b', 0, 100))).to.deep.equal([[0, 3]])
    expect(entries(view.fetch('zz', 0, 100))).to.deep.equal([])
    expect([...view.fetchAll(0, 100)].map(kv => `${kv.key.key}@${kv.key.window.start}=${kv.value}`)).to.deep.equal([
      'a@0=1',
      'a@10=2',
      'b@0=3'
    ])
    expect([...view.all()].length).to.equal(3)
  })

  it('a timestamped window store: windowStore() shows plain values, timestampedWindowStore() ValueAndTimestamp', () => {
    const { provider, threads } = setup()
    const store = new MeteredTimestampedWindowStore<string, number>({
      inner: new SimpleWindowBytesStore('win', 10),
      metricsScope: 'w',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    store.init(new TestStateStoreContext(), store)
    store.put('a', ValueAndTimestamp.make(4, 55), 0)
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store })
    const plain = provider.getStore({ storeName: 'win', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() })
    expect(plain.fetch('a', 0)).to.equal(4)
    expect(entries(plain.fetch('a', 0, 10))).to.deep.equal([[0, 4]])
    expect([...plain.fetchAll(0, 10)].map(kv => kv.value)).to.deep.equal([4])
    const ts = provider.getStore({ storeName: 'win', queryableStoreType: QueryableStoreTypes.timestampedWindowStore<string, number>() })
    expect(ts.fetch('a', 0)?.timestamp).to.equal(55)
  })

  it("session views: fetch(key) and fetchSession find the key's partition, ranges concatenate", () => {
    const { provider, threads } = setup()
    const sessions = (rows: Array<[string, number, number, number]>): StateStore => {
      const store = new MeteredSessionStore<string, number>({
        inner: new SimpleSessionBytesStore('sessions'),
        metricsScope: 's',
        keySerde: stringSerde,
        valueSerde: intSerde
      })
      store.init(new TestStateStoreContext(), store)
      for (const [k, s, e, v] of rows) store.put(new Windowed(k, new SessionWindow(s, e)), v)
      return store
    }
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: sessions([['a', 0, 5, 1]]) })
    threads[1]!.tasks.push({
      partition: 1,
      kind: 'running',
      store: sessions([
        ['b', 10, 20, 2],
        ['c', 3, 4, 9]
      ])
    })
    const view = provider.getStore({ storeName: 'sessions', queryableStoreType: QueryableStoreTypes.sessionStore<string, number>() })
    expect([...view.fetch('b')].map(kv => kv.value)).to.deep.equal([2])
    expect(view.fetchSession('a', 0, 5)).to.equal(1)
    expect(view.fetchSession('a', 0, 6)).to.equal(null)
    expect([...view.fetch('a', 'c')].map(kv => kv.key.key)).to.deep.equal(['a', 'c', 'b'])
    expect([...view.findSessions('b', 0, 100)].map(kv => kv.value)).to.deep.equal([2])
  })
})
