import { expect } from 'chai'
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from '../../src/state/key-value-store.js'
import { KeyValueStoreBuilder } from '../../src/state/key-value-store-builder.js'
import { MeteredKeyValueStore } from '../../src/state/metered-key-value-store.js'
import { MeteredTimestampedKeyValueStore } from '../../src/state/metered-timestamped-key-value-store.js'
import { TimestampedKeyValueStoreBuilder } from '../../src/state/timestamped-key-value-store-builder.js'
import { codeOf } from './helpers/expect-code.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'
import { TestStateStoreContext } from './helpers/test-state-store-context.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

function supplier(name = 'counts'): KeyValueBytesStoreSupplier & { built: KeyValueBytesStore[] } {
  const built: KeyValueBytesStore[] = []
  return {
    name,
    metricsScope: 'test',
    built,
    get() {
      const store = new SimpleBytesStore(name)
      built.push(store)
      return store
    }
  }
}

for (const [label, Builder, Store] of [
  ['KeyValueStoreBuilder', KeyValueStoreBuilder, MeteredKeyValueStore],
  ['TimestampedKeyValueStoreBuilder', TimestampedKeyValueStoreBuilder, MeteredTimestampedKeyValueStore]
] as const) {
  describe(label, () => {
    it('is named after the supplier, logs by default with no topic-config overrides', () => {
      const builder = new Builder(supplier('counts'), stringSerde, intSerde)
      expect(builder.name).to.equal('counts')
      expect(builder.loggingEnabled).to.equal(true)
      expect(builder.logConfig).to.deep.equal({})
    })

    it('builds a new metered store over a new bytes store on every call', () => {
      const s = supplier()
      const builder = new Builder(s, stringSerde, intSerde)
      const a = builder.build()
      const b = builder.build()
      expect(a).to.be.instanceOf(Store)
      expect(b).to.be.instanceOf(Store)
      expect(a).to.not.equal(b)
      expect(s.built).to.have.length(2)
      expect(s.built[0]).to.not.equal(s.built[1])
      expect(a.name).to.equal('counts')
    })

    it('builds stores that do not share data', () => {
      const builder = new Builder(supplier(), stringSerde, intSerde) as unknown as KeyValueStoreBuilder<string, unknown>
      const a = builder.build()
      const b = builder.build()
      a.init(new TestStateStoreContext(), a)
      b.init(new TestStateStoreContext(), b)
      expect(a.approximateNumEntries()).to.equal(0)
      a.putAll([])
      expect(b.approximateNumEntries()).to.equal(0)
    })

    it('rejects a missing supplier, or one without metricsScope, with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => new Builder(undefined as unknown as KeyValueBytesStoreSupplier))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => new Builder({ ...supplier(), metricsScope: undefined as unknown as string }))).to.equal('ILLEGAL_ARGUMENT')
    })

    it('rejects a supplier whose name is not a legal store name with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => new Builder(supplier('../escape')))).to.equal('ILLEGAL_ARGUMENT')
      expect(codeOf(() => new Builder(supplier('')))).to.equal('ILLEGAL_ARGUMENT')
    })

    it('rejects a serde argument that is not a Serde with ILLEGAL_ARGUMENT', () => {
      expect(codeOf(() => new Builder(supplier(), {} as typeof stringSerde))).to.equal('ILLEGAL_ARGUMENT')
    })
  })
}
