import { expect } from 'chai'
import { ConfigError, KeyValue, ValueAndTimestamp } from '@kstreams/core'
import type { KeyValueBytesStore, KeyValueIterator, KeyValueStore, Serde, StateStore } from '@kstreams/core'
import { InMemoryKeyValueStore } from '../src/in-memory-key-value-store.js'
import { Stores } from '../src/stores.js'
import { codeOf } from '../src/compliance/expect-code.js'
import { createTestStoreContext } from '../src/compliance/test-context.js'
import { intSerde, stringSerde, stringSerializer } from './helpers/test-serdes.js'

function init<S extends StateStore>(store: S, context = createTestStoreContext()): S {
  void store.init(context, store)
  return store
}

function typedStore<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>, name = 'typed'): KeyValueStore<K, V> {
  return init(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), keySerde, valueSerde).build())
}

const keys = <K, V>(it: KeyValueIterator<K, V>): K[] => [...it].map(kv => kv.key)

describe('Stores', () => {
  describe('inMemoryKeyValueStore', () => {
    it('supplies a new in-memory, non-persistent bytes store per get(), scope in-memory', () => {
      const supplier = Stores.inMemoryKeyValueStore('counts')
      expect(supplier.name).to.equal('counts')
      expect(supplier.metricsScope).to.equal('in-memory')
      const a = supplier.get()
      const b = supplier.get()
      expect(a).to.be.instanceOf(InMemoryKeyValueStore)
      expect(a).to.not.equal(b)
      expect(a.name).to.equal('counts')
      expect(a.persistent).to.equal(false)
    })

    for (const name of ['', '../x', 'a/b', '..', 'with space', 'x'.repeat(250)]) {
      it(`rejects the store name ${JSON.stringify(name.slice(0, 20))} with ILLEGAL_ARGUMENT`, () => {
        expect(codeOf(() => Stores.inMemoryKeyValueStore(name))).to.equal('ILLEGAL_ARGUMENT')
      })
    }
  })

  describe('keyValueStoreBuilder', () => {
    it('builds a typed store named after the supplier, logging on with no overrides', () => {
      const builder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('words'), stringSerde, intSerde)
      expect(builder.name).to.equal('words')
      expect(builder.loggingEnabled).to.equal(true)
      expect(builder.logConfig).to.deep.equal({})
      const a = builder.build()
      expect(a).to.not.equal(builder.build())
      expect(a.name).to.equal('words')
      expect(a.persistent).to.equal(false)
    })

    it('supports every KeyValueStore operation', () => {
      const store = typedStore(stringSerde, intSerde)
      expect(store.get('a')).to.equal(null)
      store.put('a', 1)
      expect(store.get('a')).to.equal(1)
      expect(store.putIfAbsent('a', 2)).to.equal(1)
      expect(store.putIfAbsent('b', 2)).to.equal(null)
      store.putAll([new KeyValue('c', 3), new KeyValue('d', 4), new KeyValue('b', null)])
      expect(store.get('b')).to.equal(null)
      store.put('c', null)
      expect(store.delete('d')).to.equal(4)
      expect(store.delete('d')).to.equal(null)
      for (const [i, k] of ['e', 'f', 'g'].entries()) store.put(k, i)
      expect(store.approximateNumEntries()).to.equal(4)
      expect(keys(store.all())).to.deep.equal(['a', 'e', 'f', 'g'])
      expect(keys(store.reverseAll())).to.deep.equal(['g', 'f', 'e', 'a'])
      expect(keys(store.range('b', 'f'))).to.deep.equal(['e', 'f'])
      expect(keys(store.reverseRange('b', 'f'))).to.deep.equal(['f', 'e'])
      expect(keys(store.range(undefined, 'e'))).to.deep.equal(['a', 'e'])
      expect(keys(store.range('f', undefined))).to.deep.equal(['f', 'g'])
      expect(keys(store.range('g', 'a'))).to.deep.equal([])
      expect([...store.all()].map(kv => kv.value)).to.deep.equal([1, 0, 1, 2])
      store.flush()
    })

    it('orders int keys by serialized bytes: negatives after positives, as in Kafka', () => {
      const store = typedStore(intSerde, stringSerde)
      for (const k of [3, -1, 0, 2147483647, -2147483648, 256, -256, 1]) store.put(k, String(k))
      expect(keys(store.all())).to.deep.equal([0, 1, 3, 256, 2147483647, -2147483648, -256, -1])
      expect(keys(store.range(0, 300))).to.deep.equal([0, 1, 3, 256])
      // -1 serializes as ffffffff, above 0: the range is empty, not everything between -1 and 1
      expect(keys(store.range(-1, 1))).to.deep.equal([])
      expect(keys(store.range(1, -1))).to.deep.equal([1, 3, 256, 2147483647, -2147483648, -256, -1])
    })

    it('orders string keys by UTF-8 bytes, not by UTF-16 code units', () => {
      const store = typedStore(stringSerde, intSerde)
      // U+FF5E (ef bd 9e) < U+1F600 (f0 9f 98 80) in UTF-8, but not in UTF-16 (d83d < ff5e)
      const words = ['z', 'é', '€', '\u{1F600}', '\uFF5E', 'e', 'ß', 'A']
      for (const w of words) store.put(w, 1)
      const byBytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
      expect(byBytes.indexOf('\uFF5E')).to.be.lessThan(byBytes.indexOf('\u{1F600}'))
      expect(keys(store.all())).to.deep.equal(byBytes)
      expect(keys(store.all())).to.deep.equal(['A', 'e', 'z', 'ß', 'é', '€', '\uFF5E', '\u{1F600}'])
    })

    it('orders a key before its extensions: "a" < "a\\0" < "ab" < "b"', () => {
      const store = typedStore(stringSerde, intSerde)
      for (const k of ['b', 'ab', 'a\0', 'a']) store.put(k, 1)
      expect(keys(store.all())).to.deep.equal(['a', 'a\0', 'ab', 'b'])
      expect(keys(store.range('a', 'ab'))).to.deep.equal(['a', 'a\0', 'ab'])
      expect(keys(store.range('a\0', 'b'))).to.deep.equal(['a\0', 'ab', 'b'])
      expect(keys(store.prefixScan('a', stringSerializer))).to.deep.equal(['a', 'a\0', 'ab'])
      expect(keys(store.prefixScan('ab', stringSerializer))).to.deep.equal(['ab'])
      expect(keys(store.prefixScan('c', stringSerializer))).to.deep.equal([])
    })

    it('iterators see the keys of when they were created and live values', () => {
      const store = typedStore(stringSerde, intSerde)
      for (const k of ['a', 'b', 'c']) store.put(k, 0)
      const iterator = store.all()
      expect(iterator.peekNextKey()).to.equal('a')
      store.put('aa', 9)
      store.delete('b')
      store.put('c', 5)
      expect([...iterator].map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['a=0', 'c=5'])
    })

    it('closes open iterators when the store closes', () => {
      const store = typedStore(stringSerde, intSerde)
      store.put('a', 1)
      const iterator = store.all()
      store.close()
      expect(codeOf(() => iterator.next())).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => iterator.peekNextKey())).to.equal('STORE_NOT_OPEN')
    })

    it('every operation throws STORE_NOT_OPEN before init and after close', () => {
      const builder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('lifecycle'), stringSerde, intSerde)
      const fresh = builder.build()
      const closed = init(builder.build())
      closed.close()
      for (const store of [fresh, closed]) {
        const ops: Array<() => unknown> = [
          () => store.get('a'),
          () => store.put('a', 1),
          () => store.putIfAbsent('a', 1),
          () => store.putAll([new KeyValue('a', 1)]),
          () => store.delete('a'),
          () => store.range('a', 'b'),
          () => store.reverseRange('a', 'b'),
          () => store.all(),
          () => store.reverseAll(),
          () => store.prefixScan('a', stringSerializer),
          () => store.approximateNumEntries()
        ]
        for (const op of ops) expect(codeOf(op)).to.equal('STORE_NOT_OPEN')
        expect(store.isOpen()).to.equal(false)
      }
    })

    it('takes the default serdes from the config', () => {
      const store = Stores.keyValueStoreBuilder<string, number>(Stores.inMemoryKeyValueStore('defaults')).build()
      init(store, createTestStoreContext({ config: { defaultKeySerde: stringSerde, defaultValueSerde: intSerde } }))
      store.put('x', -5)
      expect(store.get('x')).to.equal(-5)
    })

    it('fails init with INVALID_CONFIG when a serde is neither given nor configured', () => {
      const noKey = Stores.keyValueStoreBuilder<string, number>(Stores.inMemoryKeyValueStore('no-key'), undefined, intSerde).build()
      let err: unknown
      try {
        init(noKey)
      } catch (e) {
        err = e
      }
      expect(err).to.be.instanceOf(ConfigError)
      expect((err as ConfigError).code).to.equal('INVALID_CONFIG')
      expect((err as ConfigError).message).to.include('no-key')
      const noValue = Stores.keyValueStoreBuilder<string, number>(Stores.inMemoryKeyValueStore('no-value'), stringSerde).build()
      expect(codeOf(() => init(noValue))).to.equal('INVALID_CONFIG')
    })

    it('restores through the callback the bytes store registers', () => {
      const store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('restore'), stringSerde, intSerde).build()
      const context = createTestStoreContext()
      init(store, context)
      expect(context.registered.map(r => r.store)).to.deep.equal([store])
      const int = (n: number): Buffer => {
        const b = Buffer.alloc(4)
        b.writeInt32BE(n)
        return b
      }
      context.restore('restore', [
        { key: Buffer.from('a'), value: int(1) },
        { key: Buffer.from('b'), value: int(2) },
        { key: Buffer.from('a'), value: null }
      ])
      expect(store.get('a')).to.equal(null)
      expect(store.get('b')).to.equal(2)
    })
  })

  describe('timestampedKeyValueStoreBuilder', () => {
    function build(valueSerde?: Serde<number>) {
      let inner: KeyValueBytesStore | undefined
      const supplier = Stores.inMemoryKeyValueStore('latest')
      const spying = { name: supplier.name, metricsScope: supplier.metricsScope, get: () => (inner = supplier.get()) }
      const store = Stores.timestampedKeyValueStoreBuilder(spying, stringSerde, valueSerde).build()
      return { store, inner: () => inner! }
    }

    it('stores [8-byte big-endian timestamp][value bytes] in the in-memory bytes store', () => {
      const { store, inner } = build(intSerde)
      init(store)
      store.put('k', ValueAndTimestamp.make(42, 1700000000000))
      expect(inner().get(Buffer.from('k'))?.toString('hex')).to.equal('0000018bcfe568000000002a')
      const vt = store.get('k')
      expect(vt?.value).to.equal(42)
      expect(vt?.timestamp).to.equal(1700000000000)
    })

    it('restores a timestamped value from the plain changelog value and the record timestamp (as Kafka logs them)', () => {
      const { store } = build(intSerde)
      const context = createTestStoreContext()
      init(store, context)
      context.restore('latest', [{ key: Buffer.from('k'), value: Buffer.from('00000007', 'hex'), timestamp: 1234 }])
      const vt = store.get('k')
      expect(vt?.value).to.equal(7)
      expect(vt?.timestamp).to.equal(1234)
    })

    it('wraps the default value serde from the config', () => {
      const { store, inner } = build()
      init(store, createTestStoreContext({ config: { defaultValueSerde: intSerde } }))
      expect(store.putIfAbsent('k', ValueAndTimestamp.make(1, 2))).to.equal(null)
      expect(inner().get(Buffer.from('k'))?.toString('hex')).to.equal('000000000000000200000001')
      expect([...store.all()].map(kv => kv.value.toString())).to.deep.equal(['<1,2>'])
    })
  })
})
