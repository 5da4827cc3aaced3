/**
 * suppress(untilWindowCloses) after a node with several parents (Kafka's grace search walks every
 * parent and takes the largest grace): a cogrouped windowed aggregation, and a join of two
 * windowed tables.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { BufferConfig, Consumed, Grouped, Materialized, Produced, StreamsBuilder, Suppressed, TimeWindows } from '../../src/index.js'

const S = Serdes.String()

describe('suppress(untilWindowCloses) through merge nodes', () => {
  it('a cogrouped windowed aggregation: each window once, after end + grace', () => {
    const builder = new StreamsBuilder()
    const one = builder.stream('one', Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    const two = builder.stream('two', Consumed.with(S, S)).groupByKey(Grouped.with(S, S))
    const concat = (_k: string, v: string, agg: string): string => agg + v
    one
      .cogroup(concat)
      .cogroup(two, concat)
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .aggregate(() => '', Materialized.as<string, string>('agg').withValueSerde(S).withCachingDisabled())
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((k, v) => KeyValue.pair(k.toString(), v))
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('one', S, S).pipeInput('k', 'a', 1)
    driver.createInputTopic('two', S, S).pipeInput('k', 'b', 2)
    const out = driver.createOutputTopic('out', S, S)
    driver.createInputTopic('one', S, S).pipeInput('k', 'c', 14)
    expect(out.readKeyValuesToList().map(kv => `${kv.key}=${kv.value}`)).to.deep.equal([])
    driver.createInputTopic('two', S, S).pipeInput('x', 'd', 15)
    expect(out.readKeyValuesToList().map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['[k@0/10]=ab'])
    driver.close()
  })

  it('a join of two windowed tables takes the larger grace', () => {
    const builder = new StreamsBuilder()
    const counts = (topic: string, grace: number) =>
      builder
        .stream(topic, Consumed.with(S, S))
        .groupByKey(Grouped.with(S, S))
        .windowedBy(TimeWindows.ofSizeAndGrace(10, grace))
        .count(Materialized.as<string, number>(`${topic}-counts`).withCachingDisabled())
    counts('left', 2)
      .join(counts('right', 6), (l, r) => `${l}/${r}`)
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .map((k, v) => KeyValue.pair(k.toString(), v))
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    const left = driver.createInputTopic('left', S, S)
    const right = driver.createInputTopic('right', S, S)
    const out = driver.createOutputTopic('out', S, S)
    left.pipeInput('k', 'x', 1)
    right.pipeInput('k', 'y', 2)
    // Suppression sees only join results: z's results move its stream time.
    left.pipeInput('z', 'x', 13)
    right.pipeInput('z', 'y', 13)
    // Past end + 2 (the left grace) but not end + 6: still buffered.
    expect(out.readKeyValuesToList()).to.deep.equal([])
    left.pipeInput('z', 'x', 16)
    expect(out.readKeyValuesToList().map(kv => `${kv.key}=${kv.value}`)).to.deep.equal(['[k@0/10]=1/1'])
    driver.close()
  })
})
