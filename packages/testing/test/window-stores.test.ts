import { expect } from 'chai'
import {
  type Record,
  Serdes,
  SessionWindow,
  Topology,
  ValueAndTimestamp,
  Windowed,
  type KeyValueIterator,
  type ProcessorContext,
  type SessionStore,
  type TimestampedWindowStore,
  type WindowStore
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()
const WINDOW = 100
const GAP = 100

/**
 * Counts records per key in tumbling windows of 100 ms (window store "counts", timestamped when
 * asked) and merges records of a key into sessions with a 100 ms gap (session store "sessions",
 * aggregate = number of records).
 */
function windowedCounting(timestamped: boolean): Topology {
  const windows = timestamped
    ? Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('counts', 1000, WINDOW, false), S, L)
    : Stores.windowStoreBuilder(Stores.inMemoryWindowStore('counts', 1000, WINDOW, false), S, L)
  const sessions = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('sessions', 1000), S, L)
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'aggregate',
      () => {
        let ctx: ProcessorContext<string, number>
        return {
          init(c: ProcessorContext<string, number>) {
            ctx = c
          },
          process(r: Record<string, string>) {
            const start = r.timestamp - (r.timestamp % WINDOW)
            if (timestamped) {
              const store = ctx.getStateStore<TimestampedWindowStore<string, number>>('counts')
              store.put(r.key, ValueAndTimestamp.make((store.fetch(r.key, start)?.value ?? 0) + 1, r.timestamp), start)
            } else {
              const store = ctx.getStateStore<WindowStore<string, number>>('counts')
              store.put(r.key, (store.fetch(r.key, start) ?? 0) + 1, start)
            }
            const sessionStore = ctx.getStateStore<SessionStore<string, number>>('sessions')
            let sessionStart = r.timestamp
            let sessionEnd = r.timestamp
            let count = 1
            const overlapping = sessionStore.findSessions(r.key, r.timestamp - GAP, r.timestamp + GAP)
            for (const kv of overlapping) {
              sessionStart = Math.min(sessionStart, kv.key.window.start)
              sessionEnd = Math.max(sessionEnd, kv.key.window.end)
              count += kv.value
              sessionStore.remove(kv.key)
            }
            sessionStore.put(new Windowed(r.key, new SessionWindow(sessionStart, sessionEnd)), count)
          }
        }
      },
      'source'
    )
    .addStateStore(windows, 'aggregate')
    .addStateStore(sessions, 'aggregate')
}

const entries = <K, V>(it: KeyValueIterator<Windowed<K>, V>): string[] => {
  try {
    return [...it].map(kv => `${String(kv.key.key)}@${kv.key.window.start}/${kv.key.window.end}=${String(kv.value)}`)
  } finally {
    it.close()
  }
}

function pipeEvents(driver: TopologyTestDriver): void {
  const input = driver.createInputTopic('input', S, S)
  for (const [key, ts] of [
    ['a', 10],
    ['a', 40],
    ['b', 50],
    ['a', 130],
    ['a', 300],
    ['b', 120]
  ] as const)
    input.pipeInput(key, 'x', ts)
}

describe('TopologyTestDriver window and session stores', () => {
  it('getWindowStore reads the window store a processor wrote', () => {
    const driver = new TopologyTestDriver(windowedCounting(false))
    pipeEvents(driver)
    const store = driver.getWindowStore<string, number>('counts')!
    expect(store.fetch('a', 0)).to.equal(2)
    expect(store.fetch('a', 100)).to.equal(1)
    expect([...store.fetch('a', 0, 300)].map(kv => [kv.key, kv.value])).to.deep.equal([
      [0, 2],
      [100, 1],
      [300, 1]
    ])
    expect(entries(store.fetchAll(0, 100))).to.deep.equal(['a@0/100=2', 'b@0/100=1', 'a@100/200=1', 'b@100/200=1'])
    expect(() => driver.getTimestampedWindowStore('counts'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    driver.close()
  })

  it('getSessionStore reads the sessions a processor merged', () => {
    const driver = new TopologyTestDriver(windowedCounting(false))
    pipeEvents(driver)
    const store = driver.getSessionStore<string, number>('sessions')!
    expect(entries(store.fetch('a'))).to.deep.equal(['a@10/130=3', 'a@300/300=1'])
    expect(entries(store.fetch('b'))).to.deep.equal(['b@50/120=2'])
    expect(store.fetchSession('a', 10, 130)).to.equal(3)
    expect(entries(store.findSessions(200, 400))).to.deep.equal(['a@300/300=1'])
    driver.close()
  })

  it('a timestamped window store is read with its timestamps, or as plain values through getWindowStore', () => {
    const driver = new TopologyTestDriver(windowedCounting(true))
    pipeEvents(driver)
    const timestamped = driver.getTimestampedWindowStore<string, number>('counts')!
    const value = timestamped.fetch('a', 0)
    expect([value?.value, value?.timestamp]).to.deep.equal([2, 40])
    const plain = driver.getWindowStore<string, number>('counts')!
    expect(plain.fetch('a', 0)).to.equal(2)
    expect([...plain.fetch('a', 0, 300)].map(kv => [kv.key, kv.value])).to.deep.equal([
      [0, 2],
      [100, 1],
      [300, 1]
    ])
    expect([...plain.backwardFetch('a', 0, 300)].map(kv => kv.key)).to.deep.equal([300, 100, 0])
    expect(entries(plain.fetch('a', 'b', 0, 0))).to.deep.equal(['a@0/100=2', 'b@0/100=1'])
    expect(entries(plain.backwardFetch(undefined, undefined, 100, 100))).to.deep.equal(['b@100/200=1', 'a@100/200=1'])
    expect(entries(plain.all())).to.have.length(5)
    expect(entries(plain.backwardAll())[0]).to.equal('a@300/400=1')
    expect(entries(plain.fetchAll(300, 300))).to.deep.equal(['a@300/400=1'])
    expect(entries(plain.backwardFetchAll(0, 0))).to.deep.equal(['b@0/100=1', 'a@0/100=2'])
    plain.put('c', 7, 200)
    const written = timestamped.fetch('c', 200)
    expect([written?.value, written?.timestamp]).to.deep.equal([7, -1])
    expect([plain.name, plain.persistent, plain.isOpen()]).to.deep.equal(['counts', false, true])
    driver.close()
  })

  it('the getters return undefined for an unknown store and reject a store of another kind', () => {
    const driver = new TopologyTestDriver(windowedCounting(false))
    expect(driver.getWindowStore('nope')).to.equal(undefined)
    expect(driver.getTimestampedWindowStore('nope')).to.equal(undefined)
    expect(driver.getSessionStore('nope')).to.equal(undefined)
    expect(() => driver.getWindowStore('sessions'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => driver.getSessionStore('counts'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => driver.getKeyValueStore('counts'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    driver.close()
  })
})
