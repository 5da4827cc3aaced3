import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Windowed } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, KTable, Materialized, Produced, StreamsBuilder } from '../../src/index.js'
import { BufferConfig } from '../../src/buffer-config.js'
import { Suppressed } from '../../src/suppressed.js'
import { BufferFullError } from '../../src/buffer-full-error.js'
import { readAll } from '../helpers.js'
import type { KVT } from '../helpers.js'
import { WINDOWED_INPUT, windowedTable } from './windowed-table.js'

const S = Serdes.String()
const L = Serdes.Long()
const CONFIG = { applicationId: 'suppress-test', defaultKeySerde: S, defaultValueSerde: S }

/** SuppressScenarioTest's value counts: the number of keys per value of the input table. */
function valueCounts(builder: StreamsBuilder): KTable<string, number> {
  return builder
    .table('input', Consumed.with(S, S), Materialized.with<string, string>(S, S).withCachingDisabled().withLoggingDisabled())
    .groupBy((k, v) => KeyValue.pair(v, k), Grouped.with(S, S))
    .count(Materialized.with(S, L))
}

function scenario(
  suppressed: Suppressed<string>,
  feed: Array<[string, string, number]>
): { raw: Array<KVT<string, number>>; suppressed: Array<KVT<string, number>> } {
  const builder = new StreamsBuilder()
  const counts = valueCounts(builder)
  counts.suppress(suppressed).toStream().to('output-suppressed', Produced.with(S, L))
  counts.toStream().to('output-raw', Produced.with(S, L))
  const driver = new TopologyTestDriver(builder.build(), CONFIG)
  const input = driver.createInputTopic('input', S, S)
  for (const [k, v, ts] of feed) input.pipeInput(k, v, ts)
  const result = {
    raw: readAll(driver.createOutputTopic('output-raw', S, L)),
    suppressed: readAll(driver.createOutputTopic('output-suppressed', S, L))
  }
  driver.close()
  return result
}

const FEED: Array<[string, string, number]> = [
  ['k1', 'v1', 0],
  ['k1', 'v2', 1],
  ['k2', 'v1', 2]
]
const RAW: Array<KVT<string, number>> = [
  ['v1', 1, 0],
  ['v1', 0, 1],
  ['v2', 1, 1],
  ['v1', 1, 2]
]

