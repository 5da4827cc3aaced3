import { expect } from 'chai'
import {
  type Record,
  Serdes,
  SessionWindow,
  Topology,
  ValueAndTimestamp,
  Windowed,
  type ProcessorContext,
  type SessionStore,
  type SessionStoreBuilder,
  type TimestampedWindowStore,
  type TimestampedWindowStoreBuilder,
  type WindowStore,
  type WindowStoreBuilder
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()
const B = Serdes.Buffer()
const APP = 'dummy-topology-test-driver-app-id'
const WINDOW = 100
const GAP = 100

/** Kafka's window-store changelog key: [key][8-byte window start][4-byte seqnum]. */
const windowKey = (key: string, start: number, seqnum = 0): string =>
  Buffer.from(key).toString('hex') + start.toString(16).padStart(16, '0') + seqnum.toString(16).padStart(8, '0')
/** Kafka's session-store changelog key: [key][8-byte end][8-byte start]. */
const sessionKey = (key: string, start: number, end: number): string =>
  Buffer.from(key).toString('hex') + end.toString(16).padStart(16, '0') + start.toString(16).padStart(16, '0')
const long = (value: Buffer | null): number | null => (value === null ? null : Number(value.readBigInt64BE(0)))

type WindowBuilder = WindowStoreBuilder<string, number> | TimestampedWindowStoreBuilder<string, number>

/**
 * Counts records per key in tumbling windows of 100 ms in "counts" and merges a key's records
 * into sessions with a 100 ms gap in "sessions" (aggregate = number of records); a value "x3"
 * counts three times within one process call.
 */
function counting(windows: WindowBuilder | undefined, sessions?: SessionStoreBuilder<string, number>, timestamped = false): Topology {
  const topology = new Topology().addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S }).addProcessor(
    'aggregate',
    () => {
      let ctx: ProcessorContext<string, number>
      return {
        init(c: ProcessorContext<string, number>) {
          ctx = c
        },
        process(r: Record<string, string>) {
          const start = r.timestamp - (r.timestamp % WINDOW)
          for (let i = 0; i < (r.value === 'x3' ? 3 : 1); i++) {
            if (timestamped) {
              const store = ctx.getStateStore<TimestampedWindowStore<string, number>>('counts')
              store.put(r.key, ValueAndTimestamp.make((store.fetch(r.key, start)?.value ?? 0) + 1, r.timestamp), start)
            } else if (windows !== undefined) {
              const store = ctx.getStateStore<WindowStore<string, number>>('counts')
              store.put(r.key, (store.fetch(r.key, start) ?? 0) + 1, start)
            }
            if (sessions !== undefined) mergeSession(ctx.getStateStore<SessionStore<string, number>>('sessions'), r)
          }
        }
      }
    },
    'source'
  )
  if (windows !== undefined) topology.addStateStore(windows, 'aggregate')
  if (sessions !== undefined) topology.addStateStore(sessions, 'aggregate')
  return topology
}

function mergeSession(store: SessionStore<string, number>, r: Record<string, string>): void {
  let [sessionStart, sessionEnd, count] = [r.timestamp, r.timestamp, 1]
  for (const kv of store.findSessions(r.key, r.timestamp - GAP, r.timestamp + GAP)) {
    sessionStart = Math.min(sessionStart, kv.key.window.start)
    sessionEnd = Math.max(sessionEnd, kv.key.window.end)
    count += kv.value
    store.remove(kv.key)
  }
  store.put(new Windowed(r.key, new SessionWindow(sessionStart, sessionEnd)), count)
}

const windowBuilder = (retainDuplicates = false): WindowStoreBuilder<string, number> =>
  Stores.windowStoreBuilder(Stores.inMemoryWindowStore('counts', 1000, WINDOW, retainDuplicates), S, L)

function changelog(driver: TopologyTestDriver, store: string): Array<[string, number | null, number]> {
  return driver
    .createOutputTopic(`${APP}-${store}-changelog`, B, B)
    .readRecordsToList()
    .map(r => [r.key!.toString('hex'), long(r.value), r.timestamp])
}

