import { expect } from 'chai'
import { StreamsError, TopologyError } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import { JoinWindows } from '../../src/join-windows.js'
import { StreamJoined } from '../../src/stream-joined.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture, readAll } from '../helpers.js'
import { I, S, droppedRecords, joiner, streamStreamJoin } from './join-helpers.js'

describe('KStream-KStream inner join (KStreamKStreamJoinTest)', () => {
  it('joins both ways within the window; the result has the larger timestamp', () => {
    const f = streamStreamJoin('join', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    // no match yet: the other window is empty
    f.left.pipeInput(0, 'A0', 0)
    f.left.pipeInput(1, 'A1', 0)
    expect(f.take()).to.deep.equal([])
    f.right.pipeInput(0, 'a0', 0)
    f.right.pipeInput(1, 'a1', 0)
    expect(f.take()).to.deep.equal([
      [0, 'A0+a0', 0],
      [1, 'A1+a1', 0]
    ])
    for (let k = 0; k < 4; k++) f.left.pipeInput(k, 'B' + k, 0)
    expect(f.take()).to.deep.equal([
      [0, 'B0+a0', 0],
      [1, 'B1+a1', 0]
    ])
    // every stored left record of the key matches, oldest first, duplicates in insertion order
    for (let k = 0; k < 4; k++) f.right.pipeInput(k, 'b' + k, 0)
    expect(f.take()).to.deep.equal([
      [0, 'A0+b0', 0],
      [0, 'B0+b0', 0],
      [1, 'A1+b1', 0],
      [1, 'B1+b1', 0],
      [2, 'B2+b2', 0],
      [3, 'B3+b3', 0]
    ])
    f.driver.close()
  })

  it('window bounds are inclusive on both sides (KStreamKStreamJoinTest.testWindowing)', () => {
    const f = streamStreamJoin('join', JoinWindows.ofTimeDifferenceAndGrace(100, 1000))
    f.left.pipeInput(0, 'L', 1000)
    for (const ts of [899, 900, 1000, 1100, 1101]) f.right.pipeInput(0, 'r' + ts, ts)
    expect(f.take()).to.deep.equal([
      [0, 'L+r900', 1000],
      [0, 'L+r1000', 1000],
      [0, 'L+r1100', 1100]
    ])
    // a late left record still joins the right records within 100 ms of it
    f.left.pipeInput(0, 'M', 950)
    expect(f.take()).to.deep.equal([
      [0, 'M+r899', 950],
      [0, 'M+r900', 950],
      [0, 'M+r1000', 1000]
    ])
    f.driver.close()
  })

  it('before/after make the window asymmetric; the other side sees it mirrored', () => {
    const f = streamStreamJoin('join', JoinWindows.ofTimeDifferenceAndGrace(0, 1000).after(100))
    f.left.pipeInput(0, 'L', 1000)
    for (const ts of [999, 1000, 1100, 1101]) f.right.pipeInput(0, 'r' + ts, ts)
    expect(f.take()).to.deep.equal([
      [0, 'L+r1000', 1000],
      [0, 'L+r1100', 1100]
    ])
    // left records join right records in [ts, ts + 100]
    f.left.pipeInput(0, 'M', 949)
    f.left.pipeInput(0, 'N', 950)
    expect(f.take()).to.deep.equal([
      [0, 'M+r999', 999],
      [0, 'M+r1000', 1000],
      [0, 'N+r999', 999],
      [0, 'N+r1000', 1000]
    ])
    // so a right record at 1050 joins left records in [950, 1050], oldest first
    f.right.pipeInput(0, 'r1050', 1050)
    expect(f.take()).to.deep.equal([
      [0, 'N+r1050', 1050],
      [0, 'L+r1050', 1050]
    ])
    f.driver.close()
  })

  it('records with a null key or value are dropped and counted', () => {
    const f = streamStreamJoin('join', JoinWindows.ofTimeDifferenceWithNoGrace(100))
    f.left.pipeInput(null, 'A', 0)
    f.left.pipeInput(1, null, 0)
    f.right.pipeInput(null, 'a', 0)
    f.right.pipeInput(1, null, 0)
    f.right.pipeInput(1, 'a1', 0)
    expect(f.take()).to.deep.equal([])
    expect(droppedRecords(f.driver.metrics())).to.equal(4)
    f.driver.close()
  })

  it('a ValueJoinerWithKey receives the key', () => {
    const builder = new StreamsBuilder()
    const { supplier, processed } = capture<number, string>()
    const s1 = builder.stream('topic1', Consumed.with(I, S))
    const s2 = builder.stream('topic2', Consumed.with(I, S))
    s1.join(
      s2,
      (k: number, v1: string, v2: string) => `${k}:${v1}+${v2}`,
      JoinWindows.ofTimeDifferenceWithNoGrace(10),
      StreamJoined.with(I, S, S)
    ).process(supplier)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('topic1', I, S).pipeInput(7, 'A', 5)
    driver.createInputTopic('topic2', I, S).pipeInput(7, 'a', 9)
    expect(processed).to.deep.equal([[7, '7:A+a', 9]])
    driver.close()
  })

  it('describe() prints the nodes and stores Kafka Streams prints (StreamsBuilderTest expectedJoinedTopology)', () => {
    const builder = new StreamsBuilder()
    builder.stream('topic').join(builder.stream('other-topic'), (v1, v2) => [v1, v2], JoinWindows.ofTimeDifferenceWithNoGrace(60_000))
    expect(builder.build().describe().toString()).to.equal(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KSTREAM-WINDOWED-0000000002\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [other-topic])\n' +
        '      --> KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n' +
        '      --> KSTREAM-JOINTHIS-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n' +
        '      --> KSTREAM-JOINOTHER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KSTREAM-JOINOTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000003\n' +
        '    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n' +
        '      --> KSTREAM-MERGE-0000000006\n' +
        '      <-- KSTREAM-WINDOWED-0000000002\n' +
        '    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-JOINOTHER-0000000005\n\n'
    )
  })

  it('a StreamJoined name prefixes the processors but still uses up the generated indexes; store names follow withStoreName', () => {
    const builder = new StreamsBuilder()
    const s1 = builder.stream('t1', Consumed.with(S, S))
    const s2 = builder.stream('t2', Consumed.with(S, S))
    s1.leftJoin(s2, joiner, JoinWindows.ofTimeDifferenceWithNoGrace(3_600_000), StreamJoined.with(S, S, S).withName('op')).to('out')
    const t = builder.build()
    const names = t
      .describe()
      .subtopologies[0]!.nodes.map(n => n.name)
      .sort()
    expect(names).to.deep.equal([
      'KSTREAM-SINK-0000000007',
      'KSTREAM-SOURCE-0000000000',
      'KSTREAM-SOURCE-0000000001',
      'op-merge',
      'op-other-windowed',
      'op-outer-other-join',
      'op-this-join',
      'op-this-windowed'
    ])
    const driver = new TopologyTestDriver(t, { defaultKeySerde: S, defaultValueSerde: S })
    expect([...driver.getAllStateStores().keys()].sort()).to.deep.equal([
      'KSTREAM-JOINTHIS-0000000004-store',
      'KSTREAM-OUTEROTHER-0000000005-store',
      'KSTREAM-OUTERSHARED-0000000004-store'
    ])
    driver.close()

    const b2 = new StreamsBuilder()
    b2.stream('t1', Consumed.with(S, S)).outerJoin(
      b2.stream('t2', Consumed.with(S, S)),
      joiner,
      JoinWindows.ofTimeDifferenceWithNoGrace(10),
      StreamJoined.with(S, S, S).withStoreName('st')
    )
    const d2 = new TopologyTestDriver(b2.build())
    expect([...d2.getAllStateStores().keys()].sort()).to.deep.equal([
      'st-outer-other-join-store',
      'st-outer-shared-join-store',
      'st-outer-this-join-store'
    ])
    d2.close()
  })

  it('repartitions a side whose key changed: <name>-left / -right topics, or the side node name', () => {
    const builder = new StreamsBuilder()
    const s1 = builder.stream('t1', Consumed.with(S, S)).selectKey((_k, v) => v)
    const s2 = builder.stream('t2', Consumed.with(S, S)).map((k, v) => ({ key: v, value: k }))
    s1.join(s2, joiner, JoinWindows.ofTimeDifferenceWithNoGrace(10), StreamJoined.with(S, S, S).withName('j')).to('out')
    const topics = JSON.stringify(
      builder
        .build()
        .describe()
        .toString()
        .match(/topics?: \[?[^\])]+/g)
    )
    expect(topics).to.contain('j-left-repartition').and.to.contain('j-right-repartition')

    const b2 = new StreamsBuilder()
    const { supplier, processed } = capture<string, string>()
    const l = b2.stream('t1', Consumed.with(S, S)).selectKey((_k, v) => v.split(':')[0]!)
    const r = b2.stream('t2', Consumed.with(S, S))
    l.join(r, joiner, JoinWindows.ofTimeDifferenceWithNoGrace(10), StreamJoined.with(S, S, S)).process(supplier)
    const driver = new TopologyTestDriver(b2.build())
    driver.createInputTopic('t1', S, S).pipeInput('x', 'k:v', 5)
    driver.createInputTopic('t2', S, S).pipeInput('k', 'w', 6)
    expect(processed).to.deep.equal([['k', 'k:v+w', 6]])
    // source 0, key-select 1, then the repartition sink 2 / filter 3 / source 4 named after the key-select node
    const repartition = driver.createOutputTopic('dummy-topology-test-driver-app-id-KSTREAM-KEY-SELECT-0000000001-repartition', S, S)
    expect(readAll(repartition)).to.deep.equal([['k', 'k:v', 5]])
    driver.close()
  })

  it('a stream joined twice without a name reuses its repartition topic (the indexes are still used up)', () => {
    const builder = new StreamsBuilder()
    const keyed = builder.stream('t1', Consumed.with(S, S)).selectKey((_k, v) => v)
    const other = builder.stream('t2', Consumed.with(S, S))
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(10)
    keyed.join(other, joiner, w, StreamJoined.with(S, S, S))
    keyed.join(other, joiner, w, StreamJoined.with(S, S, S))
    const description = builder.build().describe().toString()
    expect(description.match(/Sink: [^ ]+ \(topic: [^)]+\)/g)).to.deep.equal([
      'Sink: KSTREAM-SINK-0000000003 (topic: KSTREAM-KEY-SELECT-0000000001-repartition)'
    ])
    // the second join: repartition indexes 11-13 used up, windowed 14 and 15, join 16 and 17, merge 18
    expect(description).to.contain(
      'Processor: KSTREAM-WINDOWED-0000000014 (stores: [KSTREAM-JOINTHIS-0000000016-store])\n' +
        '      --> KSTREAM-JOINTHIS-0000000016\n      <-- KSTREAM-SOURCE-0000000005\n'
    )
  })

  it('explicit store suppliers must retain duplicates, match the windows and have distinct names', () => {
    const windows = JoinWindows.ofTimeDifferenceAndGrace(10, 5)
    const join = (a: ReturnType<typeof Stores.inMemoryWindowStore>, b: ReturnType<typeof Stores.inMemoryWindowStore>): void => {
      const builder = new StreamsBuilder()
      builder
        .stream('t1', Consumed.with(S, S))
        .join(
          builder.stream('t2', Consumed.with(S, S)),
          joiner,
          windows,
          StreamJoined.with(S, S, S).withThisStoreSupplier(a).withOtherStoreSupplier(b)
        )
    }
    expect(() => join(Stores.inMemoryWindowStore('a', 25, 20, true), Stores.inMemoryWindowStore('b', 25, 20, true))).not.to.throw()
    expect(() => join(Stores.inMemoryWindowStore('a', 25, 20, false), Stores.inMemoryWindowStore('b', 25, 20, true))).to.throw(
      TopologyError
    )
    expect(() => join(Stores.inMemoryWindowStore('a', 30, 20, true), Stores.inMemoryWindowStore('b', 25, 20, true))).to.throw(TopologyError)
    expect(() => join(Stores.inMemoryWindowStore('a', 25, 20, true), Stores.inMemoryWindowStore('a', 25, 20, true)))
      .to.throw(TopologyError)
      .with.property('code', 'TOPOLOGY_INVALID')
  })

  it('the join window stores retain duplicates and log to a delete-policy changelog', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('t1', Consumed.with(S, S))
      .join(
        builder.stream('t2', Consumed.with(S, S)),
        joiner,
        JoinWindows.ofTimeDifferenceAndGrace(10, 5),
        StreamJoined.with(S, S, S).withLoggingEnabled({ 'segment.ms': '1000' })
      )
    const topology = builder.build()
    const logConfig = topology[TOPOLOGY_DEF]().storeBuilders.get('KSTREAM-JOINTHIS-0000000004-store')!.logConfig
    expect(logConfig).to.deep.equal({ 'cleanup.policy': 'delete', 'retention.ms': String(25 + 86_400_000), 'segment.ms': '1000' })
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('t1', S, S).pipeInput('k', 'A', 1)
    driver.createInputTopic('t1', S, S).pipeInput('k', 'A', 1)
    const store = driver.getWindowStore<string, string>('KSTREAM-JOINTHIS-0000000004-store')!
    expect([...store.fetch('k', 0, 10)].map(kv => [kv.key, kv.value])).to.deep.equal([
      [1, 'A'],
      [1, 'A']
    ])
    driver.close()
  })
})

