import { expect } from 'chai'
import { ThreadCache } from '../../src/state/cache/thread-cache.js'
import type { KeyValueBytesStoreSupplier } from '../../src/state/key-value-store.js'
import { ValueAndTimestamp } from '../../src/state/key-value-store.js'
import { KeyValueStoreBuilder } from '../../src/state/key-value-store-builder.js'
import { TimestampedKeyValueStoreBuilder } from '../../src/state/timestamped-key-value-store-builder.js'
import { codeOf } from './helpers/expect-code.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

function supplier(name = 'counts'): KeyValueBytesStoreSupplier {
  return { name, metricsScope: 'test', get: () => new SimpleBytesStore(name) }
}

describe('store builder layers', () => {
  it('defaults to caching off and logging on, and toggles both (Kafka defaults for Processor API builders)', () => {
    const builder = new KeyValueStoreBuilder(supplier(), stringSerde, intSerde)
    expect(builder.cachingEnabled).to.equal(false)
    expect(builder.loggingEnabled).to.equal(true)
    expect(builder.withCachingEnabled()).to.equal(builder)
    expect(builder.cachingEnabled).to.equal(true)
    expect(builder.withLoggingEnabled({ 'retention.ms': '1000' })).to.equal(builder)
    expect(builder.logConfig).to.deep.equal({ 'retention.ms': '1000' })
    expect(Object.isFrozen(builder.logConfig)).to.equal(true)
    builder.withLoggingDisabled().withCachingDisabled()
    expect(builder.loggingEnabled).to.equal(false)
    expect(builder.logConfig).to.deep.equal({})
    expect(builder.cachingEnabled).to.equal(false)
    builder.withLoggingEnabled()
    expect(builder.loggingEnabled).to.equal(true)
    expect(builder.logConfig).to.deep.equal({})
    expect(codeOf(() => builder.withLoggingEnabled(null as never))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => builder.withLoggingEnabled({ 'retention.ms': 1000 } as never))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('logs every write when logging is on, and nothing when it is off', () => {
    for (const logging of [true, false]) {
      const builder = new KeyValueStoreBuilder(supplier(), stringSerde, intSerde)
      if (!logging) builder.withLoggingDisabled()
      const store = builder.build()
      const context = new LayerTestContext()
      store.init(context, store)
      context.at(8)
      store.put('a', 1)
      expect(context.changelog.length, `logging ${String(logging)}`).to.equal(logging ? 1 : 0)
    }
  })

  it('caches when caching is on: writes reach the changelog on flush, deduplicated', () => {
    const builder = new KeyValueStoreBuilder(supplier(), stringSerde, intSerde).withCachingEnabled()
    const store = builder.build()
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    store.put('a', 1)
    store.put('a', 2)
    expect(context.changelog).to.deep.equal([])
    store.flush()
    expect(context.rawChangelog.map(r => [r.key.toString(), r.value?.readInt32BE(0)])).to.deep.equal([['a', 2]])
  })

  it('builds timestamped stores that log plain values stamped with the stored timestamp', () => {
    const builder = new TimestampedKeyValueStoreBuilder(supplier(), stringSerde, intSerde).withCachingEnabled()
    const store = builder.build()
    const context = new LayerTestContext({ cache: new ThreadCache({ maxCacheSizeBytes: 10_000 }) })
    store.init(context, store)
    context.at(50)
    store.put('a', ValueAndTimestamp.make(7, 40))
    store.flush()
    expect(context.rawChangelog.map(r => [r.key.toString(), r.value?.readInt32BE(0), r.value?.length, r.timestamp])).to.deep.equal([
      ['a', 7, 4, 40]
    ])
    expect(store.get('a')?.timestamp).to.equal(40)
  })

  it('restores a timestamped store from plain changelog values and record timestamps, logged or not', () => {
    for (const logging of [true, false]) {
      const builder = new TimestampedKeyValueStoreBuilder(supplier(), stringSerde, intSerde)
      if (!logging) builder.withLoggingDisabled()
      const store = builder.build()
      const context = new LayerTestContext()
      store.init(context, store)
      const seven = Buffer.alloc(4)
      seven.writeInt32BE(7)
      const registration = context.registered.find(r => r.store.name === 'counts')!
      registration.restore([
        { key: Buffer.from('a'), value: seven, timestamp: 2 ** 40 + 3 },
        { key: Buffer.from('b'), value: seven, timestamp: 5 },
        { key: Buffer.from('b'), value: null, timestamp: 6 }
      ])
      expect(store.get('a'), `logging ${String(logging)}`).to.deep.equal(ValueAndTimestamp.make(7, 2 ** 40 + 3))
      expect(store.get('b')).to.equal(null)
      expect(context.changelog).to.deep.equal([])
    }
  })
})
