// The README's examples as an outside user tests them with mocha: the Processor API WordCount and
// the DSL topology (its stores on RocksDB) on the TopologyTestDriver, from the installed packages.
// src/readme-*.ts are the README's code blocks, extracted by the round-trip test.
import { Serdes, Topology } from '@kstreams/core'
import { RocksDBStores } from '@kstreams/rocksdb'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { expect } from 'chai'
import { topology as dslTopology } from '../../src/readme-dsl.ts'
import { topology as processorTopology, WordCount } from '../../src/readme-processor-api.ts'

const S = Serdes.String()
const L = Serdes.Long()

describe("the README's Processor API example", () => {
  it('counts the words of each line, forwarded by the stream-time punctuator', () => {
    const driver = new TopologyTestDriver(processorTopology, { applicationId: 'wordcount' })
    try {
      const input = driver.createInputTopic('streams-plaintext-input', S, S)
      const output = driver.createOutputTopic('streams-wordcount-processor-output', S, L)
      input.pipeInput(null, 'Hello Kafka Streams', 0)
      expect(Object.fromEntries(output.readKeyValuesToMap())).to.deep.equal({ hello: 1, kafka: 1, streams: 1 })
      input.pipeInput(null, 'kafka, KAFKA; streams!', 1500) // stream time passes 1000: the next punctuation
      expect(Object.fromEntries(output.readKeyValuesToMap())).to.deep.equal({ hello: 1, kafka: 3, streams: 2 })
      expect(driver.getKeyValueStore<string, number>('Counts')!.get('kafka')).to.equal(3)
    } finally {
      driver.close()
    }
  })

  it('runs the same processor on a RocksDB store (RocksDBStores)', async () => {
    const topology = new Topology()
      .addSource('Source', 'lines', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('Process', () => new WordCount(), 'Source')
      .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('Counts'), S, L), 'Process')
      .addSink('Sink', 'counts', { keySerializer: S, valueSerializer: L }, 'Process')
    const driver = await TopologyTestDriver.create(topology, { applicationId: 'wordcount-rocksdb' })
    try {
      const store = driver.getKeyValueStore<string, number>('Counts')!
      expect(store.persistent).to.equal(true)
      const input = driver.createInputTopic('lines', S, S)
      input.pipeInput(null, 'All streams lead to Kafka', 0)
      input.pipeInput(null, 'Join Kafka Summit', 1000)
      expect(Object.fromEntries(driver.createOutputTopic('counts', S, L).readKeyValuesToMap())).to.deep.equal({
        all: 1,
        streams: 1,
        lead: 1,
        to: 1,
        kafka: 2,
        join: 1,
        summit: 1
      })
      expect(store.get('kafka')).to.equal(2)
    } finally {
      driver.close()
    }
  })
})

describe("the README's DSL example (RocksDB stores)", () => {
  it('counts words and enriches orders with their customer', async () => {
    const driver = await TopologyTestDriver.create(dslTopology, { applicationId: 'dsl' })
    try {
      const lines = driver.createInputTopic('lines', S, S)
      lines.pipeInput(null, 'Hello Kafka Streams', 0)
      lines.pipeInput(null, 'All streams lead to Kafka', 1000)
      lines.pipeInput(null, 'kafka, KAFKA; streams!', 2000)
      expect(Object.fromEntries(driver.createOutputTopic('counts', S, L).readKeyValuesToMap())).to.deep.equal({
        hello: 1,
        kafka: 4,
        streams: 3,
        all: 1,
        lead: 1,
        to: 1
      })
      expect(driver.getKeyValueStore<string, number>('Counts')!.get('kafka')).to.equal(4)
      expect(driver.getKeyValueStore('Counts')!.persistent).to.equal(true)

      driver.createInputTopic('customers', S, S).pipeInput('c1', 'Alice', 0)
      driver.createInputTopic('customers', S, S).pipeInput('c2', 'Bob', 0)
      const orders = driver.createInputTopic('orders', S, S)
      orders.pipeInput('o1', 'c1', 3000)
      orders.pipeInput('o2', 'c3', 3001) // no such customer: an inner join emits nothing
      orders.pipeInput('o3', 'c2', 3002)
      const enriched = driver.createOutputTopic('enriched-orders', S, S).readKeyValuesToList()
      expect(enriched.map(({ key, value }) => [key, value])).to.deep.equal([
        ['c1', 'Alice: c1'],
        ['c2', 'Bob: c2']
      ])
    } finally {
      driver.close()
    }
  })
})
