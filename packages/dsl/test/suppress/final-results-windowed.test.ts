/**
 * Suppression of real windowed aggregations until their windows close (the final-results cases
 * of Kafka's SuppressScenarioTest, same inputs and expected outputs): one result per window once
 * stream time passes its end plus the grace period (plus the gap for sessions); records too late
 * for their window are dropped upstream.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { Windowed } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import {
  BufferConfig,
  Consumed,
  Grouped,
  Materialized,
  Produced,
  SessionWindows,
  SlidingWindows,
  StreamsBuilder,
  Suppressed,
  TimeWindows
} from '../../src/index.js'
import type { KTable } from '../../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()
type KVT = [string, number | null, number]

function run(
  counts: (builder: StreamsBuilder) => KTable<Windowed<string>, number>,
  inputs: Array<[string, number]>
): { raw: KVT[]; suppressed: KVT[] } {
  const builder = new StreamsBuilder()
  const table = counts(builder)
  table
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .map((k, v) => KeyValue.pair(k.toString(), v))
    .to('output-suppressed', Produced.with(S, L))
  table
    .toStream()
    .map((k, v) => KeyValue.pair(k.toString(), v))
    .to('output-raw', Produced.with(S, L))
  const driver = new TopologyTestDriver(builder.build())
  try {
    const input = driver.createInputTopic('input', S, S)
    for (const [k, ts] of inputs) input.pipeInput(k, 'v1', ts)
    const read = (topic: string): KVT[] =>
      driver
        .createOutputTopic(topic, S, L)
        .readRecordsToList()
        .map(r => [r.key!, r.value, r.timestamp])
    return { raw: read('output-raw'), suppressed: read('output-suppressed') }
  } finally {
    driver.close()
  }
}

const grouped = (builder: StreamsBuilder) => builder.stream('input', Consumed.with(S, S)).groupBy((k, _v) => k, Grouped.with(S, S))

describe('suppress(untilWindowCloses) on windowed aggregations (SuppressScenarioTest final results)', () => {
  it('time windows (size 2, grace 2): the record at 0 after stream time 4 is dropped; each window emitted once', () => {
    const out = run(
      b =>
        grouped(b)
          .windowedBy(TimeWindows.ofSizeAndGrace(2, 2))
          .count(Materialized.as<string, number>('counts').withCachingDisabled().withKeySerde(S)),
      [
        ['k1', 0],
        ['k1', 1],
        ['k1', 2],
        ['k1', 0],
        ['k1', 3],
        ['k1', 0],
        ['k1', 4],
        ['k1', 0],
        ['k1', 30]
      ]
    )
    expect(out.raw).to.deep.equal([
      ['[k1@0/2]', 1, 0],
      ['[k1@0/2]', 2, 1],
      ['[k1@2/4]', 1, 2],
      ['[k1@0/2]', 3, 1],
      ['[k1@2/4]', 2, 3],
      ['[k1@0/2]', 4, 1],
      ['[k1@4/6]', 1, 4],
      ['[k1@30/32]', 1, 30]
    ])
    expect(out.suppressed).to.deep.equal([
      ['[k1@0/2]', 4, 1],
      ['[k1@2/4]', 2, 3],
      ['[k1@4/6]', 1, 4]
    ])
  })

  it('sliding windows (difference 5, grace 15): left and right windows, the record at 5 after 24 dropped', () => {
    const out = run(
      b =>
        grouped(b)
          .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(5, 15))
          .count(Materialized.as<string, number>('counts').withCachingDisabled().withKeySerde(S)),
      [
        ['k1', 10],
        ['k1', 11],
        ['k1', 10],
        ['k1', 13],
        ['k1', 10],
        ['k1', 24],
        ['k1', 5],
        ['k1', 7],
        ['k1', 90]
      ]
    )
    const raw = [...out.raw].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[2] - b[2]))
    expect(raw).to.deep.equal([
      ['[k1@11/16]', 1, 11],
      ['[k1@11/16]', 2, 13],
      ['[k1@12/17]', 1, 13],
      ['[k1@19/24]', 1, 24],
      ['[k1@5/10]', 1, 10],
      ['[k1@5/10]', 2, 10],
      ['[k1@5/10]', 3, 10],
      ['[k1@5/10]', 4, 10],
      ['[k1@5/10]', 5, 10],
      ['[k1@6/11]', 2, 11],
      ['[k1@6/11]', 3, 11],
      ['[k1@6/11]', 4, 11],
      ['[k1@6/11]', 5, 11],
      ['[k1@8/13]', 4, 13],
      ['[k1@8/13]', 5, 13],
      ['[k1@85/90]', 1, 90]
    ])
    expect(out.suppressed).to.deep.equal([
      ['[k1@5/10]', 5, 10],
      ['[k1@6/11]', 5, 11],
      ['[k1@8/13]', 5, 13],
      ['[k1@11/16]', 2, 13],
      ['[k1@12/17]', 1, 13],
      ['[k1@19/24]', 1, 24]
    ])
  })

  it('session windows (gap 5, no grace): merges emit tombstones; the record at 5 after stream time 11 is dropped', () => {
    const out = run(
      b =>
        grouped(b)
          .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5))
          .count(Materialized.as<string, number>('counts').withCachingDisabled()),
      [
        ['k1', 0],
        ['k1', 5],
        ['k1', 1],
        ['k2', 11],
        ['k1', 5],
        ['k1', 30]
      ]
    )
    expect(out.raw).to.deep.equal([
      ['[k1@0/0]', 1, 0],
      ['[k1@0/0]', null, 0],
      ['[k1@0/5]', 2, 5],
      ['[k1@0/5]', null, 5],
      ['[k1@0/5]', 3, 5],
      ['[k2@11/11]', 1, 11],
      ['[k1@30/30]', 1, 30]
    ])
    expect(out.suppressed).to.deep.equal([
      ['[k1@0/5]', 3, 5],
      ['[k2@11/11]', 1, 11]
    ])
  })
})
