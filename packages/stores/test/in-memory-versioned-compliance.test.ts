/**
 * Runs the versioned store compliance suite (ports of Kafka's RocksDBVersionedStoreTest) against
 * the in-memory versioned store, and checks the supplier's default segment interval (port of
 * RocksDbVersionedKeyValueBytesStoreSupplierTest).
 */
import { expect } from 'chai'
import { SegmentedVersionedBytesStore } from '@kstreams/core'
import { createTestStoreContext, versionedStoreCompliance } from '@kstreams/stores/compliance'
import { InMemoryKeyValueStore, Stores } from '../src/index.js'

versionedStoreCompliance({
  name: 'in-memory',
  persistent: false,
  supplier: (name, historyRetentionMs, segmentIntervalMs) =>
    Stores.inMemoryVersionedKeyValueStore(name, historyRetentionMs, segmentIntervalMs),
  newStateDir: async () => undefined,
  cleanup: async () => {}
})

describe('Stores.inMemoryVersionedKeyValueStore', () => {
  it("uses Kafka's default segment interval for the history retention (shouldUseDefaultSegmentInterval)", () => {
    const expected: Array<[number, number]> = [
      [0, 2_000],
      [1_000, 2_000],
      [6_000, 2_000],
      [30_000, 10_000],
      [60_000, 20_000],
      [80_000, 20_000],
      [100_000, 20_000],
      [200_000, 40_000],
      [300_000, 60_000],
      [600_000, 60_000],
      [720_000, 60_000],
      [1_200_000, 100_000],
      [3_600_000, 300_000],
      [6_000_000, 300_000],
      [7_200_000, 300_000],
      [24 * 3_600_000, 3_600_000]
    ]
    for (const [retention, interval] of expected) {
      expect(Stores.inMemoryVersionedKeyValueStore('s', retention).segmentIntervalMs, `retention ${retention}`).to.equal(interval)
    }
  })

  it('refuses caching on its builder (versioned stores have no caching layer)', () => {
    const builder = Stores.versionedKeyValueStoreBuilder(Stores.inMemoryVersionedKeyValueStore('s', 1000))
    expect(() => builder.withCachingEnabled()).to.throw(/do not support caching/)
  })
})

describe('SegmentedVersionedBytesStore segments', () => {
  it('drops a segment once all of it is older than the history retention', async () => {
    const physical = new InMemoryKeyValueStore('segments')
    const store = new SegmentedVersionedBytesStore({ physical, historyRetentionMs: 100, segmentIntervalMs: 100 })
    await store.init(createTestStoreContext(), store)
    const k = Buffer.from('k')
    store.put(k, Buffer.from('v0'), 0)
    store.put(k, Buffer.from('v1'), 10)
    // latest k, the version [0, 10) in segment 0, and segment 0 in the index
    expect(physical.approximateNumEntries()).to.equal(3)
    store.put(Buffer.from('other'), Buffer.from('x'), 199)
    expect(physical.approximateNumEntries()).to.equal(4)
    store.put(Buffer.from('other'), Buffer.from('y'), 200)
    // Stream time 200: segment 0 ends before 200 - 100 and goes (k's [0, 10) and its index entry);
    // other's [199, 200) and segment 2 (of its validTo) in the index come.
    expect(physical.approximateNumEntries()).to.equal(4)
    expect(store.get(k, 5)).to.equal(null)
    expect(store.get(k)?.value.toString()).to.equal('v1')
    store.close()
  })
})
