import { expect } from 'chai'
import { ValueAndTimestamp } from '../../src/state/key-value-store.js'
import { MeteredTimestampedKeyValueStore } from '../../src/state/metered-timestamped-key-value-store.js'
import { codeOf } from './helpers/expect-code.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'
import { TestStateStoreContext } from './helpers/test-state-store-context.js'
import { intSerde, stringSerde } from './helpers/test-serdes.js'

describe('MeteredTimestampedKeyValueStore', () => {
  function open(context = new TestStateStoreContext(), withSerdes = true) {
    const inner = new SimpleBytesStore('latest')
    const store = new MeteredTimestampedKeyValueStore<string, number>({
      inner,
      metricsScope: 'test',
      ...(withSerdes ? { keySerde: stringSerde, valueSerde: intSerde } : {})
    })
    store.init(context, store)
    return { inner, store, context }
  }

  it('stores [8-byte big-endian timestamp][value bytes] in the bytes store', () => {
    const { inner, store } = open()
    store.put('k', ValueAndTimestamp.make(42, 1700000000000))
    expect(inner.get(Buffer.from('k'))?.toString('hex')).to.equal('0000018bcfe568000000002a')
    const vt = store.get('k')
    expect(vt?.value).to.equal(42)
    expect(vt?.timestamp).to.equal(1700000000000)
  })

  it('treats a null ValueAndTimestamp as a delete', () => {
    const { store } = open()
    store.put('k', ValueAndTimestamp.make(1, 1))
    store.put('k', ValueAndTimestamp.make<number>(null, 2))
    expect(store.get('k')).to.equal(null)
    expect(store.approximateNumEntries()).to.equal(0)
  })

  it('wraps the default value serde from the config', () => {
    const { inner, store } = open(new TestStateStoreContext({ defaultKeySerde: stringSerde, defaultValueSerde: intSerde }), false)
    store.put('k', ValueAndTimestamp.make(-2, 7))
    expect(inner.get(Buffer.from('k'))?.toString('hex')).to.equal('0000000000000007fffffffe')
  })

  it('fails init with INVALID_CONFIG when there is no value serde', () => {
    const store = new MeteredTimestampedKeyValueStore<string, number>({
      inner: new SimpleBytesStore('latest'),
      metricsScope: 'test',
      keySerde: stringSerde
    })
    expect(codeOf(() => store.init(new TestStateStoreContext(), store))).to.equal('INVALID_CONFIG')
  })

  it('restores a timestamped value from the plain changelog value and the record timestamp', () => {
    const { store, context } = open()
    context.restore('latest', [{ key: Buffer.from('k'), value: Buffer.from('0000002a', 'hex'), timestamp: 5 }])
    const vt = store.get('k')
    expect(vt?.value).to.equal(42)
    expect(vt?.timestamp).to.equal(5)
  })
})
