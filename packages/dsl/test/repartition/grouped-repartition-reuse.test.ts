/**
 * One repartition topic per named grouping (Kafka's RepartitionTopicNamingTest): the aggregations
 * of one KGroupedStream (windowed or not) or one KGroupedTable whose Grouped names the topic all
 * read the topic the first aggregation created; unnamed groupings get one topic per aggregation,
 * and two groupings naming the same topic fail.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Produced, SessionWindows, StreamsBuilder, TimeWindows } from '../../src/index.js'
import type { KGroupedStream } from '../../src/index.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()
const L = Serdes.Long()

function repartitionTopics(description: string): string[] {
  return [...description.matchAll(/Sink: .* \(topic: (.*-repartition)\)/g)].map(m => m[1]!)
}

function groupedByKey(builder: StreamsBuilder, grouped: Grouped<string, string>): KGroupedStream<string, string> {
  return builder
    .stream('topic', Consumed.with(S, S))
    .selectKey((k, _v) => k)
    .groupByKey(grouped)
}

describe('repartition topics of named groupings (RepartitionTopicNamingTest)', () => {
  it('two windowed counts of one KGroupedStream share grouping-repartition (the indexes are still drawn)', () => {
    const builder = new StreamsBuilder()
    const grouped = groupedByKey(builder, Grouped.as<string, string>('grouping').withKeySerde(S).withValueSerde(S))
    grouped
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .toStream((w, _v) => `${w.key}@${w.window.start}`)
      .to('output-one', Produced.with(S, L))
    grouped
      .windowedBy(TimeWindows.ofSizeWithNoGrace(30))
      .count()
      .toStream((w, _v) => `${w.key}@${w.window.start}`)
      .to('output-two', Produced.with(S, L))
    const description = builder.build().describe().toString()
    expect(repartitionTopics(description)).to.deep.equal(['grouping-repartition'])
    expect(description).to.contain(
      '  Sub-topology: 1\n' +
        '    Source: grouping-repartition-source (topics: [grouping-repartition])\n' +
        '      --> KSTREAM-AGGREGATE-0000000003, KSTREAM-AGGREGATE-0000000011\n'
    )

    const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 })
    const input = driver.createInputTopic('topic', S, S)
    input.pipeInput('a', 'x', 5)
    input.pipeInput('a', 'y', 12)
    expect(readAll(driver.createOutputTopic('output-one', S, L))).to.deep.equal([
      ['a@0', 1, 5],
      ['a@10', 1, 12]
    ])
    expect(readAll(driver.createOutputTopic('output-two', S, L))).to.deep.equal([
      ['a@0', 1, 5],
      ['a@0', 2, 12]
    ])
    driver.close()
  })

  it('count and reduce of one TimeWindowedKStream and a count of another windowing share the topic', () => {
    const builder = new StreamsBuilder()
    const grouped = groupedByKey(builder, Grouped.as('grouping'))
    const windowed = grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(10))
    windowed.count()
    windowed.reduce((v, v2) => v + v2)
    grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count()
    grouped.count()
    expect(repartitionTopics(builder.build().describe().toString())).to.deep.equal(['grouping-repartition'])
  })

  it('count and reduce of one SessionWindowedKStream and a time-windowed count share the topic', () => {
    const builder = new StreamsBuilder()
    const grouped = groupedByKey(builder, Grouped.as('grouping'))
    const sessions = grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
    sessions.count()
    sessions.reduce((v, v2) => v + v2)
    grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count()
    expect(repartitionTopics(builder.build().describe().toString())).to.deep.equal(['grouping-repartition'])
  })

  it('without a Grouped name every aggregation has its own topic (shouldNotReuseRepartitionNodeWithUnnamedRepartitionTopics)', () => {
    const builder = new StreamsBuilder()
    const grouped = groupedByKey(builder, Grouped.with(S, S))
    grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count()
    grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count()
    expect(repartitionTopics(builder.build().describe().toString())).to.deep.equal([
      'KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition',
      'KSTREAM-AGGREGATE-STATE-STORE-0000000007-repartition'
    ])
  })

  it('two KGroupedStreams naming the same topic fail (shouldFailWithSameRepartitionTopicName)', () => {
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>('topic')
      .selectKey((k, _v) => k)
      .groupByKey(Grouped.as('grouping'))
      .count()
    expect(() =>
      builder
        .stream<string, string>('topicII')
        .selectKey((k, _v) => k)
        .groupByKey(Grouped.as('grouping'))
        .count()
    )
      .to.throw()
      .with.property('code', 'DUPLICATE_NODE')
  })

  it('count and reduce of one KGroupedTable share grouping-repartition; unnamed, each has its own', () => {
    const builder = new StreamsBuilder()
    const grouped = builder
      .table('topic', Consumed.with(S, S))
      .groupBy((k, v) => KeyValue.pair(k, v), Grouped.as<string, string>('grouping').withKeySerde(S).withValueSerde(S))
    grouped.count().toStream().to('output-count', Produced.with(S, L))
    grouped
      .reduce(
        (_v, v2) => v2,
        (_v, v2) => v2
      )
      .toStream()
      .to('output-reduce', Produced.with(S, S))
    expect(repartitionTopics(builder.build().describe().toString())).to.deep.equal(['grouping-repartition'])
    const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 })
    driver.createInputTopic('topic', S, S).pipeInput('a', 'x', 3)
    expect(readAll(driver.createOutputTopic('output-count', S, L))).to.deep.equal([['a', 1, 3]])
    expect(readAll(driver.createOutputTopic('output-reduce', S, S))).to.deep.equal([['a', 'x', 3]])
    driver.close()

    const unnamed = new StreamsBuilder()
    const g2 = unnamed.table<string, string>('topic').groupBy((k, v) => KeyValue.pair(k, v))
    g2.count()
    g2.reduce(
      (_v, v2) => v2,
      (_v, v2) => v2
    )
    expect(repartitionTopics(unnamed.build().describe().toString())).to.have.length(2)
  })
})
