import { expect } from 'chai'
import { KeyValue } from '../../src/key-value.js'
import { ChangeLoggingKeyValueBytesStore } from '../../src/state/change-logging-key-value-bytes-store.js'
import { ChangeLoggingTimestampedKeyValueBytesStore } from '../../src/state/change-logging-timestamped-key-value-bytes-store.js'
import { LayerTestContext } from './helpers/layer-test-context.js'
import { SimpleBytesStore } from './helpers/simple-bytes-store.js'

const s = (text: string): Buffer => Buffer.from(text, 'utf8')

/** `[8-byte big-endian timestamp][value]`, the stored layout of timestamped stores. */
function timestamped(value: string, timestamp: number): Buffer {
  const out = Buffer.alloc(8 + Buffer.byteLength(value))
  out.writeBigInt64BE(BigInt(timestamp))
  out.write(value, 8)
  return out
}

function open(logged = true) {
  const context = new LayerTestContext({ logged })
  const backend = new SimpleBytesStore('words')
  const store = new ChangeLoggingKeyValueBytesStore(backend)
  store.init(context, store)
  return { context, backend, store }
}

describe('ChangeLoggingKeyValueBytesStore', () => {
  it('writes below, then appends (key, value, record timestamp) to the changelog', () => {
    const { context, backend, store } = open()
    context.at(42)
    store.put(s('a'), s('1'))
    expect(backend.get(s('a'))?.toString()).to.equal('1')
    expect(context.changelog).to.deep.equal([{ store: 'words', key: 'a', value: '1', timestamp: 42 }])
  })

  it('logs deletes (delete and put null) as null values, even of absent keys', () => {
    const { context, store } = open()
    store.put(s('a'), s('1'))
    context.at(5)
    expect(store.delete(s('a'))?.toString()).to.equal('1')
    context.at(6)
    store.put(s('b'), null)
    context.at(7)
    expect(store.delete(s('never'))).to.equal(null)
    expect(context.changelog.slice(1).map(c => [c.key, c.value, c.timestamp])).to.deep.equal([
      ['a', null, 5],
      ['b', null, 6],
      ['never', null, 7]
    ])
  })

  it('logs putIfAbsent only when it wrote, and every entry of putAll in order', () => {
    const { context, store } = open()
    expect(store.putIfAbsent(s('a'), s('1'))).to.equal(null)
    expect(store.putIfAbsent(s('a'), s('2'))?.toString()).to.equal('1')
    store.putAll([new KeyValue(s('c'), s('3')), new KeyValue(s('b'), null)])
    expect(context.changelog.map(c => [c.key, c.value])).to.deep.equal([
      ['a', '1'],
      ['c', '3'],
      ['b', null]
    ])
  })

  it('passes reads through without logging', () => {
    const { context, store } = open()
    store.put(s('a'), s('1'))
    store.get(s('a'))
    expect([...store.all()].map(kv => kv.key.toString())).to.deep.equal(['a'])
    expect(store.approximateNumEntries()).to.equal(1)
    expect(context.changelog).to.have.length(1)
  })

  it('only writes below when its context has no changelog writer', () => {
    const { context, backend, store } = open(false)
    store.put(s('a'), s('1'))
    store.delete(s('a'))
    store.put(s('b'), s('2'))
    expect(backend.get(s('b'))?.toString()).to.equal('2')
    expect(context.changelog).to.deep.equal([])
  })
})

describe('ChangeLoggingTimestampedKeyValueBytesStore', () => {
  function openTimestamped() {
    const context = new LayerTestContext()
    const backend = new SimpleBytesStore('words')
    const store = new ChangeLoggingTimestampedKeyValueBytesStore(backend)
    store.init(context, store)
    return { context, backend, store }
  }

  it('logs the plain value with the stored timestamp as the record timestamp, as Kafka Streams does', () => {
    const { context, backend, store } = openTimestamped()
    context.at(99)
    store.put(s('a'), timestamped('hello', 1234))
    expect(backend.get(s('a'))).to.deep.equal(timestamped('hello', 1234))
    store.putIfAbsent(s('b'), timestamped('x', 5))
    store.putAll([new KeyValue(s('c'), timestamped('y', 6))])
    expect(context.rawChangelog.map(r => [r.key.toString(), r.value?.toString(), r.timestamp])).to.deep.equal([
      ['a', 'hello', 1234],
      ['b', 'x', 5],
      ['c', 'y', 6]
    ])
  })

  it('logs a delete with the current record timestamp', () => {
    const { context, store } = openTimestamped()
    store.put(s('a'), timestamped('v', 1))
    context.at(77)
    store.delete(s('a'))
    store.put(s('b'), null)
    expect(context.changelog.slice(1).map(c => [c.key, c.value, c.timestamp])).to.deep.equal([
      ['a', null, 77],
      ['b', null, 77]
    ])
  })
})