describe('JoinWindows', () => {
  it('size is before + after; grace defaults to 0', () => {
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(10)
    expect([w.beforeMs, w.afterMs, w.size(), w.gracePeriodMs()]).to.deep.equal([10, 10, 20, 0])
    const a = JoinWindows.ofTimeDifferenceAndGrace(10, 7).before(3).after(20)
    expect([a.beforeMs, a.afterMs, a.size(), a.gracePeriodMs()]).to.deep.equal([3, 20, 23, 7])
  })

  it('rejects a negative window interval or grace, allows a negative bound when the size stays >= 0', () => {
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(-1))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => JoinWindows.ofTimeDifferenceAndGrace(10, -1))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(10).before(-11))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(JoinWindows.ofTimeDifferenceWithNoGrace(10).before(-5).size()).to.equal(5)
    expect(() => JoinWindows.ofTimeDifferenceWithNoGrace(1.5))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})

describe('join types', () => {
  it('infers the joiner parameter types from both sides', () => {
    const builder = new StreamsBuilder()
    const s1 = builder.stream('t1', Consumed.with(S, I))
    const s2 = builder.stream('t2', Consumed.with(S, S))
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(1)
    const inner = s1.join(s2, (n, s) => n.toFixed(0) + s.toUpperCase(), w)
    const innerCheck: typeof inner extends import('../../src/kstream.js').KStream<string, string> ? true : false = true
    expect(innerCheck).to.equal(true)
    s1.leftJoin(s2, (n, s) => n + (s === null ? 0 : s.length), w)
    s1.outerJoin(s2, (n, s) => String(n) + String(s), w)
    // a ValueJoinerWithKey declares its parameter types (as a ValueMapperWithKey does)
    s1.join(s2, (key: string, n: number, s: string) => key.length + n + s.length, w)
    // @ts-expect-error the key is a string
    s1.join(s2, (key: number, n: number, s: string) => key + n + s.length, w)
    // @ts-expect-error the stream values are numbers, not strings
    s1.join(s2, (n: string, s: string) => n + s, w)
    // @ts-expect-error a left join's other value may be null
    s1.leftJoin(s2, (n: number, s: string) => n + s.length, w)
    // @ts-expect-error outer joins pass null for this side too
    s1.outerJoin(s2, (n: number, s: string | null) => n + String(s), w)

    const table = builder.table('t3', Consumed.with(S, S))
    const tableJoin = s1.join(table, (n, t) => n * t.length)
    const tableCheck: typeof tableJoin extends import('../../src/kstream.js').KStream<string, number> ? true : false = true
    expect(tableCheck).to.equal(true)
    s1.leftJoin(table, (n, t) => n + (t ?? '').length)
    // @ts-expect-error a left join's table value may be null
    s1.leftJoin(table, (n: number, t: string) => n + t.length)
    // @ts-expect-error the table's values are strings
    s1.join(table, (n: number, t: number) => n + t)
    // @ts-expect-error a KTable takes no JoinWindows (checked at run time too)
    expect(() => s1.join(table, (n: number, t: string) => n + t, w))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')
    // @ts-expect-error a KStream cannot be outer-joined with a KTable
    expect(() => s1.outerJoin(table, (n: number, t: string) => n + t))
      .to.throw(StreamsError)
      .with.property('code', 'ILLEGAL_ARGUMENT')

    const global = builder.globalTable('t4', Consumed.with(I, S))
    s1.join(
      global,
      (_k, n) => n,
      (n, g) => n + g.length
    )
    s1.leftJoin(
      global,
      (k, n) => k.length + n,
      (n, g) => n + String(g)
    )
    s1.join(
      global,
      // @ts-expect-error the key selector must return the global table's key type
      (k, _n) => k,
      (n, g) => n + g.length
    )
  })
})
