import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { Branched, Consumed, Grouped, Joined, Materialized, Named, Produced, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()

/** describe() text of a DSL topology: node and store names follow Kafka Streams' numbering. */
describe('StreamsBuilder: generated names and describe()', () => {
  it('numbers stateless operators in creation order', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('input')
      .filter(() => true)
      .mapValues(v => v)
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-MAPVALUES-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000003\n' +
        '      <-- KSTREAM-FILTER-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000003 (topic: output)\n' +
        '      <-- KSTREAM-MAPVALUES-0000000002\n\n'
    )
  })

  it('toTable after a key change (KStreamImplTest): names reserved before the repartition nodes', () => {
    const builder = new StreamsBuilder()
    builder
      .stream<string, string>('input')
      .map((k, v) => KeyValue.pair(v.length, k))
      .toTable(Materialized.with(Serdes.Integer(), undefined))
      .toStream()
      .to('output')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-MAP-0000000001\n' +
        '    Processor: KSTREAM-MAP-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-MAP-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-TOTABLE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-TOTABLE-0000000002-repartition])\n' +
        '      --> KSTREAM-TOTABLE-0000000002\n' +
        '    Processor: KSTREAM-TOTABLE-0000000002 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-TOTABLE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000007\n\n'
    )
  })

  it('a table source burns index 0 for its store name and is not materialized unless named', () => {
    const builder = new StreamsBuilder()
    builder.table('input-topic')
    builder.table('named-topic', Materialized.as('my-store'))
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000003 (topics: [named-topic])\n' +
        '      --> KTABLE-SOURCE-0000000004\n' +
        '    Processor: KTABLE-SOURCE-0000000004 (stores: [my-store])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000003\n\n'
    )
  })

  it('groupBy + reduce: the repartition topic is named after the generated KSTREAM-REDUCE store', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('sourceTopic', Consumed.with(S, S))
      .groupBy((_k, v) => v)
      .reduce((_a, b) => b)
      .toStream()
      .to('targetTopic')
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [sourceTopic])\n' +
        '      --> KSTREAM-KEY-SELECT-0000000001\n' +
        '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-REDUCE-STATE-STORE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-REDUCE-STATE-STORE-0000000002-repartition])\n' +
        '      --> KSTREAM-REDUCE-0000000003\n' +
        '    Processor: KSTREAM-REDUCE-0000000003 (stores: [KSTREAM-REDUCE-STATE-STORE-0000000002])\n' +
        '      --> KTABLE-TOSTREAM-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-REDUCE-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: targetTopic)\n' +
        '      <-- KTABLE-TOSTREAM-0000000007\n\n'
    )
  })

  it('a user-named repartition gets <name>-repartition-sink/-filter/-source nodes (the counter still advances)', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in')
      .selectKey(k => k)
      .groupByKey(Grouped.as('grouping'))
      .count(Materialized.as('counts'))
      .toStream()
      .to('out')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Sink: grouping-repartition-sink (topic: grouping-repartition)')
    expect(text).to.contain('Processor: grouping-repartition-filter (stores: [])')
    expect(text).to.contain('Source: grouping-repartition-source (topics: [grouping-repartition])')
    // source 0, key-select 1, aggregate 2, (sink 3, filter 4, source 5 burned), to-stream 6, sink 7
    expect(text).to.contain('Processor: KSTREAM-AGGREGATE-0000000002 (stores: [counts])')
    expect(text).to.contain('Processor: KTABLE-TOSTREAM-0000000006 (stores: [])')
    expect(text).to.contain('Sink: KSTREAM-SINK-0000000007 (topic: out)')
  })

  it('groupByKey without a key change does not repartition', () => {
    const builder = new StreamsBuilder()
    builder.stream('in').groupByKey().count()
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [in])\n' +
        '      --> KSTREAM-AGGREGATE-0000000002\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n'
    )
  })

  it('count(Materialized without a store name) burns one more index, as Kafka Streams does for compatibility', () => {
    const builder = new StreamsBuilder()
    builder.stream('in').groupByKey().count(Materialized.with(S, Serdes.Long()))
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [in])\n' +
        '      --> KSTREAM-AGGREGATE-0000000003\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n'
    )
  })

  it('split names its branch processors <split name><branch name or position> and burns one index per branch', () => {
    const builder = new StreamsBuilder()
    const branches = builder
      .stream('in')
      .split(Named.as('s-'))
      .branch(() => true, Branched.as('a'))
      .branch(() => true)
      .defaultBranch()
    branches.get('s-a')!.to('out')
    const text = builder.build().describe().toString()
    expect([...branches.keys()]).to.deep.equal(['s-a', 's-2', 's-0'])
    const children = /Processor: s- \(stores: \[\]\)\n {6}--> (.*)\n/.exec(text)?.[1]
    expect(children?.split(', ').sort()).to.deep.equal(['s-0', 's-2', 's-a'])
    // source 0, the named splitter still draws 1, three burned branch indexes 2..4, sink 5
    expect(text).to.contain('Sink: KSTREAM-SINK-0000000005 (topic: out)')
  })

  it('Named, Consumed.as and Produced.as override generated names but still draw an index (NamedInternal.orElseGenerateWithPrefix); a named process() does not', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in', Consumed.as('source'))
      .filter(() => true, Named.as('keep'))
      .peek(() => {})
      .process(() => ({ process() {} }), Named.as('proc'))
    builder.stream('in2').to('out', Produced.as('sink'))
    builder.stream('in3').peek(() => {})
    const text = builder.build().describe().toString()
    expect(text).to.contain('Source: source (topics: [in])')
    expect(text).to.contain('Processor: keep (stores: [])')
    expect(text).to.contain('Processor: KSTREAM-PEEK-0000000002 (stores: [])')
    expect(text).to.contain('Processor: proc (stores: [])')
    expect(text).to.contain('Source: KSTREAM-SOURCE-0000000003 (topics: [in2])')
    expect(text).to.contain('Sink: sink (topic: out)')
    expect(text).to.contain('Source: KSTREAM-SOURCE-0000000005 (topics: [in3])')
    expect(text).to.contain('Processor: KSTREAM-PEEK-0000000006 (stores: [])')
  })

  it('a named stream-table or GlobalKTable join still draws its index', () => {
    const builder = new StreamsBuilder()
    const table = builder.table('t', Consumed.with(S, S))
    builder
      .stream('s', Consumed.with(S, S))
      .join(table, (a, b) => a + b, Joined.as('j'))
      .to('out')
    // store name 0, source 1, table source 2, stream source 3, join 4 (named), sink 5
    expect(builder.build().describe().toString()).to.contain('Sink: KSTREAM-SINK-0000000005 (topic: out)')
  })

  it('rejects illegal names with ILLEGAL_ARGUMENT', () => {
    expect(() => Named.as('bad name'))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => Materialized.as(''))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
