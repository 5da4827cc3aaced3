/**
 * `new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })`: every DSL store without an
 * explicit supplier is a RocksDB store (files under the task directory); the default builder keeps
 * them in memory.
 */
import { expect } from 'chai'
import { Serdes, type Topology } from '@kstreams/core'
import { Consumed, Grouped, Materialized, StreamsBuilder } from '@kstreams/dsl'
import { TopologyTestDriver } from '@kstreams/testing'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { RocksDBDslStoreSuppliers } from '../src/rocksdb-dsl-store-suppliers.js'
import { StoreFixture } from './helpers/open-store.js'

const S = Serdes.String()
const L = Serdes.Long()

function wordCount(builder: StreamsBuilder): Topology {
  builder
    .stream('lines', Consumed.with(S, S))
    .flatMapValues(line => line.split(' '))
    .groupBy((_key, word) => word, Grouped.with(S, S))
    .count(Materialized.as<string, number>('counts').withKeySerde(S).withValueSerde(L))
  return builder.build()
}

const exists = async (path: string): Promise<boolean> =>
  await stat(path).then(
    () => true,
    () => false
  )

describe('RocksDBDslStoreSuppliers (dslStoreSuppliers)', () => {
  const fixture = new StoreFixture()
  after(async () => {
    await fixture.cleanup()
  })

  it('makes DSL stores persistent RocksDB stores: files in the task directory, removed with it at close', async () => {
    const stateDir = await fixture.dirs.make()
    const config = { applicationId: 'dsl-rocks', stateDir }
    const driver = await TopologyTestDriver.create(wordCount(new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })), config)
    const input = driver.createInputTopic('lines', S, S)
    input.pipeInput('1', 'a b a')
    input.pipeInput('2', 'a')
    expect(driver.getTimestampedKeyValueStore<string, number>('counts')!.get('a')!.value).to.equal(3)
    expect(driver.getTimestampedKeyValueStore<string, number>('counts')!.persistent).to.equal(true)
    expect(await exists(join(stateDir, 'dsl-rocks', '0_0', 'rocksdb', 'counts'))).to.equal(true)
    driver.close()
    expect(await exists(join(stateDir, 'dsl-rocks'))).to.equal(false)
  })

  it('without it the DSL stores are in memory', async () => {
    const stateDir = await fixture.dirs.make()
    const driver = new TopologyTestDriver(wordCount(new StreamsBuilder()), { applicationId: 'dsl-mem', stateDir })
    driver.createInputTopic('lines', S, S).pipeInput('1', 'a b a')
    expect(driver.getTimestampedKeyValueStore<string, number>('counts')!.persistent).to.equal(false)
    driver.close()
    expect(await exists(join(stateDir, 'dsl-mem', '0_0', 'rocksdb'))).to.equal(false)
  })
})