describe('KTable.suppress (SuppressScenarioTest, KTableSuppressProcessorTest)', () => {
  it('untilTimeLimit(0) emits every update at once', () => {
    const out = scenario(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()), [...FEED, ['x', 'x', 3], ['x', 'x', 4]])
    const expected: Array<KVT<string, number>> = [...RAW, ['x', 1, 3], ['x', 1, 4]]
    expect(out.raw).to.deep.equal(expected)
    expect(out.suppressed).to.deep.equal(expected)
  })

  it('untilTimeLimit emits the latest value of a key once stream time passes its first buffered time plus the limit', () => {
    const out = scenario(Suppressed.untilTimeLimit(2, BufferConfig.unbounded()), [...FEED, ['tick', 'tick', 3], ['tick', 'tick', 4]])
    expect(out.raw).to.deep.equal([...RAW, ['tick', 1, 3], ['tick', 1, 4]])
    expect(out.suppressed).to.deep.equal([
      ['v1', 1, 2],
      ['v2', 1, 1]
    ])
  })

  it('maxRecords(1).emitEarlyWhenFull emits the oldest key when a second key is buffered', () => {
    const out = scenario(Suppressed.untilTimeLimit(Number.MAX_SAFE_INTEGER, BufferConfig.maxRecords(1).emitEarlyWhenFull()), FEED)
    expect(out.raw).to.deep.equal(RAW)
    expect(out.suppressed).to.deep.equal([
      ['v1', 0, 1],
      ['v2', 1, 1]
    ])
  })

  it('maxBytes emits early by the estimated size (one entry fits, two do not)', () => {
    const out = scenario(Suppressed.untilTimeLimit(Number.MAX_SAFE_INTEGER, BufferConfig.maxBytes(200)), FEED)
    expect(out.suppressed).to.deep.equal([
      ['v1', 0, 1],
      ['v2', 1, 1]
    ])
  })

  it('shutDownWhenFull fails the task with a BufferFullError once the bound is exceeded', () => {
    const builder = new StreamsBuilder()
    valueCounts(builder)
      .suppress(Suppressed.untilTimeLimit(Number.MAX_SAFE_INTEGER, BufferConfig.maxRecords(1).shutDownWhenFull()))
      .toStream()
      .to('out', Produced.with(S, L))
    const driver = new TopologyTestDriver(builder.build(), CONFIG)
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('k1', 'v1', 0)
    let error: unknown
    try {
      input.pipeInput('k1', 'v2', 1)
    } catch (err) {
      error = err
    }
    expect(error).to.be.instanceOf(BufferFullError)
    expect((error as BufferFullError).code).to.equal('PROCESSING')
  })

  it('untilTimeLimit keeps deletes (they are emitted like any update)', () => {
    const builder = new StreamsBuilder()
    builder
      .table('input', Consumed.with(S, S), Materialized.as<string, string>('t'))
      .suppress(Suppressed.untilTimeLimit(1, BufferConfig.unbounded()))
      .toStream()
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build(), CONFIG)
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', '1', 0)
    input.pipeInput('a', null, 0)
    input.pipeInput('b', '2', 1)
    input.pipeInput('b', '3', 2)
    expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([
      ['a', null, 0],
      ['b', '3', 2]
    ])
    driver.close()
  })

  describe('untilWindowCloses (final results)', () => {
    function finalResults(feed: Array<[string, string, number]>, windowSize = 10, grace = 5): Array<[string, number | null, number]> {
      const builder = new StreamsBuilder()
      windowedTable(builder, windowSize, grace)
        .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
        .toStream()
        .map((k: Windowed<string>, v) => KeyValue.pair(k.toString(), v))
        .to('final', Produced.with(S, L))
      const driver = new TopologyTestDriver(builder.build(), CONFIG)
      const input = driver.createInputTopic(WINDOWED_INPUT, S, S)
      for (const [k, v, ts] of feed) input.pipeInput(k, v, ts)
      const out = readAll(driver.createOutputTopic('final', S, L)) as Array<[string, number | null, number]>
      driver.close()
      return out
    }

    it('emits each window once, when stream time reaches its end plus the grace period, in window-end then key order', () => {
      const out = finalResults([
        ['k', '0:1', 1],
        ['k', '0:2', 5],
        ['j', '0:3', 8],
        ['k', '10:1', 12],
        ['j', '0:4', 14],
        ['k', '10:2', 15],
        ['k', '20:1', 24],
        ['x', '20:1', 25]
      ])
      expect(out).to.deep.equal([
        ['[j@0/10]', 4, 14],
        ['[k@0/10]', 2, 5],
        ['[k@10/20]', 2, 15]
      ])
    })

    it('drops windows whose final value is a delete', () => {
      const out = finalResults([
        ['m', '0:1', 1],
        ['m', '0:null', 2],
        ['k', '0:7', 3],
        ['k', '10:1', 15]
      ])
      expect(out).to.deep.equal([['[k@0/10]', 7, 3]])
    })

    it('with zero grace still waits for the window end', () => {
      const out = finalResults(
        [
          ['k', '0:1', 0],
          ['k', '0:2', 9],
          ['k', '10:1', 10]
        ],
        10,
        0
      )
      expect(out).to.deep.equal([['[k@0/10]', 2, 9]])
    })

    it('finds the windowed aggregation through stateless table operators', () => {
      const builder = new StreamsBuilder()
      windowedTable(builder, 10, 0)
        .filter((_k, v) => v > 1)
        .mapValues(v => v * 10)
        .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(10).shutDownWhenFull()))
        .toStream()
        .map((k: Windowed<string>, v) => KeyValue.pair(k.toString(), v))
        .to('final', Produced.with(S, L))
      // mapValues drops the value serde: the buffer uses the default one, as in Kafka Streams.
      const driver = new TopologyTestDriver(builder.build(), { ...CONFIG, defaultValueSerde: L })
      const input = driver.createInputTopic(WINDOWED_INPUT, S, S)
      input.pipeInput('k', '0:2', 1)
      input.pipeInput('j', '0:1', 2)
      input.pipeInput('k', '10:5', 10)
      expect(readAll(driver.createOutputTopic('final', S, L))).to.deep.equal([['[k@0/10]', 20, 1]])
      driver.close()
    })

    it('is refused on a table that is not the result of a windowed aggregation', () => {
      const builder = new StreamsBuilder()
      const table = builder.table<Windowed<string>, number>('input')
      expect(() => table.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())))
        .to.throw()
        .with.property('code', 'TOPOLOGY_INVALID')
    })
  })

  it('type checks: final results only for windowed keys and strict buffer configs', () => {
    const builder = new StreamsBuilder()
    const plain = builder.table<string, number>('input')
    // @ts-expect-error untilWindowCloses needs a table of Windowed keys
    expect(() => plain.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))).to.throw()
    // @ts-expect-error untilWindowCloses takes a strict buffer config (unbounded or shutDownWhenFull)
    Suppressed.untilWindowCloses(BufferConfig.maxRecords(3))
    expect(plain.suppress(Suppressed.untilTimeLimit(5, BufferConfig.maxBytes(100).emitEarlyWhenFull()))).to.be.instanceOf(KTable)
  })
})
