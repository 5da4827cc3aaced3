import { expect } from 'chai'
import type { KeyValue } from '../../../src/key-value.js'
import type { StateStore } from '../../../src/state/state-store.js'
import { StreamsError } from '../../../src/errors.js'
import { ValueAndTimestamp } from '../../../src/state/key-value-store.js'
import { MeteredKeyValueStore } from '../../../src/state/metered-key-value-store.js'
import { MeteredTimestampedKeyValueStore } from '../../../src/state/metered-timestamped-key-value-store.js'
import { MeteredTimestampedWindowStore } from '../../../src/state/metered-timestamped-window-store.js'
import { MeteredWindowStore } from '../../../src/state/metered-window-store.js'
import { MeteredSessionStore } from '../../../src/state/metered-session-store.js'
import { SessionWindow, Windowed } from '../../../src/state/windowed.js'
import type { LocalTaskStore, QueryableThread } from '../../../src/runtime/iq/queryable-store-provider.js'
import { runStateQuery, type StateQueryRunnerOptions } from '../../../src/runtime/iq/v2/state-query-runner.js'
import { StateQueryRequest } from '../../../src/runtime/iq/v2/state-query-request.js'
import { StateQueryResult } from '../../../src/runtime/iq/v2/state-query-result.js'
import { QueryResult } from '../../../src/runtime/iq/v2/query-result.js'
import { KeyQuery } from '../../../src/runtime/iq/v2/key-query.js'
import { TimestampedKeyQuery } from '../../../src/runtime/iq/v2/timestamped-key-query.js'
import { RangeQuery } from '../../../src/runtime/iq/v2/range-query.js'
import { TimestampedRangeQuery } from '../../../src/runtime/iq/v2/timestamped-range-query.js'
import { WindowKeyQuery } from '../../../src/runtime/iq/v2/window-key-query.js'
import { WindowRangeQuery } from '../../../src/runtime/iq/v2/window-range-query.js'
import type { Query } from '../../../src/runtime/iq/v2/query.js'
import { SimpleBytesStore } from '../../state/helpers/simple-bytes-store.js'
import { SimpleSessionBytesStore, SimpleWindowBytesStore } from '../../state/helpers/simple-windowed-bytes-stores.js'
import { TestStateStoreContext } from '../../state/helpers/test-state-store-context.js'
import { intSerde, stringSerde } from '../../state/helpers/test-serdes.js'
import { codeOf } from '../../state/helpers/expect-code.js'

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

function kvStore(name: string, entries: Record<string, number>): MeteredKeyValueStore<string, number> {
  const store = new MeteredKeyValueStore<string, number>({
    inner: new SimpleBytesStore(name),
    metricsScope: 'test',
    keySerde: stringSerde,
    valueSerde: intSerde
  })
  store.init(new TestStateStoreContext(), store)
  for (const [k, v] of Object.entries(entries)) store.put(k, v)
  return store
}

function tsStore(name: string, entries: Record<string, [number, number]>): MeteredTimestampedKeyValueStore<string, number> {
  const store = new MeteredTimestampedKeyValueStore<string, number>({
    inner: new SimpleBytesStore(name),
    metricsScope: 'test',
    keySerde: stringSerde,
    valueSerde: intSerde
  })
  store.init(new TestStateStoreContext(), store)
  for (const [k, [v, t]] of Object.entries(entries)) store.put(k, ValueAndTimestamp.make(v, t))
  return store
}

function setup(partitionCount = 4) {
  const threads = [new FakeThread(), new FakeThread()]
  const globals = new Map<string, StateStore>()
  let clientState = 'RUNNING'
  const run = <R>(request: StateQueryRequest<R>): StateQueryResult<R> => {
    const options: StateQueryRunnerOptions = {
      clientState,
      threads,
      globalStores: globals,
      storeNames: new Set(['counts', 'ts', 'win', 'tswin', 'sessions', 'global']),
      partitionExists: (_name, p) => p >= 0 && p < partitionCount
    }
    return runStateQuery(request, options)
  }
  return {
    threads,
    globals,
    run,
    setState: (s: string) => {
      clientState = s
    }
  }
}

const entries = <K, V>(it: Iterable<KeyValue<K, V>>): Array<[K, V]> => [...it].map(kv => [kv.key, kv.value])
const request = <R>(store: string, q: Query<R>): StateQueryRequest<R> => StateQueryRequest.inStore(store).withQuery(q)

