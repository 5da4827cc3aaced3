import { expect } from 'chai'
import { assignorTopologyFrom } from '../../src/runtime/assignment/topology-metadata.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { ChangeLoggingSessionBytesStore } from '../../src/state/change-logging-session-bytes-store.js'
import { SessionKeySchema } from '../../src/state/session-key-schema.js'
import type { SessionBytesStoreSupplier } from '../../src/state/session-store.js'
import { SessionStoreBuilder } from '../../src/state/session-store-builder.js'
import type { StateStore, StateStoreContext } from '../../src/state/state-store.js'
import { StateStoreContextOverlay } from '../../src/state/state-store-context-overlay.js'
import { SessionWindow, Windowed } from '../../src/state/windowed.js'
import { TOPOLOGY_DEF } from '../../src/topology/internal.js'
import { Topology } from '../../src/topology/topology.js'
import { noop } from '../topology/topology-helpers.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleSessionBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const session = (key: string, start: number, end: number): Windowed<Buffer> => new Windowed(s(key), new SessionWindow(start, end))

/** A simple session store that restores changelog records (session keys) as the real backends do. */
class RestorableSessionStore extends SimpleSessionBytesStore {
  override init(context: StateStoreContext, root: StateStore): void {
    super.init(new StateStoreContextOverlay(context, { register: () => {} }), root)
    context.register(root, records => {
      for (const r of records) this.put(SessionKeySchema.fromBinary(r.key), r.value)
    })
  }
}

function supplier(retentionPeriod = 1000): SessionBytesStoreSupplier {
  return {
    name: 'sessions',
    metricsScope: 'test-session',
    retentionPeriod,
    segmentInterval: 1,
    get: () => new RestorableSessionStore('sessions')
  }
}

function open(logged = true) {
  const context = new LayerTestContext({ logged })
  const backend = new SimpleSessionBytesStore('sessions')
  const store = new ChangeLoggingSessionBytesStore(backend)
  store.init(context, store)
  return { context, backend, store }
}

describe('ChangeLoggingSessionBytesStore', () => {
  it("logs puts and removes under Kafka's session key [key][8-byte end][8-byte start], with the record timestamp", () => {
    const { context, backend, store } = open()
    context.at(7)
    store.put(session('k', 1, 0x0203), s('agg'))
    context.at(8)
    store.remove(session('k', 1, 0x0203))
    context.at(9)
    store.put(session('j', 4, 4), null)
    expect(backend.rows).to.deep.equal([])
    expect(context.rawChangelog.map(r => [r.key.toString('hex'), r.value?.toString() ?? null, r.timestamp])).to.deep.equal([
      ['6b' + '0000000000000203' + '0000000000000001', 'agg', 7],
      ['6b' + '0000000000000203' + '0000000000000001', null, 8],
      ['6a' + '0000000000000004' + '0000000000000004', null, 9]
    ])
  })

  it('passes reads through to the store below', () => {
    const { backend, store } = open()
    store.put(session('a', 0, 1), s('1'))
    expect(store.fetchSession(s('a'), 0, 1)?.toString()).to.equal('1')
    expect([...store.findSessions(0, 5)]).to.have.length(1)
    expect([...store.findSessions(s('a'), 0, 5)]).to.have.length(1)
    expect([...store.findSessions(s('a'), s('b'), 0, 5)]).to.have.length(1)
    expect([...store.backwardFindSessions(s('a'), 0, 5)]).to.have.length(1)
    expect([...store.backwardFindSessions(undefined, undefined, 0, 5)]).to.have.length(1)
    expect([...store.fetch(s('a'))]).to.have.length(1)
    expect([...store.fetch(s('a'), s('b'))]).to.have.length(1)
    expect([...store.backwardFetch(s('a'))]).to.have.length(1)
    expect([...store.backwardFetch(undefined, s('b'))]).to.have.length(1)
    expect(backend.calls).to.deep.equal([
      'put',
      'fetchSession',
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

  it('only writes below when its context has no changelog writer', () => {
    const { context, backend, store } = open(false)
    store.put(session('a', 0, 1), s('1'))
    expect(backend.rows).to.have.length(1)
    expect(context.rawChangelog).to.deep.equal([])
  })
})

describe('SessionStoreBuilder: layers and changelog topic configs', () => {
  it('logs by default, restores what it logged, and logs nothing when logging is disabled', () => {
    const builder = new SessionStoreBuilder(supplier(), stringSerde, intSerde)
    expect([builder.loggingEnabled, builder.cachingEnabled]).to.deep.equal([true, false])
    const store = builder.build()
    const context = new LayerTestContext()
    store.init(context, store)
    context.at(3)
    store.put(new Windowed('a', new SessionWindow(1, 3)), 2)
    store.put(new Windowed('b', new SessionWindow(2, 2)), 1)
    store.remove(new Windowed('b', new SessionWindow(2, 2)))
    expect(context.rawChangelog).to.have.length(3)
    const copy = builder.build()
    const copyContext = new LayerTestContext()
    copy.init(copyContext, copy)
    copyContext.restore('sessions', context.rawChangelog)
    expect(
      [...copy.fetch('a', 'b')].map(kv => `${kv.key.key}@${kv.key.window.start}/${kv.key.window.end}=${String(kv.value)}`)
    ).to.deep.equal(['a@1/3=2'])

    const unlogged = new SessionStoreBuilder(supplier(), stringSerde, intSerde).withLoggingDisabled().withCachingEnabled().build()
    const unloggedContext = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    unlogged.init(unloggedContext, unlogged)
    unlogged.put(new Windowed('a', new SessionWindow(1, 3)), 2)
    unlogged.flush()
    expect(unloggedContext.rawChangelog).to.deep.equal([])
  })

  it("creates the changelog compacted and deleted, retained for the retention period plus a day, under the user's configs", () => {
    const builder = new SessionStoreBuilder(supplier(300_000), stringSerde, intSerde).withLoggingEnabled({ 'cleanup.policy': 'compact' })
    expect(builder.logConfig).to.deep.equal({ 'cleanup.policy': 'compact', 'retention.ms': String(300_000 + 86_400_000) })
    const def = new Topology()
      .addSource('s', ['input'])
      .addProcessor('p', noop(), 's')
      .addStateStore(new SessionStoreBuilder(supplier(300_000), stringSerde, intSerde), 'p')
      [TOPOLOGY_DEF]()
    expect(assignorTopologyFrom(def, 'app').changelogConfigs!.get('app-sessions-changelog')).to.deep.equal({
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(300_000 + 86_400_000)
    })
  })
})
