import { expect } from 'chai'
import { assignorTopologyFrom } from '../../src/runtime/assignment/topology-metadata.js'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import { ChangeLoggingTimestampedWindowBytesStore } from '../../src/state/change-logging-timestamped-window-bytes-store.js'
import { ChangeLoggingWindowBytesStore } from '../../src/state/change-logging-window-bytes-store.js'
import { ValueAndTimestamp } from '../../src/state/key-value-store.js'
import type { StateStore, StateStoreContext } from '../../src/state/state-store.js'
import { StateStoreContextOverlay } from '../../src/state/state-store-context-overlay.js'
import { TimestampedWindowStoreBuilder } from '../../src/state/timestamped-window-store-builder.js'
import { WindowKeySchema } from '../../src/state/window-key-schema.js'
import { WindowStoreBuilder } from '../../src/state/window-store-builder.js'
import type { WindowBytesStoreSupplier } from '../../src/state/window-store.js'
import { TOPOLOGY_DEF } from '../../src/topology/internal.js'
import { Topology } from '../../src/topology/topology.js'
import { assignorFor, InMemoryAdmin, sub, subscription, topologyOf } from '../runtime/assignment/assignment-helpers.js'
import { noop } from '../topology/topology-helpers.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleWindowBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

const s = (text: string): Buffer => Buffer.from(text, 'utf8')
const hex = (b: Buffer): string => b.toString('hex')
const DAY = 86_400_000

/** A simple window store that restores changelog records (store keys) as the real backends do. */
class RestorableWindowStore extends SimpleWindowBytesStore {
  override init(context: StateStoreContext, root: StateStore): void {
    super.init(new StateStoreContextOverlay(context, { register: () => {} }), root)
    context.register(root, records => {
      for (const r of records) this.put(WindowKeySchema.extractStoreKeyBytes(r.key), r.value, WindowKeySchema.extractStoreTimestamp(r.key))
    })
  }
}

function supplier(options: { retainDuplicates?: boolean; retentionPeriod?: number } = {}): WindowBytesStoreSupplier {
  return {
    name: 'counts',
    metricsScope: 'test-window',
    retentionPeriod: options.retentionPeriod ?? 1000,
    windowSize: 10,
    segmentInterval: 1,
    retainDuplicates: options.retainDuplicates ?? false,
    get: () => new RestorableWindowStore('counts', 10)
  }
}

function open(retainDuplicates = false, logged = true) {
  const context = new LayerTestContext({ logged })
  const backend = new SimpleWindowBytesStore('win', 10)
  const store = new ChangeLoggingWindowBytesStore(backend, retainDuplicates)
  store.init(context, store)
  return { context, backend, store }
}

describe('ChangeLoggingWindowBytesStore', () => {
  it("logs each put under Kafka's store key [key][8-byte start][4-byte seqnum 0], with the record timestamp", () => {
    const { context, backend, store } = open()
    context.at(42)
    store.put(s('ab'), s('v'), 0x0102030405)
    context.at(43)
    store.put(s('ab'), null, 0x0102030405)
    expect(backend.rows).to.deep.equal([])
    expect(context.rawChangelog.map(r => [hex(r.key), r.value === null ? null : r.value.toString(), r.timestamp])).to.deep.equal([
      ['6162' + '0000000102030405' + '00000000', 'v', 42],
      ['6162' + '0000000102030405' + '00000000', null, 43]
    ])
  })

  it('numbers the puts of a store that retains duplicates 1, 2, 3 ..., null puts included', () => {
    const { context, store } = open(true)
    store.put(s('k'), s('x'), 5)
    store.put(s('k'), s('x'), 5)
    store.put(s('j'), null, 5)
    expect(context.rawChangelog.map(r => WindowKeySchema.extractStoreSequence(r.key))).to.deep.equal([1, 2, 3])
  })

  it('passes reads through to the store below', () => {
    const { backend, store } = open()
    store.put(s('a'), s('1'), 10)
    expect(store.fetch(s('a'), 10)?.toString()).to.equal('1')
    expect([...store.fetch(s('a'), 0, 20)].map(kv => kv.key)).to.deep.equal([10])
    expect([...store.backwardFetch(s('a'), 0, 20)]).to.have.length(1)
    expect([...store.fetch(s('a'), s('b'), 0, 20)]).to.have.length(1)
    expect([...store.backwardFetch(undefined, undefined, 0, 20)]).to.have.length(1)
    expect([...store.fetchAll(0, 20)]).to.have.length(1)
    expect([...store.backwardFetchAll(0, 20)]).to.have.length(1)
    expect([...store.all()]).to.have.length(1)
    expect([...store.backwardAll()]).to.have.length(1)
    expect(backend.calls).to.deep.equal([
      'put',
      'fetch/2',
      'fetch/3',
      'backwardFetch/3',
      'fetch/4',
      'backwardFetch/4',
      'fetchAll',
      'backwardFetchAll',
      'all',
      'backwardAll'
    ])
    store.flush()
    expect(backend.calls.at(-1)).to.equal('flush')
  })

  it('only writes below when its context has no changelog writer', () => {
    const { context, backend, store } = open(false, false)
    store.put(s('a'), s('1'), 10)
    expect(backend.rows).to.have.length(1)
    expect(context.rawChangelog).to.deep.equal([])
  })
})