describe('KafkaStreams.query() (IQv2) over local tasks', () => {
  it('KeyQuery: the one partition holding the key answers its value, others answer null; onlyPartitionResult picks it', () => {
    const { threads, run } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1 }) })
    threads[1]!.tasks.push({ partition: 1, kind: 'running', store: kvStore('counts', { b: 2 }) })
    const result = run(request('counts', KeyQuery.withKey<string, number>('b')))
    expect([...result.partitionResults.keys()].sort()).to.deep.equal([0, 1])
    expect(result.partitionResults.get(0)!.getResult()).to.equal(null)
    expect(result.partitionResults.get(1)!.result).to.equal(2)
    expect(result.onlyPartitionResult()!.getResult()).to.equal(2)
    expect(result.globalResult).to.equal(undefined)
    const missing = run(request('counts', KeyQuery.withKey<string, number>('zz')))
    expect(missing.onlyPartitionResult()).to.equal(undefined)
  })

  it('KeyQuery and RangeQuery on a timestamped store answer plain values; the Timestamped queries keep timestamps', () => {
    const { threads, run } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: tsStore('ts', { a: [1, 10], b: [2, 20], c: [3, 30] }) })
    expect(run(request('ts', KeyQuery.withKey<string, number>('b'))).onlyPartitionResult()!.result).to.equal(2)
    const vt = run(request('ts', TimestampedKeyQuery.withKey<string, number>('b'))).onlyPartitionResult()!.result!
    expect([vt.value, vt.timestamp]).to.deep.equal([2, 20])
    expect(entries(run(request('ts', RangeQuery.withRange<string, number>('b', 'c'))).partitionResults.get(0)!.result)).to.deep.equal([
      ['b', 2],
      ['c', 3]
    ])
    const tsRange = entries(run(request('ts', TimestampedRangeQuery.withLowerBound<string, number>('b'))).partitionResults.get(0)!.result)
    expect(tsRange.map(([k, v]) => [k, v.value, v.timestamp])).to.deep.equal([
      ['b', 2, 20],
      ['c', 3, 30]
    ])
  })

  it('RangeQuery bounds: withRange, withLowerBound, withUpperBound, withNoBounds, descending; on every partition', () => {
    const { threads, run } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1, c: 3 }) })
    threads[1]!.tasks.push({ partition: 2, kind: 'running', store: kvStore('counts', { b: 2, d: 4 }) })
    const all = (q: RangeQuery<string, number>): Record<number, Array<[string, number]>> => {
      const out: Record<number, Array<[string, number]>> = {}
      for (const [p, r] of run(request('counts', q)).partitionResults) out[p] = entries(r.getResult())
      return out
    }
    expect(all(RangeQuery.withRange('b', 'c'))).to.deep.equal({ 0: [['c', 3]], 2: [['b', 2]] })
    expect(all(RangeQuery.withLowerBound('c'))).to.deep.equal({ 0: [['c', 3]], 2: [['d', 4]] })
    expect(all(RangeQuery.withUpperBound('b'))).to.deep.equal({ 0: [['a', 1]], 2: [['b', 2]] })
    expect(all(RangeQuery.withNoBounds())).to.deep.equal({
      0: [
        ['a', 1],
        ['c', 3]
      ],
      2: [
        ['b', 2],
        ['d', 4]
      ]
    })
    expect(all(RangeQuery.withNoBounds<string, number>().withDescendingKeys())).to.deep.equal({
      0: [
        ['c', 3],
        ['a', 1]
      ],
      2: [
        ['d', 4],
        ['b', 2]
      ]
    })
    expect(all(RangeQuery.withRange<string, number>(null, 'a'))).to.deep.equal({ 0: [['a', 1]], 2: [] })
  })

  it('withPartitions: a partition without a local task is NOT_PRESENT, one the store does not have is DOES_NOT_EXIST', () => {
    const { threads, run } = setup(4)
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1 }) })
    threads[0]!.tasks.push({ partition: 1, kind: 'running', store: kvStore('counts', { b: 2 }) })
    const result = run(request('counts', KeyQuery.withKey<string, number>('a')).withPartitions([0, 3, 9]))
    expect([...result.partitionResults.keys()].sort()).to.deep.equal([0, 3, 9])
    expect(result.partitionResults.get(0)!.result).to.equal(1)
    expect(result.partitionResults.get(3)!.getFailureReason()).to.equal('NOT_PRESENT')
    expect(result.partitionResults.get(9)!.getFailureReason()).to.equal('DOES_NOT_EXIST')
    expect(result.partitionResults.get(3)!.isFailure()).to.equal(true)
    expect(codeOf(() => result.partitionResults.get(3)!.getResult())).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => result.partitionResults.get(0)!.getFailureReason())).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => result.partitionResults.get(0)!.getFailureMessage())).to.equal('ILLEGAL_ARGUMENT')
    const all = run(request('counts', KeyQuery.withKey<string, number>('a')).withPartitions([0]).withAllPartitions())
    expect([...all.partitionResults.keys()].sort()).to.deep.equal([0, 1])
  })

  it('standby and restoring copies answer unless requireActive(), then NOT_ACTIVE; a non-RUNNING thread is NOT_ACTIVE too', () => {
    const { threads, run } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1 }) })
    threads[0]!.tasks.push({ partition: 1, kind: 'standby', store: kvStore('counts', { b: 2 }) })
    threads[1]!.tasks.push({ partition: 2, kind: 'restoring', store: kvStore('counts', { c: 3 }) })
    const stale = run(request('counts', RangeQuery.withNoBounds<string, number>()))
    expect([0, 1, 2].map(p => entries(stale.partitionResults.get(p)!.result))).to.deep.equal([[['a', 1]], [['b', 2]], [['c', 3]]])
    const active = run(request('counts', RangeQuery.withNoBounds<string, number>()).requireActive())
    expect(active.partitionResults.get(0)!.isSuccess()).to.equal(true)
    expect(active.partitionResults.get(1)!.getFailureReason()).to.equal('NOT_ACTIVE')
    expect(active.partitionResults.get(2)!.getFailureReason()).to.equal('NOT_ACTIVE')
    threads[0]!.state = 'PARTITIONS_ASSIGNED'
    const rebalancing = run(request('counts', KeyQuery.withKey<string, number>('a')).requireActive().withPartitions([0]))
    expect(rebalancing.partitionResults.get(0)!.getFailureReason()).to.equal('NOT_ACTIVE')
    threads[0]!.state = 'DEAD'
    expect(
      run(request('counts', KeyQuery.withKey<string, number>('a')).withPartitions([0]))
        .partitionResults.get(0)!
        .getFailureReason()
    ).to.equal('NOT_PRESENT')
  })

  it('a query the store kind does not know answers UNKNOWN_QUERY_TYPE', () => {
    const { threads, run } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1 }) })
    const win = new MeteredWindowStore<string, number>({
      inner: new SimpleWindowBytesStore('win', 10),
      metricsScope: 'w',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    win.init(new TestStateStoreContext(), win)
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: win })
    const reason = <R>(store: string, q: Query<R>): string => run(request(store, q)).partitionResults.get(0)!.getFailureReason()
    expect(reason('counts', WindowKeyQuery.withKeyAndWindowStartRange<string, number>('a', 0, 10))).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('counts', WindowRangeQuery.withKey<string, number>('a'))).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('counts', TimestampedKeyQuery.withKey<string, number>('a'))).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('counts', TimestampedRangeQuery.withNoBounds<string, number>())).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('win', KeyQuery.withKey<string, number>('a'))).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('win', RangeQuery.withNoBounds<string, number>())).to.equal('UNKNOWN_QUERY_TYPE')
    expect(reason('win', WindowRangeQuery.withKey<string, number>('a'))).to.equal('UNKNOWN_QUERY_TYPE')
    const custom: Query<string> = {}
    expect(reason('counts', custom)).to.equal('UNKNOWN_QUERY_TYPE')
  })

  it('window stores: WindowKeyQuery by window-start range (timestamped: ValueAndTimestamp), WindowRangeQuery.withWindowStartRange', () => {
    const { threads, run } = setup()
    const win = new MeteredWindowStore<string, number>({
      inner: new SimpleWindowBytesStore('win', 10),
      metricsScope: 'w',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    win.init(new TestStateStoreContext(), win)
    for (const [k, v, t] of [
      ['a', 1, 0],
      ['a', 2, 10],
      ['a', 3, 20],
      ['b', 4, 10]
    ] as const)
      win.put(k, v, t)
    const tsWin = new MeteredTimestampedWindowStore<string, number>({
      inner: new SimpleWindowBytesStore('tswin', 10),
      metricsScope: 'w',
      windowSize: 10,
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    tsWin.init(new TestStateStoreContext(), tsWin)
    tsWin.put('a', ValueAndTimestamp.make(7, 15), 10)
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: win }, { partition: 0, kind: 'running', store: tsWin })
    const byKey = run(request('win', WindowKeyQuery.withKeyAndWindowStartRange<string, number>('a', 10, 20))).partitionResults.get(
      0
    )!.result
    expect(entries(byKey)).to.deep.equal([
      [10, 2],
      [20, 3]
    ])
    expect(
      entries(run(request('win', WindowKeyQuery.withKeyAndWindowStartRange<string, number>('a', 9, 9))).partitionResults.get(0)!.result)
    ).to.deep.equal([])
    const byTime = run(
      request('win', WindowRangeQuery.withWindowStartRange<string, number>(new Date(10), new Date(10)))
    ).partitionResults.get(0)!.result
    expect(entries(byTime).map(([w, v]) => [w.key, w.window.start, w.window.end, v])).to.deep.equal([
      ['a', 10, 20, 2],
      ['b', 10, 20, 4]
    ])
    const ts = entries(
      run(request('tswin', WindowKeyQuery.withKeyAndWindowStartRange<string, ValueAndTimestamp<number>>('a', 0, 100))).partitionResults.get(
        0
      )!.result
    )
    expect(ts.map(([start, vt]) => [start, vt.value, vt.timestamp])).to.deep.equal([[10, 7, 15]])
  })

  it('session stores: WindowRangeQuery.withKey lists the sessions of the key; withWindowStartRange is UNKNOWN_QUERY_TYPE', () => {
    const { threads, run } = setup()
    const sessions = new MeteredSessionStore<string, number>({
      inner: new SimpleSessionBytesStore('sessions'),
      metricsScope: 's',
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    sessions.init(new TestStateStoreContext(), sessions)
    sessions.put(new Windowed('a', new SessionWindow(0, 5)), 2)
    sessions.put(new Windowed('a', new SessionWindow(20, 30)), 3)
    sessions.put(new Windowed('b', new SessionWindow(1, 1)), 1)
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: sessions })
    const found = entries(run(request('sessions', WindowRangeQuery.withKey<string, number>('a'))).partitionResults.get(0)!.result)
    expect(found.map(([w, v]) => [w.key, w.window.start, w.window.end, v])).to.deep.equal([
      ['a', 0, 5, 2],
      ['a', 20, 30, 3]
    ])
    expect(
      run(request('sessions', WindowRangeQuery.withWindowStartRange<string, number>(0, 100)))
        .partitionResults.get(0)!
        .getFailureReason()
    ).to.equal('UNKNOWN_QUERY_TYPE')
    expect(
      run(request('sessions', WindowKeyQuery.withKeyAndWindowStartRange<string, number>('a', 0, 100)))
        .partitionResults.get(0)!
        .getFailureReason()
    ).to.equal('UNKNOWN_QUERY_TYPE')
  })

  it('a store that throws answers STORE_EXCEPTION; execution info is collected only when enabled', () => {
    const { threads, run } = setup()
    const store = kvStore('counts', { a: 1 })
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store })
    const plain = run(request('counts', KeyQuery.withKey<string, number>('a'))).partitionResults.get(0)!
    expect(plain.getExecutionInfo()).to.deep.equal([])
    const withInfo = run(request('counts', KeyQuery.withKey<string, number>('a')).enableExecutionInfo()).partitionResults.get(0)!
    expect(withInfo.getExecutionInfo()).to.have.length(1)
    store.close()
    const failed = run(request('counts', KeyQuery.withKey<string, number>('a'))).partitionResults.get(0)!
    expect(failed.getFailureReason()).to.equal('STORE_EXCEPTION')
    expect(failed.getFailureMessage()).to.be.a('string').and.not.equal('')
  })

  it("what a store's query() throws reaches the caller (as in Kafka Streams), typed", () => {
    const { threads, run } = setup()
    const throwing = Object.assign(kvStore('counts', { a: 1 }), {
      query: () => {
        throw new StreamsError('STORE_QUERY_TIMEOUT', 'StreamThread-2 did not answer', { retriable: true })
      }
    })
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: throwing })
    expect(() => run(request('counts', KeyQuery.withKey<string, number>('a'))))
      .to.throw(StreamsError, 'did not answer')
      .with.property('retriable', true)
  })

  it('under requireActive, the store asked is the one listed as a running active task', () => {
    const { threads, run } = setup()
    const active = kvStore('counts', { a: 1 })
    const staleCopy = kvStore('counts', { a: 0 })
    // A thread whose two listings disagree: the store listed among running tasks is not the one listed among all.
    const thread = threads[0]!
    thread.localStores = (_name: string, stale: boolean) => [{ partition: 0, store: stale ? staleCopy : active }]
    const result = run(request('counts', KeyQuery.withKey<string, number>('a')).requireActive())
    expect(result.partitionResults.get(0)!.getResult()).to.equal(1)
  })

  it('global stores answer one UNKNOWN_QUERY_TYPE global result (as Kafka Streams 4.x) and no partition results', () => {
    const { globals, run } = setup()
    globals.set('global', kvStore('global', { a: 1 }))
    const result = run(request('global', KeyQuery.withKey<string, number>('a')))
    expect(result.globalResult!.getFailureReason()).to.equal('UNKNOWN_QUERY_TYPE')
    expect(result.partitionResults.size).to.equal(0)
  })

  it('throws UNKNOWN_STATE_STORE for a store not in the topology, STREAMS_NOT_STARTED before start, NOT_RUNNING once stopping; REBALANCING answers', () => {
    const { threads, run, setState } = setup()
    threads[0]!.tasks.push({ partition: 0, kind: 'running', store: kvStore('counts', { a: 1 }) })
    const q = request('counts', KeyQuery.withKey<string, number>('a'))
    expect(codeOf(() => run(request('nope', KeyQuery.withKey<string, number>('a'))))).to.equal('UNKNOWN_STATE_STORE')
    setState('CREATED')
    expect(codeOf(() => run(q))).to.equal('STREAMS_NOT_STARTED')
    expect(codeOf(() => run(request('nope', KeyQuery.withKey<string, number>('a'))))).to.equal('UNKNOWN_STATE_STORE')
    for (const s of ['PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR']) {
      setState(s)
      expect(
        codeOf(() => run(q)),
        s
      ).to.equal('NOT_RUNNING')
    }
    setState('REBALANCING')
    expect(run(q).onlyPartitionResult()!.result).to.equal(1)
  })

  it('StateQueryRequest is immutable and reports what was asked; onlyPartitionResult rejects two answers', () => {
    const base = StateQueryRequest.inStore('counts').withQuery(KeyQuery.withKey<string, number>('a'))
    const narrowed = base.withPartitions([1, 2]).requireActive().enableExecutionInfo()
    expect([base.isAllPartitions, base.isRequireActive, base.executionInfoEnabled]).to.deep.equal([true, false, false])
    expect(codeOf(() => base.partitions)).to.equal('ILLEGAL_ARGUMENT')
    expect([narrowed.isAllPartitions, [...narrowed.partitions], narrowed.isRequireActive, narrowed.executionInfoEnabled]).to.deep.equal([
      false,
      [1, 2],
      true,
      true
    ])
    expect(narrowed.storeName).to.equal('counts')
    const two = new StateQueryResult<number | null>()
    two.addResult(0, QueryResult.forResult(1))
    two.addResult(1, QueryResult.forResult(2))
    expect(codeOf(() => two.onlyPartitionResult())).to.equal('ILLEGAL_ARGUMENT')
  })

  it('result types follow the query (type level)', () => {
    const kv: StateQueryRequest<number | null> = StateQueryRequest.inStore('s').withQuery(KeyQuery.withKey<string, number>('a'))
    // @ts-expect-error a KeyQuery answers a value, not an iterator
    const wrong: StateQueryRequest<string> = StateQueryRequest.inStore('s').withQuery(KeyQuery.withKey<string, number>('a'))
    expect([kv.storeName, wrong.storeName]).to.deep.equal(['s', 's'])
  })
})
