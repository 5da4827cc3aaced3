/**
 * The state directory of a TopologyTestDriver, with a RocksDB store (as Kafka Streams' driver):
 * each driver has its own (a fresh temporary directory unless `stateDir` is given), so
 * independent tests never see each other's state and two drivers with the same application id
 * run at once; close() removes it (closeAsync() once RocksDB has let go of its files, which it
 * does in the background).
 */
import { expect } from 'chai'
import { Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessorContext, Record } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RocksDBStores } from '../src/rocksdb-stores.js'

const S = Serdes.String()
const L = Serdes.Long()

/** Counts values per key in the RocksDB store "counts". */
function counting(): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor(
      'count',
      () => {
        let store: KeyValueStore<string, number>
        return {
          init(c: ProcessorContext<never, never>) {
            store = c.getStateStore<KeyValueStore<string, number>>('counts')
          },
          process(r: Record<string, string>) {
            store.put(r.key, (store.get(r.key) ?? 0) + 1)
          }
        }
      },
      'source'
    )
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('counts'), S, L), 'count')
}

async function countOnce(driver: TopologyTestDriver): Promise<number | null> {
  driver.createInputTopic('input', S, S).pipeInput('word', 'x')
  return driver.getKeyValueStore<string, number>('counts')!.get('word')
}

const exists = async (path: string): Promise<boolean> =>
  await stat(path).then(
    () => true,
    () => false
  )

describe('TopologyTestDriver with a RocksDB store: the state directory of a driver', function () {
  this.timeout(20_000)
  // The OS temporary directory of these tests, to see what the drivers leave in it.
  let tmp: string
  let savedTmp: string | undefined
  beforeEach(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'kstreams-driver-tmp-'))
    savedTmp = process.env.TMPDIR
    process.env.TMPDIR = tmp
  })
  afterEach(async () => {
    if (savedTmp === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = savedTmp
    await rm(tmp, { recursive: true, force: true })
  })

  it('independent drivers each start from empty state, and closeAsync() removes their directory', async () => {
    for (let test = 1; test <= 3; test++) {
      const driver = await TopologyTestDriver.create(counting())
      expect(await countOnce(driver), `driver #${test}`).to.equal(1)
      expect(await readdir(tmp)).to.have.length(1)
      await driver.closeAsync()
      expect(await readdir(tmp)).to.deep.equal([])
    }
  })

  it('two drivers with the same application id run at once', async () => {
    const first = await TopologyTestDriver.create(counting(), { applicationId: 'same-app' })
    const second = await TopologyTestDriver.create(counting(), { applicationId: 'same-app' })
    expect([await countOnce(first), await countOnce(second), await countOnce(first)]).to.deep.equal([1, 1, 2])
    await first.closeAsync()
    await second.closeAsync()
    expect(await readdir(tmp)).to.deep.equal([])
  })

  it('with a stateDir given, closeAsync() removes <stateDir>/<applicationId>: the next driver there starts empty, at once', async () => {
    const stateDir = await mkdtemp(join(tmp, 'given-'))
    const config = { applicationId: 'given-app', stateDir }
    const first = await TopologyTestDriver.create(counting(), config)
    expect(await countOnce(first)).to.equal(1)
    expect((await stat(join(stateDir, 'given-app', '0_0', 'rocksdb', 'counts'))).mode & 0o777).to.equal(0o700)
    await first.closeAsync()
    expect(await exists(join(stateDir, 'given-app'))).to.equal(false)
    expect(await exists(stateDir)).to.equal(true)
    const started = Date.now()
    const second = await TopologyTestDriver.create(counting(), config)
    expect(Date.now() - started).to.be.below(2000)
    expect(await countOnce(second)).to.equal(1)
    await second.closeAsync()
  })
})
