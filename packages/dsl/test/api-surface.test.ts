/**
 * The DSL's public surface, imported from the package barrel only: every name of Kafka Streams'
 * DSL the issue lists exists with its Kafka-like signature (compile-time, `tsc -b`), and one
 * topology using them all builds and runs. Also KTable.toStream(mapper): Kafka's toStream then
 * selectKey (names and records).
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier } from '@kstreams/core'
import { InMemoryDslStoreSuppliers, Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import {
  BranchedKStream,
  Branched,
  BufferConfig,
  Consumed,
  EmitStrategy,
  Grouped,
  JoinWindows,
  Joined,
  KeyValue,
  Materialized,
  Named,
  Produced,
  Repartitioned,
  SessionWindow,
  SessionWindows,
  SlidingWindows,
  StreamJoined,
  StreamsBuilder,
  Suppressed,
  TableJoined,
  TimeWindow,
  TimeWindows,
  type Window,
  Windowed,
  WindowedSerdes
} from '../src/index.js'
import type {
  CogroupedKStream,
  DslStoreSuppliers,
  GlobalKTable,
  KGroupedStream,
  KGroupedTable,
  KStream,
  KTable,
  SessionWindowedKStream,
  StreamPartitioner,
  TimeWindowedKStream,
  TopicNameExtractor
} from '../src/index.js'
import { capture, readAll } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()
const L = Serdes.Long()

describe("DSL public API (the issue's list, from the package barrel)", () => {
  it('StreamsBuilder, KStream, KTable, grouping, windows, joins, suppress and config objects compose with Kafka-like signatures', () => {
    const dsl: DslStoreSuppliers = InMemoryDslStoreSuppliers
    const builder = new StreamsBuilder({ dslStoreSuppliers: dsl })
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('user-store'), S, S))
    const stream: KStream<string, string> = builder.stream('in', Consumed.with(S, S))
    const table: KTable<string, string> = builder.table('tab', Consumed.with(S, S), Materialized.as('tab-store'))
    const global: GlobalKTable<string, string> = builder.globalTable('glob', Consumed.with(S, S))

    // stateless KStream operators
    const mapped: KStream<string, number> = stream
      .filter((_k, v) => v !== '')
      .filterNot((_k, v) => v === 'x')
      .map((k, v) => KeyValue.pair(k, v))
      .mapValues(v => v.length)
    const flat: KStream<string, string> = stream.flatMap((k, v) => [KeyValue.pair(k, v)]).flatMapValues(v => [v, v])
    const keyed: KStream<number, string> = stream.selectKey((_k, v) => v.length).peek(() => {})
    stream.foreach(() => {}, Named.as('each'))
    const branches = stream.split(Named.as('split-'))
    expect(branches).to.be.instanceOf(BranchedKStream)
    branches.branch((_k, v) => v === 'a', Branched.as('a')).defaultBranch(Branched.as('rest'))
    const merged: KStream<string, string> = stream.merge(flat)
    const repartitioned: KStream<number, string> = keyed.repartition(Repartitioned.with(I, S).withName('rep').withNumberOfPartitions(2))
    const partitioner: StreamPartitioner<string, number> = () => 0
    mapped.to('out', Produced.with(S, I).withStreamPartitioner(partitioner))
    const extractor: TopicNameExtractor<string, string> = () => 'dyn'
    merged.to(extractor, Produced.with(S, S))
    const asTable: KTable<string, string> = merged.toTable(Named.as('to-table'), Materialized.with(S, S))
    const processed: KStream<string, string> = stream.process(() => ({ process() {} }), 'user-store')
    const processedValues: KStream<string, number> = stream.processValues(() => ({ init() {}, process() {} }))

    // grouping and aggregations
    const byKey: KGroupedStream<string, string> = stream.groupByKey(Grouped.with(S, S))
    const byValue: KGroupedStream<string, string> = stream.groupBy((_k, v) => v, Grouped.with(S, S))
    const counted: KTable<string, number> = byKey.count()
    const reduced: KTable<string, string> = byKey.reduce((a, b) => a + b)
    const aggregated: KTable<string, number> = byValue.aggregate(
      () => 0,
      (_k, v, agg) => agg + v.length,
      Materialized.with(S, I)
    )
    const cogrouped: CogroupedKStream<string, number> = byKey.cogroup((_k, _v, agg: number) => agg + 1)
    const cogroupTable: KTable<string, number> = cogrouped
      .cogroup(byValue, (_k, _v, agg) => agg + 2)
      .aggregate(() => 0, Materialized.with(S, I))

    // windows
    const tumbling: TimeWindowedKStream<string, string> = byKey.windowedBy(TimeWindows.ofSizeWithNoGrace(10))
    const hopping: TimeWindowedKStream<string, string> = byKey.windowedBy(TimeWindows.ofSizeAndGrace(10, 5).advanceBy(5))
    const sliding: TimeWindowedKStream<string, string> = byKey.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 1))
    byKey.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10)).count()
    const sessions: SessionWindowedKStream<string, string> = byKey.windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 2))
    byKey.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count()
    const windowedCount: KTable<Windowed<string>, number> = tumbling.emitStrategy(EmitStrategy.onWindowClose()).count()
    hopping.emitStrategy(EmitStrategy.onWindowUpdate()).reduce((a, b) => a + b)
    sliding.aggregate(
      () => '',
      (_k, v, agg) => agg + v,
      Materialized.as<string, string>('sliding-store').withRetention(100).withCachingDisabled().withLoggingDisabled()
    )
    const sessionAgg: KTable<Windowed<string>, string> = sessions.aggregate(
      () => '',
      (_k, v, agg) => agg + v,
      (_k, a, b) => a + b
    )
    sessions.reduce((a, b) => a + b)
    windowedCount.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    sessionAgg.suppress(Suppressed.untilTimeLimit(100, BufferConfig.maxRecords(10)))
    counted.suppress(Suppressed.untilTimeLimit(100, BufferConfig.maxBytes(1000)))
    reduced.suppress(Suppressed.untilTimeLimit(100, BufferConfig.unbounded()))

    // KTable operators, KGroupedTable
    const filtered: KTable<string, string> = table.filter((_k, v) => v !== '').filterNot((_k, v) => v === 'x')
    const lengths: KTable<string, number> = filtered.mapValues(v => v.length)
    const grouped: KGroupedTable<string, number> = lengths.groupBy((k, v) => KeyValue.pair(k, v), Grouped.with(S, I))
    grouped.count()
    grouped.reduce(
      (a, b) => a + b,
      (a, b) => a - b
    )
    grouped.aggregate(
      () => 0,
      (_k, v, agg) => agg + v,
      (_k, v, agg) => agg - v
    )
    table.join(asTable, (a, b) => a + b)
    table.leftJoin(asTable, (a, b) => a + String(b))
    table.outerJoin(asTable, (a, b) => String(a) + String(b))
    table.join(
      lengths,
      (v: string) => v,
      (a: string, b: number) => a + String(b),
      TableJoined.as<string, string>('fk')
    )
    table.leftJoin(
      lengths,
      (v: string) => v,
      (a, b) => a + String(b)
    )
    expect(table.queryableStoreName).to.equal('tab-store')
    expect(filtered.queryableStoreName).to.equal(undefined)
    const changes: KStream<string, string> = table.toStream()

    // joins of a KStream
    const w = JoinWindows.ofTimeDifferenceAndGrace(10, 2).before(5).after(7)
    stream.join(changes, (a, b) => a + b, w, StreamJoined.with(S, S, S))
    stream.leftJoin(changes, (a, b) => a + String(b), JoinWindows.ofTimeDifferenceWithNoGrace(5))
    stream.outerJoin(changes, (a, b) => String(a) + String(b), w, StreamJoined.as('outer'))
    stream.join(table, (a, b) => a + b, Joined.with(S, S, S))
    stream.leftJoin(table, (a, b) => a + String(b))
    stream.join(
      global,
      (_k, v) => v,
      (a, b) => a + b
    )
    stream.leftJoin(
      global,
      (_k, v) => v,
      (a, b) => a + String(b),
      Named.as('glj')
    )

    // windowed keys and serdes
    const windowed = new Windowed('k', new TimeWindow(0, 10))
    const window: Window = windowed.window
    expect([windowed.key, window.start, window.end]).to.deep.equal(['k', 0, 10])
    const timeSerde = WindowedSerdes.timeWindowedSerdeFrom(S, 10)
    const sessionSerde = WindowedSerdes.sessionWindowedSerdeFrom(S)
    const session = new Windowed('k', new SessionWindow(3, 8))
    const decoded = sessionSerde.deserializer().deserialize('t', sessionSerde.serializer().serialize('t', session))
    expect([decoded?.key, decoded?.window.start, decoded?.window.end]).to.deep.equal(['k', 3, 8])
    expect(timeSerde.deserializer().deserialize('t', timeSerde.serializer().serialize('t', windowed))?.window.end).to.equal(10)
    const supplier: KeyValueBytesStoreSupplier = Stores.inMemoryKeyValueStore('supplied')
    byKey.count(
      Materialized.as<string, number>(supplier)
        .withKeySerde(S)
        .withValueSerde(L as never)
    )

    for (const unused of [processed, processedValues, aggregated, cogroupTable, repartitioned]) expect(unused).to.not.equal(undefined)
    const topology = builder.build()
    expect(topology.describe().subtopologies.length).to.be.greaterThan(5)
    const driver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: S })
    driver.createInputTopic('in', S, S).pipeInput('k', 'abc', 1)
    expect(readAll(driver.createOutputTopic('out', S, I))).to.deep.equal([['k', 3, 1]])
    driver.close()
  })

  describe('KTable.toStream(mapper)', () => {
    it('re-keys every update with the mapper (tombstones too), keeping value and timestamp', () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<string, number>()
      builder
        .table('t', Consumed.with(S, I))
        .toStream((k, v) => `${k}:${String(v)}`)
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('t', S, I)
      input.pipeInput('a', 1, 10)
      input.pipeInput('a', null, 11)
      expect(processed).to.deep.equal([
        ['a:1', 1, 10],
        ['a:null', null, 11]
      ])
      driver.close()
    })

    it('describe(): KTABLE-TOSTREAM then KSTREAM-KEY-SELECT, a Named naming the first (Kafka: toStream(named).selectKey(mapper))', () => {
      const builder = new StreamsBuilder()
      builder
        .table<string, string>('t')
        .toStream((k, _v) => k, Named.as('changes'))
        .to('out')
      expect(builder.build().describe().toString()).to.equal(
        'Topologies:\n' +
          '   Sub-topology: 0\n' +
          '    Source: KSTREAM-SOURCE-0000000001 (topics: [t])\n' +
          '      --> KTABLE-SOURCE-0000000002\n' +
          '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
          '      --> changes\n' +
          '      <-- KSTREAM-SOURCE-0000000001\n' +
          '    Processor: changes (stores: [])\n' +
          '      --> KSTREAM-KEY-SELECT-0000000004\n' +
          '      <-- KTABLE-SOURCE-0000000002\n' +
          '    Processor: KSTREAM-KEY-SELECT-0000000004 (stores: [])\n' +
          '      --> KSTREAM-SINK-0000000005\n' +
          '      <-- changes\n' +
          '    Sink: KSTREAM-SINK-0000000005 (topic: out)\n' +
          '      <-- KSTREAM-KEY-SELECT-0000000004\n\n'
      )
    })
  })
})
