import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '../src/index.js'
import type { KGroupedStream } from '../src/index.js'
import { droppedRecordsTotal, readAll } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
const TOPIC = 'topic'

/** KGroupedStreamImplTest's processData. */
function processData(driver: TopologyTestDriver): void {
  const input = driver.createInputTopic(TOPIC, S, S)
  input.pipeInput('1', 'A')
  input.pipeInput('2', 'B')
  input.pipeInput('1', 'C')
  input.pipeInput('1', 'D')
  input.pipeInput('3', 'E')
  input.pipeInput('3', 'F')
  input.pipeInput('3', null)
}

function grouped(builder: StreamsBuilder): KGroupedStream<string, string> {
  return builder.stream(TOPIC, Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
}

describe('KGroupedStream aggregations on the TopologyTestDriver (KGroupedStreamImplTest)', () => {
  it('count materializes the counts per key; a null value is skipped', () => {
    const builder = new StreamsBuilder()
    grouped(builder).count(Materialized.as<string, number>('count').withKeySerde(S))
    const driver = new TopologyTestDriver(builder.build())
    processData(driver)
    const store = driver.getKeyValueStore<string, number>('count')!
    expect([store.get('1'), store.get('2'), store.get('3')]).to.deep.equal([3, 1, 2])
    const dropped = driver.metrics().find(m => m.name === 'dropped-records-total' && m.group === 'stream-task-metrics')
    expect(dropped?.value, 'the null value counts as a dropped record').to.equal(1)
    driver.close()
  })

  it('reduce materializes the reduced values', () => {
    const builder = new StreamsBuilder()
    grouped(builder).reduce((agg, v) => agg + '+' + v, Materialized.as<string, string>('reduce').withKeySerde(S).withValueSerde(S))
    const driver = new TopologyTestDriver(builder.build())
    processData(driver)
    const store = driver.getKeyValueStore<string, string>('reduce')!
    expect([store.get('1'), store.get('2'), store.get('3')]).to.deep.equal(['A+C+D', 'B', 'E+F'])
    driver.close()
  })

  it('aggregate materializes the aggregates', () => {
    const builder = new StreamsBuilder()
    grouped(builder).aggregate(
      () => '0',
      (_k, v, agg) => agg + '+' + v,
      Materialized.as<string, string>('aggregate').withValueSerde(S)
    )
    const driver = new TopologyTestDriver(builder.build())
    processData(driver)
    const store = driver.getKeyValueStore<string, string>('aggregate')!
    expect([store.get('1'), store.get('2'), store.get('3')]).to.deep.equal(['0+A+C+D', '0+B', '0+E+F'])
    driver.close()
  })

  for (const caching of [true, false]) {
    it(`emits every update with timestamp max(previous result, record) (caching ${caching ? 'on' : 'off'})`, () => {
      const builder = new StreamsBuilder()
      const m = Materialized.as<string, number>('counts')
      grouped(builder)
        .count(caching ? m : m.withCachingDisabled())
        .toStream()
        .to('out', Produced.with(S, L))
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic(TOPIC, S, S)
      input.pipeInput('a', 'x', 5)
      input.pipeInput('a', 'x', 3)
      input.pipeInput('b', 'x', 4)
      input.pipeInput('a', 'x', 10)
      input.pipeInput(null, 'x', 11)
      expect(readAll(driver.createOutputTopic('out', S, L))).to.deep.equal([
        ['a', 1, 5],
        ['a', 2, 5],
        ['b', 1, 4],
        ['a', 3, 10]
      ])
      expect(driver.getTimestampedKeyValueStore<string, number>('counts')!.get('a')!.timestamp).to.equal(10)
      driver.close()
    })
  }

  it('with caching, updates of one key within one process call collapse into one record on flush', () => {
    const builder = new StreamsBuilder()
    builder
      .stream(TOPIC, Consumed.with(S, S))
      .flatMapValues(v => v.split(' '))
      .selectKey((_k, v) => v)
      .groupByKey(Grouped.with(S, S))
      .count()
      .toStream()
      .to('out', Produced.with(S, L))
    // selectKey marks the stream for repartitioning: every word goes through the repartition
    // topic and is its own process call and commit, so nothing collapses.
    const cached = new TopologyTestDriver(builder.build())
    cached.createInputTopic(TOPIC, S, S).pipeInput('k', 'hello world hello', 1)
    expect(readAll(cached.createOutputTopic('out', S, L))).to.deep.equal([
      ['hello', 1, 1],
      ['world', 1, 1],
      ['hello', 2, 1]
    ])
    cached.close()

    // Without a key change there is no repartition: the three updates of key k happen in one
    // process call and only the last reaches the output, unless the cache is disabled.
    const builder2 = new StreamsBuilder()
    builder2
      .stream(TOPIC, Consumed.with(S, S))
      .flatMapValues(v => v.split(' '))
      .groupByKey(Grouped.with(S, S))
      .count()
      .toStream()
      .to('out', Produced.with(S, L))
    const sameKey = new TopologyTestDriver(builder2.build())
    sameKey.createInputTopic(TOPIC, S, S).pipeInput('k', 'a b c', 7)
    expect(readAll(sameKey.createOutputTopic('out', S, L))).to.deep.equal([['k', 3, 7]])
    sameKey.close()

    const uncached = new TopologyTestDriver(builder2.build(), { statestoreCacheMaxBytes: 0 })
    uncached.createInputTopic(TOPIC, S, S).pipeInput('k', 'a b c', 7)
    expect(readAll(uncached.createOutputTopic('out', S, L))).to.deep.equal([
      ['k', 1, 7],
      ['k', 2, 7],
      ['k', 3, 7]
    ])
    uncached.close()
  })

  it('groupBy repartitions through <Grouped name>-repartition, whose filter drops null keys (no relaxed join downstream, KIP-962)', () => {
    const builder = new StreamsBuilder()
    builder
      .stream(TOPIC, Consumed.with(S, S))
      .groupBy((_k, v) => (v === 'drop' ? (null as unknown as string) : v), Grouped.with(S, S).withName('by-value'))
      .reduce((a, b) => a + b)
      .toStream()
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic(TOPIC, S, S)
    input.pipeInput('1', 'x', 1)
    input.pipeInput('2', 'drop', 2)
    input.pipeInput('3', 'x', 3)
    expect(readAll(driver.createOutputTopic('dummy-topology-test-driver-app-id-by-value-repartition', S, S))).to.deep.equal([
      ['x', 'x', 1],
      ['x', 'x', 3]
    ])
    expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([
      ['x', 'x', 1],
      ['x', 'xx', 3]
    ])
    expect(droppedRecordsTotal(driver.metrics())).to.equal(0)
    driver.close()
  })
})
