/**
 * A Processor API topology with a RocksDB store in a temporary state directory: closing the test
 * driver and creating a new one on the same directory finds the state where it was.
 */
import { expect } from 'chai'
import { Serdes, Topology, ValueAndTimestamp } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record, TimestampedKeyValueStore, WindowStore } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { RocksDBStores } from '../src/rocksdb-stores.js'
import { StoreFixture } from './helpers/open-store.js'

const S = Serdes.String()
const L = Serdes.Long()

/** Counts values per key in the RocksDB store "counts" and forwards the new count. */
function counting (timestamped: boolean): Topology {
  const builder = timestamped
    ? Stores.timestampedKeyValueStoreBuilder(RocksDBStores.persistentTimestampedKeyValueStore('counts'), S, L)
    : Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('counts'), S, L)
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('count', () => {
      let ctx: ProcessorContext<string, number>
      return {
        init (c: ProcessorContext<string, number>) { ctx = c },
        process (r: Record<string, string>) {
          let next: number
          if (timestamped) {
            const store = ctx.getStateStore<TimestampedKeyValueStore<string, number>>('counts')
            next = (store.get(r.key)?.value ?? 0) + 1
            store.put(r.key, ValueAndTimestamp.make(next, r.timestamp))
          } else {
            const store = ctx.getStateStore<KeyValueStore<string, number>>('counts')
            next = (store.get(r.key) ?? 0) + 1
            store.put(r.key, next)
          }
          ctx.forward(r.withValue(next))
        }
      }
    }, 'source')
    .addStateStore(builder, 'count')
    .addSink('sink', 'output', { keySerializer: S, valueSerializer: L }, 'count')
}

/** Counts values per key and 1-second tumbling window in the RocksDB window store "windows". */
function windowedCounting (): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('count', () => {
      let ctx: ProcessorContext<string, number>
      return {
        init (c: ProcessorContext<string, number>) { ctx = c },
        process (r: Record<string, string>) {
          const store = ctx.getStateStore<WindowStore<string, number>>('windows')
          const start = r.timestamp - (r.timestamp % 1000)
          const next = (store.fetch(r.key, start) ?? 0) + 1
          store.put(r.key, next, start)
          ctx.forward(r.withValue(next))
        }
      }
    }, 'source')
    .addStateStore(Stores.windowStoreBuilder(RocksDBStores.persistentWindowStore('windows', 60_000, 1000, false), S, L), 'count')
    .addSink('sink', 'output', { keySerializer: S, valueSerializer: L }, 'count')
}

describe('TopologyTestDriver with a RocksDB store: restart on the same state directory', () => {
  const fixture = new StoreFixture()
  after(async () => { await fixture.cleanup() })

  for (const timestamped of [false, true]) {
    it(`keeps the ${timestamped ? 'timestamped ' : ''}state across a driver restart`, async () => {
      const stateDir = await fixture.dirs.make()
      const config = { applicationId: 'restart-app', stateDir }

      const first = await TopologyTestDriver.create(counting(timestamped), config)
      const input = first.createInputTopic('input', S, S)
      input.pipeInput('a', 'x', 1)
      input.pipeInput('b', 'x', 2)
      input.pipeInput('a', 'x', 3)
      expect(first.createOutputTopic('output', S, L).readValuesToList()).to.deep.equal([1, 1, 2])
      first.close()

      const storeDir = join(stateDir, 'restart-app', '0_0', 'rocksdb', 'counts')
      expect((await stat(storeDir)).mode & 0o777).to.equal(0o700)

      const second = await TopologyTestDriver.create(counting(timestamped), config)
      const again = second.createInputTopic('input', S, S)
      again.pipeInput('a', 'x', 4)
      again.pipeInput('c', 'x', 5)
      expect(second.createOutputTopic('output', S, L).readValuesToList()).to.deep.equal([3, 1])
      const counts = second.getKeyValueStore<string, number>('counts')!
      expect([...counts.all()].map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['a=3', 'b=1', 'c=1'])
      if (timestamped) {
        expect(second.getTimestampedKeyValueStore<string, number>('counts')!.get('a')?.timestamp).to.equal(4)
      }
      second.close()

      // The driver's close released the files: a third driver opens at once and sees it all.
      const third = await TopologyTestDriver.create(counting(timestamped), config)
      expect(third.getKeyValueStore<string, number>('counts')!.approximateNumEntries()).to.equal(3)
      third.close()
    })
  }

  it('keeps a window store across a driver restart', async () => {
    const config = { applicationId: 'restart-app', stateDir: await fixture.dirs.make() }
    const first = await TopologyTestDriver.create(windowedCounting(), config)
    const input = first.createInputTopic('input', S, S)
    input.pipeInput('a', 'x', 100)
    input.pipeInput('a', 'x', 900)
    input.pipeInput('a', 'x', 1100)
    first.close()
    const second = await TopologyTestDriver.create(windowedCounting(), config)
    second.createInputTopic('input', S, S).pipeInput('a', 'x', 500)
    expect(second.createOutputTopic('output', S, L).readValuesToList()).to.deep.equal([3])
    const windows = second.getWindowStore<string, number>('windows')!
    expect([...windows.fetch('a', 0, 5000)].map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['0=3', '1000=1'])
    second.close()
  })

  it('a driver on another state directory starts empty', async () => {
    const config = { applicationId: 'restart-app', stateDir: await fixture.dirs.make() }
    const driver = await TopologyTestDriver.create(counting(false), config)
    driver.createInputTopic('input', S, S).pipeInput('a', 'x', 1)
    expect(driver.createOutputTopic('output', S, L).readValuesToList()).to.deep.equal([1])
    driver.close()
  })
})
