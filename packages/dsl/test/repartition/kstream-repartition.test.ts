import { expect } from 'chai'
import sinon from 'sinon'
import { KeyValue, Serdes } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Produced, StreamsBuilder } from '../../src/index.js'
import { Repartitioned } from '../../src/repartitioned.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()

describe('KStream.repartition (KStreamRepartitionTest, KStreamImplTest)', () => {
  it('describe(): a generated KSTREAM-REPARTITION name for the topic, generated sink, filter and source names', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('input')
      .repartition()
      .foreach(() => {})
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-FILTER-0000000003\n' +
        '    Processor: KSTREAM-FILTER-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Sink: KSTREAM-SINK-0000000002 (topic: KSTREAM-REPARTITION-0000000001-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000003\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [KSTREAM-REPARTITION-0000000001-repartition])\n' +
        '      --> KSTREAM-FOREACH-0000000005\n' +
        '    Processor: KSTREAM-FOREACH-0000000005 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000004\n\n'
    )
  })

  it('describe(): a Repartitioned name names the topic and the nodes; a later grouping does not repartition again', () => {
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>('input')
      .selectKey((_k, v) => v)
      .repartition(Repartitioned.as('by-value'))
      .groupByKey()
      .count()
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-KEY-SELECT-0000000001\n' +
        '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
        '      --> by-value-repartition-filter\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: by-value-repartition-filter (stores: [])\n' +
        '      --> by-value-repartition-sink\n' +
        '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
        '    Sink: by-value-repartition-sink (topic: by-value-repartition)\n' +
        '      <-- by-value-repartition-filter\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: by-value-repartition-source (topics: [by-value-repartition])\n' +
        '      --> KSTREAM-AGGREGATE-0000000006\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000006 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000005])\n' +
        '      --> none\n' +
        '      <-- by-value-repartition-source\n\n'
    )
  })

  it('passes records through the topic unchanged (key, value, timestamp); null keys are dropped with no relaxed join downstream (KIP-962)', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('input', Consumed.with(S, I))
      .map((k, v) => KeyValue.pair(k === 'drop' ? (null as unknown as string) : k.toUpperCase(), v * 2))
      .repartition(Repartitioned.with(S, I))
      .to('output', Produced.with(S, I))
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('input', S, I)
    input.pipeInput('a', 1, 10)
    input.pipeInput('drop', 2, 11)
    input.pipeInput('b', 3, 5)
    expect(readAll(driver.createOutputTopic('output', S, I))).to.deep.equal([
      ['A', 2, 10],
      ['B', 6, 5]
    ])
    driver.close()
  })

  it('declares the internal topic with the number of partitions and partitions with the StreamPartitioner', () => {
    const builder = new StreamsBuilder()
    const partitioner = sinon.spy((_topic: string, _key: string, _value: string, _n: number) => 0)
    builder
      .stream('input', Consumed.with(S, S))
      .repartition(
        Repartitioned.as<string, string>('r').withNumberOfPartitions(4).withStreamPartitioner(partitioner).withKeySerde(S).withValueSerde(S)
      )
      .to('output', Produced.with(S, S))
    const topology = builder.build()
    expect(topology[TOPOLOGY_DEF]().internalTopics.get('r-repartition')).to.deep.equal({ numPartitions: 4 })
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('input', S, S).pipeInput('k', 'v', 1)
    expect(partitioner.callCount).to.equal(1)
    expect(partitioner.firstCall.args.slice(1)).to.deep.equal(['k', 'v', 1])
    expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal([['k', 'v', 1]])
    driver.close()
  })

  it('a Repartitioned or Produced partitioner may drop (empty set) or multicast (KIP-837; the driver has one partition per topic)', () => {
    const builder = new StreamsBuilder()
    const input = builder.stream('input', Consumed.with(S, S))
    input
      .repartition(Repartitioned.as<string, string>('r').withStreamPartitioner((_t, key) => (key === 'drop' ? new Set<number>() : [0])))
      .to(
        'output',
        Produced.with(S, S).withStreamPartitioner((_t, _k, value) => (value === 'skip' ? [] : new Set([0])))
      )
    const driver = new TopologyTestDriver(builder.build())
    const topic = driver.createInputTopic('input', S, S)
    topic.pipeInput('drop', 'v1', 1)
    topic.pipeInput('k', 'skip', 2)
    topic.pipeInput('k', 'v3', 3)
    expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal([['k', 'v3', 3]])
    driver.close()
  })

  it('without a partition count the topic follows its upstream topics', () => {
    const builder = new StreamsBuilder()
    builder.stream('input').repartition(Repartitioned.as('x')).to('output')
    expect(builder.build()[TOPOLOGY_DEF]().internalTopics.get('x-repartition')).to.deep.equal({})
  })

  it('rejects illegal partition counts and names', () => {
    expect(() => Repartitioned.numberOfPartitions(0))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => Repartitioned.as('bad name'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
