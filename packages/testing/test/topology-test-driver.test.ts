import { expect } from 'chai'
import {
  KeyValue,
  type Record,
  Serdes,
  Topology,
  ValueAndTimestamp,
  type KeyValueStore,
  type ProcessorContext,
  type TimestampedKeyValueStore
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TestRecord, TopologyTestDriver } from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()

function passThrough(): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addSink('sink', 'output', { keySerializer: S, valueSerializer: S }, 'source')
}

/** Counts values per key in a store named "counts" (timestamped when asked) and forwards the count. */
function counting(timestamped: boolean): Topology {
  const builder = timestamped
    ? Stores.timestampedKeyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, L)
    : Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), S, L)
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let ctx: ProcessorContext<string, number>
        return {
          init(c: ProcessorContext<string, number>) {
            ctx = c
          },
          process(r: Record<string, string>) {
            if (timestamped) {
              const store = ctx.getStateStore<TimestampedKeyValueStore<string, number>>('counts')
              const next = (store.get(r.key)?.value ?? 0) + 1
              store.put(r.key, ValueAndTimestamp.make(next, r.timestamp))
              ctx.forward(r.withValue(next))
            } else {
              const store = ctx.getStateStore<KeyValueStore<string, number>>('counts')
              const next = (store.get(r.key) ?? 0) + 1
              store.put(r.key, next)
              ctx.forward(r.withValue(next))
            }
          }
        }
      },
      'source'
    )
    .addStateStore(builder, 'count')
    .addSink('sink', 'output', { keySerializer: S, valueSerializer: L }, 'count')
}

