/**
 * KIP-962 (Kafka Streams 3.7+): the filter in front of a repartition sink keeps records with a
 * null key only when a join that accepts them (left/outer stream-stream, left stream-table or
 * stream-GlobalKTable) is downstream of the topic; there they are joined with null (or dropped
 * and counted by the side of the join that cannot use them). Every other repartition topic
 * (aggregations, inner joins, toTable, KStream.repartition()) drops them at the filter, uncounted.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import {
  Consumed,
  Grouped,
  JoinWindows,
  Joined,
  Produced,
  Repartitioned,
  StreamJoined,
  StreamsBuilder,
  TimeWindows
} from '../../src/index.js'
import type { KStream } from '../../src/index.js'
import { capture, droppedRecordsTotal, readAll } from '../helpers.js'
import type { KVT } from '../helpers.js'

const S = Serdes.String()
const APP = 'dummy-topology-test-driver-app-id'
const joiner = (a: string | null, b: string | null): string => `${String(a)}+${String(b)}`

/** The key becomes null when the value starts with '-'. */
function rekeyed(builder: StreamsBuilder, topic: string): KStream<string, string> {
  return builder.stream(topic, Consumed.with(S, S)).selectKey((k, v) => (v.startsWith('-') ? (null as unknown as string) : k))
}

interface Run {
  processed: Array<KVT<string, string>>
  dropped: number
  repartitioned: Array<KVT<string, string>>
}

