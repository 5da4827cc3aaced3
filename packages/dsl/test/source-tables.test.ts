/**
 * Source tables (StreamsBuilder.table / globalTable): which serdes read the topic and write the
 * store when both a Consumed and a Materialized are given (Kafka's StreamsBuilder overwrites the
 * Materialized serdes with the Consumed ones), and null-key records dropped and counted as by
 * Kafka's KTableSource (KTableSourceTest.kTableShouldLogAndMeterOnSkippedRecords).
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Materialized, StreamsBuilder } from '../src/index.js'
import { capture, droppedRecordsTotal, readAll } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()
const APP = 'dummy-topology-test-driver-app-id'

describe('StreamsBuilder source tables', () => {
  describe('globalTable naming', () => {
    it('a Consumed name still takes the node indexes (StreamsBuilderTest.shouldUseSpecifiedNameForGlobalTableSourceProcessor)', () => {
      const builder = new StreamsBuilder()
      builder.globalTable('stream-topic', Consumed.as('source-processor'))
      builder.globalTable('stream-topic-two')
      const text = builder.build().describe().toString()
      expect(text).to.contain(
        '    Source: source-processor-source (topics: [stream-topic])\n' +
          '      --> source-processor\n' +
          '    Processor: source-processor (stores: [stream-topic-STATE-STORE-0000000000])\n'
      )
      expect(text).to.contain(
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [stream-topic-two])\n' +
          '      --> KTABLE-SOURCE-0000000005\n' +
          '    Processor: KTABLE-SOURCE-0000000005 (stores: [stream-topic-two-STATE-STORE-0000000003])\n'
      )
    })
  })

  describe('serdes of table(topic, Consumed, Materialized)', () => {
    it('the Consumed serdes write the store and its changelog, not the Materialized ones', () => {
      const builder = new StreamsBuilder()
      // the Materialized asks for a string value serde: Kafka ignores it and stores integers
      builder.table('t', Consumed.with(S, I), Materialized.as<string, number>('store').withValueSerde(S as never))
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('t', S, I)
      input.pipeInput('a', 1, 10)
      input.pipeInput('b', 2, 11)
      input.pipeInput('a', 3, 12)
      expect(readAll(driver.createOutputTopic(`${APP}-store-changelog`, S, I))).to.deep.equal([
        ['a', 1, 10],
        ['b', 2, 11],
        ['a', 3, 12]
      ])
      expect(driver.getKeyValueStore<string, number>('store')!.get('a')).to.equal(3)
      driver.close()
    })

    it('a serde the Consumed lacks is the default serde for the topic and the store, whatever the Materialized says', () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, string>()
      builder
        .table(
          't',
          Consumed.as<string, string>('src'),
          Materialized.as<string, string>('store')
            .withKeySerde(I as never)
            .withValueSerde(I as never)
        )
        .toStream()
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
      driver.createInputTopic('t', S, S).pipeInput('k', 'seven', 7)
      expect(processed).to.deep.equal([['k', 'seven', 7]])
      expect(readAll(driver.createOutputTopic(`${APP}-store-changelog`, S, S))).to.deep.equal([['k', 'seven', 7]])
      driver.close()
    })

    it('with a Materialized alone its serdes read the topic and write the store', () => {
      const builder = new StreamsBuilder()
      builder.table('t', Materialized.as<string, number>('store').withKeySerde(S).withValueSerde(I))
      const driver = new TopologyTestDriver(builder.build())
      driver.createInputTopic('t', S, I).pipeInput('a', 42, 5)
      expect(readAll(driver.createOutputTopic(`${APP}-store-changelog`, S, I))).to.deep.equal([['a', 42, 5]])
      driver.close()
    })
  })

  describe('serdes of globalTable(topic, Consumed, Materialized)', () => {
    it('the Consumed serdes write the global store, not the Materialized ones', () => {
      const builder = new StreamsBuilder()
      builder.globalTable('g', Consumed.with(S, I), Materialized.as<string, number>('gstore').withValueSerde(S as never))
      const driver = new TopologyTestDriver(builder.build())
      driver.createInputTopic('g', S, I).pipeInput('a', 1, 10)
      driver.createInputTopic('g', S, I).pipeInput('a', 5, 11)
      expect(driver.getKeyValueStore<string, number>('gstore')!.get('a')).to.equal(5)
      driver.close()
    })

    it('a serde the Consumed lacks is the default serde, whatever the Materialized says', () => {
      const builder = new StreamsBuilder()
      builder.globalTable('g', Consumed.as<string, string>('g-src'), Materialized.as<string, string>('gstore').withValueSerde(I as never))
      const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
      driver.createInputTopic('g', S, S).pipeInput('a', 'text', 10)
      expect(driver.getKeyValueStore<string, string>('gstore')!.get('a')).to.equal('text')
      driver.close()
    })
  })

  describe('null keys (KTableSource)', () => {
    for (const materialized of [false, true]) {
      it(`a record with a null key is dropped and counted in dropped-records-total (${materialized ? 'materialized' : 'not materialized'})`, () => {
        const builder = new StreamsBuilder()
        const { supplier, processed } = capture<string, number>()
        const table = materialized
          ? builder.table('t', Consumed.with(S, I), Materialized.as('store'))
          : builder.table('t', Consumed.with(S, I))
        table.toStream().process(supplier)
        const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 })
        const input = driver.createInputTopic('t', S, I)
        input.pipeInput('a', 1, 10)
        input.pipeInput(null, 2, 11)
        input.pipeInput(null, null, 12)
        input.pipeInput('a', null, 13)
        expect(processed).to.deep.equal([
          ['a', 1, 10],
          ['a', null, 13]
        ])
        expect(droppedRecordsTotal(driver.metrics())).to.equal(2)
        driver.close()
      })
    }
  })
})
