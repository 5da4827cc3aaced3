import { expect } from 'chai'
import { ConfigError, SerializationError } from '../../src/errors.js'
import { KeyValue } from '../../src/key-value.js'
import type { Serializer } from '../../src/serialization/serde.js'
import { MeteredKeyValueStore } from '../../src/state/metered-key-value-store.js'
import { codeOf, errorOf } from './helpers/expect-code.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'
import { TestStateStoreContext } from './helpers/test-state-store-context.js'
import { intSerde, RecordingSerde, stringSerde, stringSerializer, throwingSerde } from './helpers/test-serdes.js'

const CHANGELOG = 'test-app-words-changelog'

function open<K, V>(
  options: { keySerde?: RecordingSerde<K> | typeof stringSerde; valueSerde?: RecordingSerde<V> | typeof intSerde },
  context = new TestStateStoreContext()
) {
  const inner = new SimpleBytesStore('words')
  const store = new MeteredKeyValueStore<K, V>({ inner, metricsScope: 'test', ...options } as never)
  store.init(context, store)
  return { inner, store, context }
}

const str = (s: string): Buffer => Buffer.from(s, 'utf8')
const int = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}

describe('MeteredKeyValueStore', () => {
  it('stores serialized keys and values in the inner bytes store', () => {
    const { inner, store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    store.put('a', 1)
    expect(inner.get(str('a'))).to.deep.equal(int(1))
    expect(store.get('a')).to.equal(1)
    expect(store.get('missing')).to.equal(null)
  })

  it('passes the changelog topic <applicationId>-<store>-changelog to the serdes', () => {
    const keys = new RecordingSerde(stringSerde)
    const values = new RecordingSerde(intSerde)
    const { store } = open<string, number>({ keySerde: keys, valueSerde: values })
    store.put('a', 1)
    store.get('a')
    expect(keys.serializeTopics).to.deep.equal([CHANGELOG, CHANGELOG])
    expect(values.serializeTopics).to.deep.equal([CHANGELOG])
    expect(values.deserializeTopics).to.deep.equal([CHANGELOG])
  })

  it('supports every KeyValueStore operation through the serdes', () => {
    const { store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    expect(store.putIfAbsent('a', 1)).to.equal(null)
    expect(store.putIfAbsent('a', 2)).to.equal(1)
    store.putAll([new KeyValue('b', 2), new KeyValue('c', 3), new KeyValue('a', null)])
    expect(store.get('a')).to.equal(null)
    expect(store.delete('b')).to.equal(2)
    expect(store.delete('b')).to.equal(null)
    store.put('d', 4)
    store.put('c', null)
    expect(store.approximateNumEntries()).to.equal(1)
    expect([...store.all()].map(kv => [kv.key, kv.value])).to.deep.equal([['d', 4]])
  })

  it('iterates ranges in serialized-key order, forward and reverse', () => {
    const { store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    for (const [i, k] of ['b', 'a', 'd', 'c', 'e'].entries()) store.put(k, i)
    const keys = (it: Iterable<KeyValue<string, number>>): string[] => [...it].map(kv => kv.key)
    expect(keys(store.range('b', 'd'))).to.deep.equal(['b', 'c', 'd'])
    expect(keys(store.reverseRange('b', 'd'))).to.deep.equal(['d', 'c', 'b'])
    expect(keys(store.range(undefined, 'b'))).to.deep.equal(['a', 'b'])
    expect(keys(store.range('d', undefined))).to.deep.equal(['d', 'e'])
    expect(keys(store.all())).to.deep.equal(['a', 'b', 'c', 'd', 'e'])
    expect(keys(store.reverseAll())).to.deep.equal(['e', 'd', 'c', 'b', 'a'])
  })

  it('serializes the prefix with the given serializer on the changelog topic', () => {
    const { store, inner } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    for (const k of ['ab', 'a', 'b', 'abc']) store.put(k, 1)
    const topics: string[] = []
    const prefixSerializer: Serializer<string> = {
      serialize: (topic, data) => {
        topics.push(topic)
        return stringSerializer.serialize(topic, data)
      }
    }
    expect([...store.prefixScan('ab', prefixSerializer)].map(kv => kv.key)).to.deep.equal(['ab', 'abc'])
    expect(topics).to.deep.equal([CHANGELOG])
    expect(inner.prefixTopics).to.have.length(1)
  })

  it('deserializes iterator entries lazily, one at a time', () => {
    const keys = new RecordingSerde(stringSerde)
    const values = new RecordingSerde(intSerde)
    const { store } = open<string, number>({ keySerde: keys, valueSerde: values })
    for (const k of ['a', 'b', 'c']) store.put(k, 1)
    const iterator = store.all()
    expect(keys.deserializeCount).to.equal(0)
    expect(values.deserializeCount).to.equal(0)
    expect(iterator.next().value?.key).to.equal('a')
    expect(keys.deserializeCount).to.equal(1)
    expect(values.deserializeCount).to.equal(1)
    expect(iterator.peekNextKey()).to.equal('b')
    expect(values.deserializeCount).to.equal(1)
    iterator.close()
  })

  it('closes the inner iterator on close(), on dispose and when a for...of loop breaks', () => {
    const { store, inner } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    for (const k of ['a', 'b']) store.put(k, 1)
    store.all().close()
    store.all()[Symbol.dispose]()
    for (const kv of store.all()) {
      expect(kv.key).to.equal('a')
      break
    }
    expect(inner.openIterators.size).to.equal(0)
    store.all()
    expect(inner.openIterators.size).to.equal(1)
  })

  it('takes the default serdes from the config when none were given', () => {
    const context = new TestStateStoreContext({ defaultKeySerde: stringSerde, defaultValueSerde: intSerde })
    const { store, inner } = open<string, number>({}, context)
    store.put('k', 7)
    expect(inner.get(str('k'))).to.deep.equal(int(7))
    expect(store.get('k')).to.equal(7)
  })

  it('prefers the given serdes over the defaults', () => {
    const context = new TestStateStoreContext({ defaultKeySerde: intSerde, defaultValueSerde: stringSerde })
    const { store, inner } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde }, context)
    store.put('k', 7)
    expect(inner.get(str('k'))).to.deep.equal(int(7))
  })

  it('fails init with INVALID_CONFIG naming the store when no key serde is set anywhere', () => {
    const inner = new SimpleBytesStore('words')
    const store = new MeteredKeyValueStore<string, number>({ inner, metricsScope: 'test', valueSerde: intSerde })
    const context = new TestStateStoreContext()
    const err = errorOf(() => store.init(context, store))
    expect(err).to.be.instanceOf(ConfigError)
    expect(err.code).to.equal('INVALID_CONFIG')
    expect((err as ConfigError).key).to.equal('defaultKeySerde')
    expect(err.message).to.include('"words"')
    expect(context.registered).to.have.length(0)
    expect(inner.isOpen()).to.equal(false)
  })

  it('fails init with INVALID_CONFIG when no value serde is set anywhere', () => {
    const inner = new SimpleBytesStore('words')
    const store = new MeteredKeyValueStore<string, number>({ inner, metricsScope: 'test', keySerde: stringSerde })
    const err = errorOf(() => store.init(new TestStateStoreContext({ defaultKeySerde: stringSerde }), store))
    expect(err.code).to.equal('INVALID_CONFIG')
    expect((err as ConfigError).key).to.equal('defaultValueSerde')
  })

  it('registers the root store and restores typed data from changelog byte records', () => {
    const { store, context } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    expect(context.registered).to.have.length(1)
    expect(context.registered[0]!.store).to.equal(store)
    context.restore('words', [
      { key: str('x'), value: int(1) },
      { key: str('y'), value: int(2) },
      { key: str('x'), value: int(3) },
      { key: str('y'), value: null }
    ])
    expect(store.get('x')).to.equal(3)
    expect(store.get('y')).to.equal(null)
    expect(store.approximateNumEntries()).to.equal(1)
  })

  it('throws STORE_NOT_OPEN for every operation before init', () => {
    const store = new MeteredKeyValueStore<string, number>({
      inner: new SimpleBytesStore('words'),
      metricsScope: 'test',
      keySerde: stringSerde,
      valueSerde: intSerde
    })
    const ops: Array<() => unknown> = [
      () => store.get('a'),
      () => store.put('a', 1),
      () => store.putIfAbsent('a', 1),
      () => store.putAll([]),
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
  })

  it('passes on STORE_NOT_OPEN from the inner store after close', () => {
    const { store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    store.close()
    expect(store.isOpen()).to.equal(false)
    expect(codeOf(() => store.get('a'))).to.equal('STORE_NOT_OPEN')
    expect(codeOf(() => store.put('a', 1))).to.equal('STORE_NOT_OPEN')
  })

  it('rejects a null key with ILLEGAL_ARGUMENT', () => {
    const { store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    expect(codeOf(() => store.put(null as unknown as string, 1))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => store.get(undefined as unknown as string))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('wraps what a user serde throws in a SerializationError keeping the cause', () => {
    const { store } = open<string, string>({ keySerde: stringSerde, valueSerde: throwingSerde as never })
    const err = errorOf(() => store.put('a', 'v'))
    expect(err).to.be.instanceOf(SerializationError)
    expect(err.code).to.equal('SERIALIZATION')
    expect(err.cause).to.be.instanceOf(TypeError)
  })

  it('delegates name and persistent to the inner store', () => {
    const { store } = open<string, number>({ keySerde: stringSerde, valueSerde: intSerde })
    expect(store.name).to.equal('words')
    expect(store.persistent).to.equal(false)
    expect(store.metricsScope).to.equal('test')
  })
})