describe('TopologyTestDriver: window and session store changelogs', () => {
  it('logs window stores by default on <applicationId>-<store>-changelog, keyed [key][window start][seqnum 0]', () => {
    const driver = new TopologyTestDriver(counting(windowBuilder()))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('b', 'v', 120)
    input.pipeInput('a', 'v', 40)
    expect(driver.producedTopicNames()).to.deep.equal(new Set([`${APP}-counts-changelog`]))
    expect(changelog(driver, 'counts')).to.deep.equal([
      [windowKey('a', 0), 1, 10],
      [windowKey('b', 100), 1, 120],
      [windowKey('a', 0), 2, 40]
    ])
    driver.close()
  })

  it('logs a timestamped window store as plain values stamped with the stored timestamp', () => {
    const builder = Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('counts', 1000, WINDOW, false), S, L)
    const driver = new TopologyTestDriver(counting(builder, undefined, true))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('a', 'v', 30)
    expect(changelog(driver, 'counts')).to.deep.equal([
      [windowKey('a', 0), 1, 10],
      [windowKey('a', 0), 2, 30]
    ])
    driver.close()
  })

  it("with caching, logs one record per window and commit, with the last write's timestamp", () => {
    const uncached = new TopologyTestDriver(counting(windowBuilder()))
    uncached.createInputTopic('input', S, S).pipeInput('a', 'x3', 5)
    expect(changelog(uncached, 'counts').map(r => r[1])).to.deep.equal([1, 2, 3])
    uncached.close()

    const driver = new TopologyTestDriver(counting(windowBuilder().withCachingEnabled()))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'x3', 5)
    input.pipeInput('a', 'x3', 150)
    input.pipeInput('a', 'v', 7)
    expect(changelog(driver, 'counts')).to.deep.equal([
      [windowKey('a', 0), 3, 5],
      [windowKey('a', 100), 3, 150],
      [windowKey('a', 0), 4, 7]
    ])
    const store = driver.getWindowStore<string, number>('counts')!
    expect([...store.fetch('a', 0, 200)].map(kv => [kv.key, kv.value])).to.deep.equal([
      [0, 4],
      [100, 3]
    ])
    driver.close()
  })

  it('numbers the changelog records of a store that retains duplicates, which is never cached', () => {
    const driver = new TopologyTestDriver(counting(windowBuilder(true).withCachingEnabled()))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('a', 'v', 20)
    // fetch(key, start) finds nothing in a store with duplicates, so every count is 1
    expect(changelog(driver, 'counts')).to.deep.equal([
      [windowKey('a', 0, 1), 1, 10],
      [windowKey('a', 0, 2), 1, 20]
    ])
    driver.close()
  })

  it('logs session stores keyed [key][end][start]: a merge logs the removed sessions as tombstones', () => {
    const sessions = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('sessions', 1000), S, L)
    const driver = new TopologyTestDriver(counting(undefined, sessions))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'v', 10)
    input.pipeInput('a', 'v', 60)
    expect(changelog(driver, 'sessions')).to.deep.equal([
      [sessionKey('a', 10, 10), 1, 10],
      [sessionKey('a', 10, 10), null, 60],
      [sessionKey('a', 10, 60), 2, 60]
    ])
    driver.close()
  })

  it('with caching, the merges of a session within one commit are logged as the final session', () => {
    const sessionBuilder = (): SessionStoreBuilder<string, number> =>
      Stores.sessionStoreBuilder(Stores.inMemorySessionStore('sessions', 1000), S, L)
    const uncached = new TopologyTestDriver(counting(undefined, sessionBuilder()))
    uncached.createInputTopic('input', S, S).pipeInput('a', 'x3', 10)
    expect(changelog(uncached, 'sessions').map(r => r[1])).to.deep.equal([1, null, 2, null, 3])
    uncached.close()

    const driver = new TopologyTestDriver(counting(undefined, sessionBuilder().withCachingEnabled()))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'x3', 10)
    input.pipeInput('a', 'v', 60)
    expect(changelog(driver, 'sessions')).to.deep.equal([
      [sessionKey('a', 10, 10), 3, 10],
      [sessionKey('a', 10, 10), null, 60],
      [sessionKey('a', 10, 60), 4, 60]
    ])
    expect(
      [...driver.getSessionStore<string, number>('sessions')!.fetch('a')].map(
        kv => `${kv.key.window.start}/${kv.key.window.end}=${kv.value}`
      )
    ).to.deep.equal(['10/60=4'])
    driver.close()
  })

  it('withLoggingDisabled() produces no changelog topic', () => {
    const sessions = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('sessions', 1000), S, L).withLoggingDisabled()
    const driver = new TopologyTestDriver(counting(windowBuilder().withLoggingDisabled().withCachingEnabled(), sessions))
    driver.createInputTopic('input', S, S).pipeInput('a', 'v', 1)
    expect(driver.producedTopicNames()).to.deep.equal(new Set())
    expect(driver.getWindowStore<string, number>('counts')!.fetch('a', 0)).to.equal(1)
    driver.close()
  })
})