describe('ChangeLoggingTimestampedWindowBytesStore', () => {
  it('logs the plain value stamped with the stored timestamp; a delete carries the record timestamp', () => {
    const context = new LayerTestContext()
    const store = new ChangeLoggingTimestampedWindowBytesStore(new SimpleWindowBytesStore('win', 10), false)
    store.init(context, store)
    context.at(99)
    store.put(s('a'), Buffer.concat([Buffer.from('0000000000000007', 'hex'), s('v')]), 0)
    store.put(s('a'), null, 0)
    expect(context.rawChangelog.map(r => [r.value?.toString() ?? null, r.timestamp])).to.deep.equal([
      ['v', 7],
      [null, 99]
    ])
  })

  it('restores through the builder stack: plain changelog values come back with their record timestamps, logged or not', () => {
    for (const logging of [true, false]) {
      const builder = new TimestampedWindowStoreBuilder(supplier(), stringSerde, intSerde).withCachingEnabled()
      if (!logging) builder.withLoggingDisabled()
      const store = builder.build()
      const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
      store.init(context, store)
      context.restore('counts', [
        { key: WindowKeySchema.toStoreKeyBinary(s('a'), 20, 0), value: Buffer.from('00000005', 'hex'), timestamp: 27 }
      ])
      const restored = store.fetch('a', 20)
      expect([restored?.value, restored?.timestamp], `logging ${String(logging)}`).to.deep.equal([5, 27])
      expect(context.rawChangelog).to.deep.equal([])
    }
  })

  it('round-trips through the builder stack: what it logs restores the same timestamped values', () => {
    const builder = new TimestampedWindowStoreBuilder(supplier(), stringSerde, intSerde).withCachingEnabled()
    const store = builder.build()
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    context.at(50)
    store.put('a', ValueAndTimestamp.make(3, 41), 40)
    store.put('b', ValueAndTimestamp.make(4, 45), 40)
    store.flush()
    expect(
      context.rawChangelog.map(r => [
        WindowKeySchema.extractStoreKeyBytes(r.key).toString(),
        r.value?.readInt32BE(0),
        r.value?.length,
        r.timestamp
      ])
    ).to.deep.equal([
      ['a', 3, 4, 41],
      ['b', 4, 4, 45]
    ])
    const copy = builder.build()
    const copyContext = new LayerTestContext()
    copy.init(copyContext, copy)
    copyContext.restore('counts', context.rawChangelog)
    expect(
      [...copy.fetchAll(0, 100)].map(kv => `${kv.key.key}@${kv.key.window.start}=${String(kv.value.value)}/${kv.value.timestamp}`)
    ).to.deep.equal(['a@40=3/41', 'b@40=4/45'])
  })
})

describe('window store builders: layers and changelog topic configs', () => {
  it('log by default and not when logging is disabled; cache only when asked', () => {
    for (const logging of [true, false]) {
      const builder = new WindowStoreBuilder(supplier(), stringSerde, intSerde)
      if (!logging) builder.withLoggingDisabled()
      expect(builder.cachingEnabled).to.equal(false)
      const store = builder.build()
      const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
      store.init(context, store)
      context.at(8)
      store.put('a', 1, 0)
      expect(context.rawChangelog.length, `logging ${String(logging)}`).to.equal(logging ? 1 : 0)
    }
  })

  it("create the changelog compacted and deleted, retained for the retention period plus a day, under the user's configs", () => {
    const builder = new WindowStoreBuilder(supplier({ retentionPeriod: 5000 }), stringSerde, intSerde)
    expect(builder.logConfig).to.deep.equal({ 'cleanup.policy': 'compact,delete', 'retention.ms': String(5000 + DAY) })
    expect(Object.isFrozen(builder.logConfig)).to.equal(true)
    builder.withLoggingEnabled({ 'retention.ms': '123', 'min.insync.replicas': '2' })
    expect(builder.logConfig).to.deep.equal({ 'cleanup.policy': 'compact,delete', 'retention.ms': '123', 'min.insync.replicas': '2' })
    builder.withLoggingDisabled()
    expect(builder.logConfig).to.deep.equal({})
    const timestamped = new TimestampedWindowStoreBuilder(supplier({ retentionPeriod: Number.MAX_SAFE_INTEGER }))
    expect(timestamped.logConfig['retention.ms']).to.equal('9223372036854775807')
  })

  it('the assignor creates the changelog of a window store with those configs', async () => {
    const def = new Topology()
      .addSource('s', ['input'])
      .addProcessor('p', noop(), 's')
      .addStateStore(new WindowStoreBuilder(supplier({ retentionPeriod: 60_000 }), stringSerde, intSerde), 'p')
      [TOPOLOGY_DEF]()
    const derived = assignorTopologyFrom(def, 'app')
    expect(derived.changelogConfigs!.get('app-counts-changelog')).to.deep.equal({
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(60_000 + DAY)
    })
    const admin = new InMemoryAdmin({ input: 2 })
    await assignorFor(topologyOf([sub(0, derived.subtopologies[0]!)], { changelogConfigs: derived.changelogConfigs }), admin).assign(
      [subscription({ memberId: 'm1', process: 1 })],
      admin.topics
    )
    expect(admin.created).to.deep.equal([
      {
        topic: 'app-counts-changelog',
        numPartitions: 2,
        replicationFactor: -1,
        configs: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact,delete', 'retention.ms': String(60_000 + DAY) }
      }
    ])
  })
})