describe('TopologyTestDriver', () => {
  it('input topics stamp records from their start time and auto-advance; explicit timestamps win', () => {
    const driver = new TopologyTestDriver(passThrough())
    const input = driver.createInputTopic('input', S, S, 1000, 10)
    input.pipeInput('a')
    input.pipeInput('k', 'b')
    input.pipeInput('k', 'c', 5)
    input.advanceTime(100)
    input.pipeInput('k', 'd')
    input.pipeKeyValueList([KeyValue.pair('x', 'e'), KeyValue.pair('y', 'f')], 50, 5)
    input.pipeRecordList([new TestRecord('z', 'g', 70), { key: 'w', value: 'h' }])
    input.pipeValueList(['i'])
    const out = driver.createOutputTopic('output', S, S)
    expect(out.getQueueSize()).to.equal(9)
    expect(out.readRecordsToList().map(r => [r.key, r.value, r.timestamp])).to.deep.equal([
      [null, 'a', 1000],
      ['k', 'b', 1010],
      ['k', 'c', 5],
      ['k', 'd', 1120],
      ['x', 'e', 50],
      ['y', 'f', 55],
      ['z', 'g', 70],
      ['w', 'h', 1130],
      [null, 'i', 1140]
    ])
    expect(out.isEmpty()).to.equal(true)
    driver.close()
  })

  it('output topics read records, values, key-values and maps; an empty topic is an error', () => {
    const driver = new TopologyTestDriver(passThrough())
    const input = driver.createInputTopic('input', S, S)
    const out = driver.createOutputTopic('output', S, S)
    expect(() => out.readRecord())
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
    input.pipeKeyValueList([KeyValue.pair('a', '1'), KeyValue.pair('b', '2'), KeyValue.pair('a', '3'), KeyValue.pair('b', null)])
    expect(out.readValue()).to.equal('1')
    expect(out.readKeyValue()).to.deep.equal(KeyValue.pair('b', '2'))
    expect([...out.readKeyValuesToMap()]).to.deep.equal([
      ['a', '3'],
      ['b', null]
    ])
    input.pipeInput('c', '4')
    expect(out.readKeyValuesToList()).to.deep.equal([KeyValue.pair('c', '4')])
    expect(driver.createOutputTopic('never-written', S, S).isEmpty()).to.equal(true)
    driver.close()
  })

  it('piping to a topic the topology does not read is an error naming the topic', () => {
    const driver = new TopologyTestDriver(passThrough())
    let err: any
    try {
      driver.createInputTopic('nope', S, S)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'UNKNOWN_TOPIC')
    expect(err.message).to.contain('nope')
    driver.close()
  })

  it('state stores are readable and writable from the test; getAllStateStores lists them', () => {
    const driver = new TopologyTestDriver(counting(false))
    const input = driver.createInputTopic('input', S, S)
    input.pipeKeyValueList([KeyValue.pair('a', 'x'), KeyValue.pair('b', 'x'), KeyValue.pair('a', 'x')])
    const store = driver.getKeyValueStore<string, number>('counts')!
    expect(store.get('a')).to.equal(2)
    expect(store.get('b')).to.equal(1)
    store.put('b', 10)
    input.pipeInput('b', 'x')
    expect(driver.createOutputTopic('output', S, L).readKeyValuesToList().at(-1)).to.deep.equal(KeyValue.pair('b', 11))
    expect([...driver.getAllStateStores().keys()]).to.deep.equal(['counts'])
    expect(driver.getStateStore('missing')).to.equal(undefined)
    expect(() => driver.getTimestampedKeyValueStore('counts'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    driver.close()
  })

  it('a timestamped store is readable with timestamps, or as plain values through getKeyValueStore', () => {
    const driver = new TopologyTestDriver(counting(true))
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'x', 10)
    input.pipeInput('a', 'x', 20)
    const ts = driver.getTimestampedKeyValueStore<string, number>('counts')!
    expect(ts.get('a')?.value).to.equal(2)
    expect(ts.get('a')?.timestamp).to.equal(20)
    const plain = driver.getKeyValueStore<string, number>('counts')!
    expect(plain.get('a')).to.equal(2)
    using it = plain.all()
    expect([...it]).to.deep.equal([KeyValue.pair('a', 2)])
    driver.close()
  })

  it('stores are closed when the driver closes', () => {
    const driver = new TopologyTestDriver(counting(false))
    const store = driver.getStateStore('counts')!
    expect(store.isOpen()).to.equal(true)
    driver.close()
    expect(store.isOpen()).to.equal(false)
  })

  it('global stores are fed by piping to their topic and readable from any processor', () => {
    const seen: Array<string | null> = []
    const topology = new Topology()
      .addGlobalStore(
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('users'), S, S).withLoggingDisabled(),
        'users-source',
        { keyDeserializer: S, valueDeserializer: S },
        'users',
        'users-updater',
        () => {
          let store: KeyValueStore<string, string>
          return {
            init(ctx: ProcessorContext<never, never>) {
              store = ctx.getStateStore('users')
            },
            process(r: Record<string, string>) {
              store.put(r.key, r.value)
            }
          }
        }
      )
      .addSource('source', 'clicks', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor(
        'enrich',
        () => {
          let ctx: ProcessorContext<string, string>
          return {
            init(c: ProcessorContext<string, string>) {
              ctx = c
            },
            process(r: Record<string, string>) {
              const user = ctx.getStateStore<KeyValueStore<string, string>>('users').get(r.key)
              seen.push(user)
              ctx.forward(r.withValue(`${r.value}@${user ?? '?'}`))
            }
          }
        },
        'source'
      )
      .addSink('sink', 'enriched', { keySerializer: S, valueSerializer: S }, 'enrich')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('users', S, S).pipeInput('u1', 'Alice', 1)
    const clicks = driver.createInputTopic('clicks', S, S)
    clicks.pipeInput('u1', 'home', 2)
    clicks.pipeInput('u2', 'about', 3)
    expect(seen).to.deep.equal(['Alice', null])
    expect(driver.createOutputTopic('enriched', S, S).readValuesToList()).to.deep.equal(['home@Alice', 'about@?'])
    expect(driver.getKeyValueStore<string, string>('users')!.get('u1')).to.equal('Alice')
    driver.close()
  })

  it('rejects an application id that cannot be a directory name, as the runtime does, naming applicationId', () => {
    for (const applicationId of ['..', '.', 'a'.repeat(250)]) {
      expect(() => new TopologyTestDriver(counting(false), { applicationId }), applicationId)
        .to.throw()
        .that.includes({ code: 'INVALID_CONFIG', key: 'applicationId' })
    }
  })

  it('rejects unknown config keys, naming the key', () => {
    let err: any
    try {
      new TopologyTestDriver(passThrough(), { applicationID: 'x' } as any)
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'INVALID_CONFIG')
    expect(err).to.have.property('key', 'applicationID')
  })

  it('a store that opens asynchronously needs TopologyTestDriver.create', async () => {
    const asyncBuilder = {
      name: 'async-store',
      loggingEnabled: false,
      logConfig: {},
      build() {
        let open = false
        return {
          name: 'async-store',
          persistent: true,
          async init() {
            await new Promise(resolve => setTimeout(resolve, 5))
            open = true
          },
          flush() {},
          close() {
            open = false
          },
          isOpen() {
            return open
          }
        }
      }
    }
    const topology = passThrough()
      .addProcessor('p', () => ({ process() {} }), 'source')
      .addStateStore(asyncBuilder, 'p')
    const sync = new TopologyTestDriver(topology)
    expect(() => sync.createInputTopic('input', S, S).pipeInput('k', 'v'))
      .to.throw()
      .with.property('code', 'ILLEGAL_STATE')
    const driver = await TopologyTestDriver.create(topology)
    driver.createInputTopic('input', S, S).pipeInput('k', 'v')
    expect(driver.getStateStore('async-store')!.isOpen()).to.equal(true)
    expect(driver.createOutputTopic('output', S, S).readValue()).to.equal('v')
    driver.close()
  })
})