describe('null keys through repartition topics (KIP-962)', () => {
  describe('stream-stream joins after a key change', () => {
    const run = (kind: 'join' | 'leftJoin' | 'outerJoin'): Run => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, string>()
      const left = rekeyed(builder, 'left')
      const right = rekeyed(builder, 'right')
      const w = JoinWindows.ofTimeDifferenceWithNoGrace(10)
      const sj = StreamJoined.with(S, S, S).withName('j')
      const joined =
        kind === 'join'
          ? left.join(right, joiner, w, sj)
          : kind === 'leftJoin'
            ? left.leftJoin(right, joiner, w, sj)
            : left.outerJoin(right, joiner, w, sj)
      joined.process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const l = driver.createInputTopic('left', S, S)
      const r = driver.createInputTopic('right', S, S)
      l.pipeInput('k', 'a', 1)
      r.pipeInput('k', 'b', 2)
      l.pipeInput('k', '-x', 3)
      r.pipeInput('k', '-y', 4)
      const result = {
        processed,
        dropped: droppedRecordsTotal(driver.metrics()),
        repartitioned: readAll(driver.createOutputTopic(`${APP}-j-left-repartition`, S, S))
      }
      driver.close()
      return result
    }

    it('inner join: the repartition filters drop the null-key records (no relaxed join downstream)', () => {
      expect(run('join')).to.deep.equal({
        processed: [['k', 'a+b', 2]],
        dropped: 0,
        repartitioned: [['k', 'a', 1]]
      })
    })

    it('left join: a left null-key record is joined with null at once, a right one is dropped and counted', () => {
      expect(run('leftJoin')).to.deep.equal({
        processed: [
          ['k', 'a+b', 2],
          [null, '-x+null', 3]
        ],
        dropped: 1,
        repartitioned: [
          ['k', 'a', 1],
          [null, '-x', 3]
        ]
      })
    })

    it('outer join: a null-key record of either side is joined with null at once', () => {
      expect(run('outerJoin')).to.deep.equal({
        processed: [
          ['k', 'a+b', 2],
          [null, '-x+null', 3],
          [null, 'null+-y', 4]
        ],
        dropped: 0,
        repartitioned: [
          ['k', 'a', 1],
          [null, '-x', 3]
        ]
      })
    })
  })

  describe('stream-table joins after a key change', () => {
    const run = (left: boolean): Run => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, string>()
      const table = builder.table('table', Consumed.with(S, S))
      const stream = rekeyed(builder, 'stream')
      const joined = Joined.with(S, S, S).withName('st')
      ;(left ? stream.leftJoin(table, joiner, joined) : stream.join(table, joiner, joined)).process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      driver.createInputTopic('table', S, S).pipeInput('k', 'T', 0)
      const input = driver.createInputTopic('stream', S, S)
      input.pipeInput('k', 'a', 1)
      input.pipeInput('k', '-x', 2)
      input.pipeInput('z', 'b', 3)
      const result = {
        processed,
        dropped: droppedRecordsTotal(driver.metrics()),
        repartitioned: readAll(driver.createOutputTopic(`${APP}-st-repartition`, S, S))
      }
      driver.close()
      return result
    }

    it('inner join: the repartition filter drops the null-key record', () => {
      expect(run(false)).to.deep.equal({
        processed: [['k', 'a+T', 1]],
        dropped: 0,
        repartitioned: [
          ['k', 'a', 1],
          ['z', 'b', 3]
        ]
      })
    })

    it('left join: the null-key record is joined with null, not counted', () => {
      expect(run(true)).to.deep.equal({
        processed: [
          ['k', 'a+T', 1],
          [null, '-x+null', 2],
          ['z', 'b+null', 3]
        ],
        dropped: 0,
        repartitioned: [
          ['k', 'a', 1],
          [null, '-x', 2],
          ['z', 'b', 3]
        ]
      })
    })
  })

  it('one repartition topic shared by an inner and a left join (a stream joined twice) carries the null key to both', () => {
    const builder = new StreamsBuilder()
    const inner = capture<string, string>()
    const left = capture<string, string>()
    const table = builder.table('table', Consumed.with(S, S))
    const stream = rekeyed(builder, 'stream')
    stream.join(table, joiner).process(inner.supplier)
    stream.leftJoin(table, joiner).process(left.supplier)
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('stream', S, S).pipeInput('k', '-x', 5)
    expect(inner.processed).to.deep.equal([])
    expect(left.processed).to.deep.equal([[null, '-x+null', 5]])
    expect(droppedRecordsTotal(driver.metrics())).to.equal(1)
    driver.close()
  })

  it('KStream.repartition() without a relaxed join downstream drops null-key records at its filter', () => {
    const builder = new StreamsBuilder()
    const repartitioned = builder
      .stream('in', Consumed.with(S, S))
      .map((k, v) => KeyValue.pair(v === 'none' ? (null as unknown as string) : k, v))
      .repartition(Repartitioned.as<string, string>('r').withKeySerde(S).withValueSerde(S))
    repartitioned.to('passed', Produced.with(S, S))
    repartitioned.groupByKey().count().toStream().to('counts', Produced.with(S, Serdes.Long()))
    const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 })
    const input = driver.createInputTopic('in', S, S)
    input.pipeInput('a', 'x', 1)
    input.pipeInput('a', 'none', 2)
    input.pipeInput('a', 'y', 3)
    expect(readAll(driver.createOutputTopic('passed', S, S))).to.deep.equal([
      ['a', 'x', 1],
      ['a', 'y', 3]
    ])
    expect(readAll(driver.createOutputTopic('counts', S, Serdes.Long()))).to.deep.equal([
      ['a', 1, 1],
      ['a', 2, 3]
    ])
    expect(droppedRecordsTotal(driver.metrics())).to.equal(0)
    driver.close()
  })

  it('a windowed aggregation after groupBy: the repartition filter drops the null key', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in', Consumed.with(S, S))
      .groupBy((_k, v) => (v === 'none' ? (null as unknown as string) : v), Grouped.with(S, S).withName('g'))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .toStream((w, _c) => `${w.key}@${w.window.start}`)
      .to('out', Produced.with(S, Serdes.Long()))
    const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 })
    const input = driver.createInputTopic('in', S, S)
    input.pipeInput('1', 'v', 1)
    input.pipeInput('2', 'none', 2)
    input.pipeInput('3', 'v', 3)
    expect(readAll(driver.createOutputTopic(`${APP}-g-repartition`, S, S))).to.deep.equal([
      ['v', 'v', 1],
      ['v', 'v', 3]
    ])
    expect(readAll(driver.createOutputTopic('out', S, Serdes.Long()))).to.deep.equal([
      ['v@0', 1, 1],
      ['v@0', 2, 3]
    ])
    expect(droppedRecordsTotal(driver.metrics())).to.equal(0)
    driver.close()
  })

  it('a left join two repartition topics downstream keeps null keys in both (the decision follows internal topics)', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    const table = builder.table('table', Consumed.with(S, S))
    rekeyed(builder, 'stream')
      .repartition(Repartitioned.as<string, string>('first').withKeySerde(S).withValueSerde(S))
      .selectKey((k, _v) => k)
      .leftJoin(table, joiner, Joined.with(S, S, S).withName('second'))
      .process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('stream', S, S).pipeInput('k', '-x', 5)
    expect(readAll(driver.createOutputTopic(`${APP}-first-repartition`, S, S))).to.deep.equal([[null, '-x', 5]])
    expect(processed).to.deep.equal([[null, '-x+null', 5]])
    driver.close()
  })
})
