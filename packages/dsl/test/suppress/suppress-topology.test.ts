import { expect } from 'chai'
import { Headers, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '../../src/index.js'
import { BufferConfig } from '../../src/buffer-config.js'
import { Suppressed } from '../../src/suppressed.js'
import { BufferValue } from '../../src/internal/suppress/buffer-value.js'

const S = Serdes.String()
const L = Serdes.Long()

function topology(suppressed: Suppressed<string>): string {
  const builder = new StreamsBuilder()
  builder
    .stream<string, string>('input', Consumed.with(S, S))
    .groupByKey(Grouped.with(S, S))
    .count(Materialized.as<string, number>('counts'))
    .suppress(suppressed)
    .toStream()
    .to('output-suppressed', Produced.with(S, L))
  return builder.build().describe().toString()
}

describe('KTable.suppress: names, describe() and the changelogged buffer (SuppressTopologyTest)', () => {
  it('numbers an anonymous suppression node and its buffer store', () => {
    expect(topology(Suppressed.untilTimeLimit(1000, BufferConfig.unbounded()))).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-AGGREGATE-0000000001\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000001 (stores: [counts])\n' +
        '      --> KTABLE-SUPPRESS-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KTABLE-SUPPRESS-0000000002 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000003])\n' +
        '      --> KTABLE-TOSTREAM-0000000004\n' +
        '      <-- KSTREAM-AGGREGATE-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000004 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KTABLE-SUPPRESS-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: output-suppressed)\n' +
        '      <-- KTABLE-TOSTREAM-0000000004\n\n'
    )
  })

  it('uses the Suppressed name for the node and <name>-store for the buffer', () => {
    expect(topology(Suppressed.untilTimeLimit<string>(1000, BufferConfig.unbounded()).withName('asdf'))).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-AGGREGATE-0000000001\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000001 (stores: [counts])\n' +
        '      --> asdf\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: asdf (stores: [asdf-store])\n' +
        '      --> KTABLE-TOSTREAM-0000000002\n' +
        '      <-- KSTREAM-AGGREGATE-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000002 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000003\n' +
        '      <-- asdf\n' +
        '    Sink: KSTREAM-SINK-0000000003 (topic: output-suppressed)\n' +
        '      <-- KTABLE-TOSTREAM-0000000002\n\n'
    )
  })

  it('logs buffered entries to <app>-<store>-changelog on commit and a tombstone once emitted', () => {
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>('input', Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .count(Materialized.as<string, number>('counts').withCachingDisabled())
      .suppress(Suppressed.untilTimeLimit<string>(10, BufferConfig.unbounded()).withName('sup'))
      .toStream()
      .to('out', Produced.with(S, L))
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'app' })
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'x', 5)
    input.pipeInput('a', 'y', 7)
    input.pipeInput('b', 'z', 15)
    const changelog = driver.createOutputTopic('app-sup-store-changelog', Serdes.Buffer(), Serdes.Buffer()).readRecordsToList()
    expect(changelog.map(r => S.deserializer().deserialize('', r.key))).to.deep.equal(['a', 'a', 'b', 'a'])
    const first = BufferValue.deserialize(changelog[0]!.value!)
    expect(first.time).to.equal(5)
    // KStreamAggregate sends the initializer's value as the old value of a new key: the prior value is 0
    expect([
      L.deserializer().deserialize('', first.value.priorValue),
      L.deserializer().deserialize('', first.value.newValue),
      first.value.context.timestamp
    ]).to.deep.equal([0, 1, 5])
    const second = BufferValue.deserialize(changelog[1]!.value!)
    expect([
      second.time,
      L.deserializer().deserialize('', second.value.oldValue),
      L.deserializer().deserialize('', second.value.newValue),
      second.value.context.timestamp
    ]).to.deep.equal([5, 1, 2, 7])
    expect(BufferValue.deserialize(changelog[2]!.value!).time).to.equal(15)
    expect(changelog[3]!.value).to.equal(null)
    expect(
      driver
        .createOutputTopic('out', S, L)
        .readKeyValuesToList()
        .map(kv => [kv.key, kv.value])
    ).to.deep.equal([['a', 2]])
    driver.close()
  })

  it("encodes a buffer entry in Kafka Streams' v3 layout", () => {
    const prior = Buffer.from([1])
    const context = { timestamp: 7, offset: 3, topic: 't', partition: 2, headers: new Headers([{ key: 'h', value: Buffer.from([9]) }]) }
    const bytes = new BufferValue(prior, Buffer.from([1]), Buffer.from([2, 3]), context).serialize(42)
    expect(bytes.toString('hex')).to.equal(
      '0000000000000007' +
        '0000000000000003' +
        '00000001' +
        '74' +
        '00000002' + // timestamp, offset, topic "t", partition
        '00000001' +
        '00000001' +
        '68' +
        '00000001' +
        '09' + // one header h=[9]
        '00000001' +
        '01' +
        'fffffffe' +
        '00000002' +
        '0203' + // prior, old (= prior), new
        '000000000000002a'
    ) // buffer time
    const back = BufferValue.deserialize(bytes)
    expect([
      back.time,
      back.value.priorValue,
      back.value.oldValue,
      back.value.newValue,
      back.value.context.topic,
      back.value.context.offset
    ]).to.deep.equal([42, prior, prior, Buffer.from([2, 3]), 't', 3])
    // Kafka's estimate: prior + new (the old value is the prior itself) + 8 + 8 + topic + 4 + header key and value
    expect(new BufferValue(prior, prior, Buffer.from([2, 3]), context).sizeEstimate()).to.equal(1 + 2 + 8 + 8 + 1 + 4 + 1 + 1)
  })
})
