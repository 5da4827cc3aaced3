import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, Grouped, Materialized, Named, StreamsBuilder } from '../../src/index.js'
import type { KTable } from '../../src/index.js'
import { capture } from '../helpers.js'
import type { KVT } from '../helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
const INPUT = 'input'
const NO_CACHE = { defaultKeySerde: S, defaultValueSerde: S, statestoreCacheMaxBytes: 0 }

function run<VR>(
  builder: StreamsBuilder,
  result: KTable<string, VR>,
  feed: Array<[string, string | null, number]>,
  config: object = NO_CACHE
): Array<KVT<string, VR>> {
  const proc = capture<string, VR>()
  result.toStream().process(proc.supplier)
  const driver = new TopologyTestDriver(builder.build(), config)
  const input = driver.createInputTopic(INPUT, S, S)
  for (const [k, v, ts] of feed) input.pipeInput(k, v, ts)
  driver.close()
  return proc.processed
}

const adder = (_k: string, v: string, agg: string): string => agg + '+' + v
const remover = (_k: string, v: string, agg: string): string => agg + '-' + v

describe('KTable.groupBy + KGroupedTable aggregations (KTableAggregateTest, KGroupedTableImplTest)', () => {
  it('same grouping key: one repartition record, the aggregate subtracts and adds in one step (KIP-904)', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    const agg = table
      .groupBy((k, v) => KeyValue.pair(k, v), Grouped.with(S, S))
      .aggregate(() => '0', adder, remover, Materialized.with(S, S))
    const out = run(builder, agg, [
      ['A', '1', 10],
      ['B', '2', 15],
      ['A', '3', 20],
      ['B', '4', 18],
      ['C', '5', 5],
      ['D', '6', 25],
      ['B', '7', 15],
      ['C', '8', 10]
    ])
    expect(out).to.deep.equal([
      ['A', '0+1', 10],
      ['B', '0+2', 15],
      ['A', '0+1-1+3', 20],
      ['B', '0+2-2+4', 18],
      ['C', '0+5', 5],
      ['D', '0+6', 25],
      ['B', '0+2-2+4-4+7', 18],
      ['C', '0+5-5+8', 10]
    ])
  })

  it('changed grouping key: subtract from the old key first, then add to the new key; null keys and pairs are skipped', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    const agg = table
      .groupBy<string | null, string>(
        (k, v) => {
          if (k === 'null') return KeyValue.pair(null, v)
          if (k === 'NULL') return null as unknown as KeyValue<string, string>
          return KeyValue.pair(v, v)
        },
        Grouped.with(S, S) as Grouped<string | null, string>
      )
      .aggregate<string>(
        () => '0',
        (k, v, a) => adder(k!, v, a),
        (k, v, a) => remover(k!, v, a),
        Materialized.with(S, S)
      )
    const out = run(builder, agg as KTable<string, string>, [
      ['A', '1', 10],
      ['A', null, 15],
      ['A', '1', 12],
      ['B', '2', 20],
      ['null', '3', 25],
      ['B', '4', 23],
      ['NULL', '5', 24],
      ['B', '7', 22]
    ])
    expect(out).to.deep.equal([
      ['1', '0+1', 10],
      ['1', '0+1-1', 15],
      ['1', '0+1-1+1', 15],
      ['2', '0+2', 20],
      ['2', '0+2-2', 23],
      ['4', '0+4', 23],
      ['4', '0+4-4', 23],
      ['7', '0+7', 22]
    ])
  })

  it('count: a value moving to another group decrements the old group before incrementing the new one', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    const counts = table.groupBy((_k, v) => KeyValue.pair(v, v), Grouped.with(S, S)).count(Materialized.as<string, number>('count'))
    const out = run(builder, counts, [
      ['A', 'green', 10],
      ['B', 'green', 9],
      ['A', 'blue', 12],
      ['C', 'yellow', 15],
      ['D', 'green', 11]
    ])
    expect(out).to.deep.equal([
      ['green', 1, 10],
      ['green', 2, 10],
      ['green', 1, 12],
      ['blue', 1, 12],
      ['yellow', 1, 15],
      ['green', 2, 12]
    ])
  })

  it('removes the old value before adding the new one under the same key (testRemoveOldBeforeAddNew)', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    const agg = table
      .groupBy((k, _v) => KeyValue.pair(k.charAt(0), k.charAt(1)), Grouped.with(S, S))
      .aggregate(
        () => '',
        (_k, v, a) => a + v,
        (_k, v, a) => a.replaceAll(v, ''),
        Materialized.as<string, string>('someStore').withValueSerde(S)
      )
    const out = run(builder, agg, [
      ['11', 'A', 10],
      ['12', 'B', 20],
      ['11', null, 30],
      ['12', 'C', 40]
    ])
    expect(out).to.deep.equal([
      ['1', '1', 10],
      ['1', '12', 20],
      ['1', '2', 30],
      ['1', '2', 40]
    ])
  })

  it('reduce with adder and subtractor; a key whose aggregate is removed stays at the subtracted value', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    const reduced = table
      .groupBy((k, v) => KeyValue.pair(k.charAt(0), Number(v)), Grouped.with(S, L))
      .reduce(
        (a, b) => a + b,
        (a, b) => a - b,
        Materialized.as<string, number>('reduce').withValueSerde(L)
      )
    const out = run(builder, reduced, [
      ['a1', '5', 10],
      ['a2', '7', 8],
      ['b1', '1', 30],
      ['a1', '10', 20],
      ['a2', null, 5]
    ])
    expect(out).to.deep.equal([
      ['a', 5, 10],
      ['a', 12, 10],
      ['b', 1, 30],
      ['a', 17, 20],
      ['a', 10, 20]
    ])
  })

  it('the result store holds the aggregates with their timestamps; the unmaterialized parent table is materialized', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
    table.groupBy((_k, v) => KeyValue.pair(v, 1), Grouped.with(S, L)).count(Materialized.as<string, number>('counts'))
    const driver = new TopologyTestDriver(builder.build(), NO_CACHE)
    const input = driver.createInputTopic(INPUT, S, S)
    input.pipeInput('x', 'red', 5)
    input.pipeInput('y', 'red', 7)
    input.pipeInput('x', 'blue', 6)
    const store = driver.getTimestampedKeyValueStore<string, number>('counts')!
    expect([store.get('red')?.value, store.get('red')?.timestamp, store.get('blue')?.value, store.get('blue')?.timestamp]).to.deep.equal([
      1, 7, 1, 6
    ])
    expect(driver.getKeyValueStore<string, string>('input-STATE-STORE-0000000000')?.get('x')).to.equal('blue')
    driver.close()
  })

  for (const cacheBytes of [0, 10 * 1024 * 1024]) {
    it(`with statestoreCacheMaxBytes ${cacheBytes} every update is forwarded (the driver commits after each record)`, () => {
      const builder = new StreamsBuilder()
      const table = builder.table<string, string>(INPUT, Consumed.with(S, S))
      const counts = table.groupBy((_k, v) => KeyValue.pair(v, v), Grouped.with(S, S)).count()
      const out = run(
        builder,
        counts,
        [
          ['A', 'x', 1],
          ['B', 'x', 2],
          ['A', 'y', 3]
        ],
        { ...NO_CACHE, statestoreCacheMaxBytes: cacheBytes }
      )
      expect(out).to.deep.equal([
        ['x', 1, 1],
        ['x', 2, 2],
        ['x', 1, 3],
        ['y', 1, 3]
      ])
    })
  }

  it('statestoreCacheMaxBytes 0 forwards every update of a cached store; a cache collapses them until the commit', () => {
    const counts = (cacheBytes: number): Array<KVT<string, number>> => {
      const builder = new StreamsBuilder()
      const table = builder
        .stream<string, string>(INPUT, Consumed.with(S, S))
        .flatMapValues(v => [v, v])
        .toTable(Materialized.with(S, S))
        .groupBy((_k, v) => KeyValue.pair(v, v), Grouped.with(S, S))
        .count()
      return run(builder, table, [['a', 'x', 1]], { ...NO_CACHE, statestoreCacheMaxBytes: cacheBytes })
    }
    expect(counts(0)).to.deep.equal([
      ['x', 1, 1],
      ['x', 1, 1]
    ])
    expect(counts(10 * 1024 * 1024)).to.deep.equal([['x', 1, 1]])
  })

  it('describe(): KTABLE-SELECT, sink/source through <store>-repartition, KTABLE-AGGREGATE', () => {
    const builder = new StreamsBuilder()
    builder
      .table<string, string>(INPUT)
      .groupBy((k, v) => KeyValue.pair(v, k))
      .count()
      .toStream()
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-STATE-STORE-0000000000])\n' +
        '      --> KTABLE-SELECT-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-SELECT-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition)\n' +
        '      <-- KTABLE-SELECT-0000000003\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition])\n' +
        '      --> KTABLE-AGGREGATE-0000000007\n' +
        '    Processor: KTABLE-AGGREGATE-0000000007 (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000004])\n' +
        '      --> KTABLE-TOSTREAM-0000000008\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000008 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000009\n' +
        '      <-- KTABLE-AGGREGATE-0000000007\n' +
        '    Sink: KSTREAM-SINK-0000000009 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000008\n\n'
    )
  })

  it('describe(): a Grouped name names the select node and the topic; a Named reduce names sink, source and processor', () => {
    const builder = new StreamsBuilder()
    builder
      .table<string, string>(INPUT, Materialized.as('tbl'))
      .groupBy((k, v) => KeyValue.pair(v, k), Grouped.as<string, string>('grp'))
      .reduce(
        (a, b) => a + b,
        (a, b) => a + b,
        Named.as('red'),
        Materialized.as('red-store')
      )
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KTABLE-SOURCE-0000000001\n' +
        '    Processor: KTABLE-SOURCE-0000000001 (stores: [tbl])\n' +
        '      --> grp\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: grp (stores: [])\n' +
        '      --> red-sink\n' +
        '      <-- KTABLE-SOURCE-0000000001\n' +
        '    Sink: red-sink (topic: grp-repartition)\n' +
        '      <-- grp\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: red-source (topics: [grp-repartition])\n' +
        '      --> red\n' +
        '    Processor: red (stores: [red-store])\n' +
        '      --> none\n' +
        '      <-- red-source\n\n'
    )
  })

  it("refuses missing functions with ILLEGAL_ARGUMENT (Kafka Streams' null checks)", () => {
    const table = new StreamsBuilder().table<string, string>(INPUT)
    const missing = undefined as unknown as () => never
    expect(() => table.groupBy(missing))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    const grouped = table.groupBy((k, v) => KeyValue.pair(v, k))
    expect(() => grouped.reduce((a, b) => a + b, missing))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() =>
      grouped.aggregate(
        missing,
        (_k, _v, a) => a,
        (_k, _v, a) => a
      )
    )
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('type checks: the selector returns a KeyValue and the aggregations take a subtractor', () => {
    const builder = new StreamsBuilder()
    const table = builder.table<string, number>(INPUT)
    // @ts-expect-error the selector must return KeyValue.pair(key, value)
    table.groupBy((k, v) => k + String(v))
    const grouped = table.groupBy((k, v) => KeyValue.pair(v, k))
    // @ts-expect-error reduce needs an adder and a subtractor
    expect(() => grouped.reduce((a, b) => a + b)).to.throw()
    const counted: KTable<number, number> = grouped.count()
    expect(counted).to.not.equal(undefined)
  })
})
