/**
 * single.store.self.join (KIP-862): Kafka's KStreamKStreamSelfJoinTest (the self-join emits what
 * the two-store inner join emits, in the same order) and InternalStreamsBuilderTest's cases of
 * which joins are rewritten (one windowed processor and one store left), on describe().
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, JoinWindows, StreamJoined, StreamsBuilder } from '../../src/index.js'
import type { KStream } from '../../src/index.js'
import { type KVT, capture } from '../helpers.js'

const S = Serdes.String()
const joiner = (v1: string, v2: string): string => v1 + v2

function run(
  optimization: string,
  twoStreams: boolean,
  windows: JoinWindows,
  input: Array<[string, string, number]>
): { processed: Array<KVT<string, string>>; text: string } {
  const builder = new StreamsBuilder()
  const stream1 = builder.stream('topic1', Consumed.with(S, S))
  const stream2 = twoStreams ? builder.stream('topic1', Consumed.with(S, S)) : stream1
  const { supplier, processed } = capture<string, string>()
  stream1.join(stream2, joiner, windows, StreamJoined.with(S, S, S)).process(supplier)
  const topology = builder.build({ topologyOptimization: optimization })
  const driver = new TopologyTestDriver(topology)
  try {
    const topic = driver.createInputTopic('topic1', S, S)
    for (const [k, v, ts] of input) topic.pipeInput(k, v, ts)
  } finally {
    driver.close()
  }
  return { processed, text: topology.describe().toString() }
}

const shortInput: Array<[string, string, number]> = [
  ['A', '1', 1],
  ['B', '1', 2],
  ['A', '2', 3],
  ['B', '2', 4],
  ['B', '3', 5]
]

const cases: Array<{ name: string; twoStreams: boolean; windows: JoinWindows; input: Array<[string, string, number]> }> = [
  {
    name: 'shouldMatchInnerJoinWithSelfJoinWithSingleStream',
    twoStreams: false,
    windows: JoinWindows.ofTimeDifferenceWithNoGrace(100),
    input: shortInput
  },
  {
    name: 'shouldMatchInnerJoinWithSelfJoinWithTwoStreams',
    twoStreams: true,
    windows: JoinWindows.ofTimeDifferenceWithNoGrace(100),
    input: shortInput
  },
  {
    name: 'shouldMatchInnerJoinWithSelfJoinDifferentBeforeAfterWindows',
    twoStreams: true,
    windows: JoinWindows.ofTimeDifferenceAndGrace(11_000, 10_000),
    input: [
      ['A', '1', 0],
      ['A', '2', 11000],
      ['B', '1', 12000],
      ['A', '3', 13000],
      ['A', '4', 15000],
      ['C', '1', 16000],
      ['D', '1', 17000],
      ['A', '5', 30000]
    ]
  },
  {
    name: 'shouldMatchInnerJoinWithSelfJoinOutOfOrderMessages',
    twoStreams: true,
    windows: JoinWindows.ofTimeDifferenceWithNoGrace(10_000),
    input: [
      ['A', '1', 0],
      ['A', '2', 9999],
      ['B', '1', 11000],
      ['A', '3', 13000],
      ['A', '4', 15000],
      ['C', '1', 16000],
      ['D', '1', 17000],
      ['A', '5', 30000],
      ['A', '5', 6000]
    ]
  }
]

describe('single.store.self.join: KStreamKStreamSelfJoinTest', () => {
  for (const c of cases) {
    it(`${c.name}: the same records as the two-store join, from one windowed processor and one store`, () => {
      const expected = run('none', c.twoStreams, c.windows, c.input)
      const optimized = run('single.store.self.join', c.twoStreams, c.windows, c.input)
      expect(optimized.processed).to.deep.equal(expected.processed)
      expect(optimized.processed.length).to.be.greaterThan(4)
      expect(optimized.text.match(/KSTREAM-WINDOWED-/g)?.length).to.equal(1 + 2)
      expect(expected.text.match(/Processor: KSTREAM-WINDOWED-/g)?.length).to.equal(2)
    })
  }

  it('the single-stream join emits Kafka inner-join results in order (A1A1, B1B1, A2A1, A1A2, A2A2, ...)', () => {
    const { processed } = run('all', false, JoinWindows.ofTimeDifferenceWithNoGrace(100), cases[0]!.input)
    expect(processed).to.deep.equal([
      ['A', '11', 1],
      ['B', '11', 2],
      ['A', '21', 3],
      ['A', '12', 3],
      ['A', '22', 3],
      ['B', '21', 4],
      ['B', '12', 4],
      ['B', '22', 4],
      ['B', '31', 5],
      ['B', '32', 5],
      ['B', '13', 5],
      ['B', '23', 5],
      ['B', '33', 5]
    ])
  })

  it('describe(): the merge node becomes the self-join, reading the one windowed processor and its store', () => {
    const { text } = run('all', false, JoinWindows.ofTimeDifferenceWithNoGrace(100), [])
    expect(text).to.equal(`Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [topic1])
      --> KSTREAM-WINDOWED-0000000001
    Processor: KSTREAM-WINDOWED-0000000001 (stores: [KSTREAM-JOINTHIS-0000000003-store])
      --> KSTREAM-MERGE-0000000005
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-MERGE-0000000005 (stores: [KSTREAM-JOINTHIS-0000000003-store])
      --> KSTREAM-PROCESSOR-0000000006
      <-- KSTREAM-WINDOWED-0000000001
    Processor: KSTREAM-PROCESSOR-0000000006 (stores: [])
      --> none
      <-- KSTREAM-MERGE-0000000005

`)
  })
})

describe('single.store.self.join: which joins are rewritten (InternalStreamsBuilderTest)', () => {
  const windows = JoinWindows.ofTimeDifferenceWithNoGrace(100)
  const windowed = (text: string): number => text.match(/Processor: KSTREAM-WINDOWED-/g)?.length ?? 0
  const build = (optimization: string, write: (b: StreamsBuilder) => void): string => {
    const builder = new StreamsBuilder()
    write(builder)
    return builder.build({ topologyOptimization: optimization }).describe().toString()
  }
  const t = (b: StreamsBuilder, topic: string): KStream<string, string> => b.stream(topic, Consumed.with(S, S))

  const expectations: Array<[string, (b: StreamsBuilder) => void, number]> = [
    [
      'shouldMarkStreamStreamJoinAsSelfJoinMergeTwoStreams',
      b => {
        const s = t(b, 't1').merge(t(b, 't2'))
        s.join(s, joiner, windows)
      },
      1
    ],
    [
      'shouldMarkFirstStreamStreamJoinAsSelfJoin3WayJoin',
      b => void t(b, 't1').join(t(b, 't1'), joiner, windows).join(t(b, 't3'), joiner, windows),
      3
    ],
    [
      'shouldMarkAllStreamStreamJoinsAsSelfJoin',
      b =>
        void t(b, 't1')
          .join(t(b, 't1'), joiner, windows)
          .merge(t(b, 't2').join(t(b, 't2'), joiner, windows)),
      2
    ],
    [
      'shouldMarkFirstStreamStreamJoinAsSelfJoinNwaySameSource',
      b => void t(b, 't1').join(t(b, 't1'), joiner, windows).join(t(b, 't1'), joiner, windows),
      3
    ],
    [
      'shouldMarkStreamStreamJoinAsSelfJoinTwoStreamsWithNoOpFilter',
      b => {
        const s1 = t(b, 't1')
        s1.filter((_k, v) => v !== null)
        s1.join(t(b, 't1'), joiner, windows)
      },
      1
    ],
    [
      'shouldMarkStreamStreamJoinAsSelfJoinTwoJoinsSameSource',
      b => {
        t(b, 't1').join(t(b, 't1'), joiner, windows)
        t(b, 't1').join(t(b, 't1'), joiner, windows)
      },
      2
    ],
    [
      'shouldNotMarkStreamStreamJoinAsSelfJoinTwoStreamsWithFilter',
      b =>
        void t(b, 't1')
          .filter((_k, v) => v !== null)
          .join(t(b, 't1'), joiner, windows),
      2
    ],
    [
      'shouldNotMarkStreamStreamJoinAsSelfJoinOneStreamWithMap',
      b =>
        void t(b, 't1')
          .mapValues(v => v)
          .join(t(b, 't1'), joiner, windows),
      2
    ],
    ['shouldNotMarkStreamStreamJoinAsSelfJoinMultipleSources', b => void t(b, 't1').join(t(b, 't2'), joiner, windows), 2]
  ]
  for (const [name, write, count] of expectations) {
    it(`${name}: ${count} windowed processor(s)`, () => {
      expect(windowed(build('all', write))).to.equal(count)
    })
  }

  it('shouldOptimizeJoinWhenInConfig / shouldNotOptimizeJoinWhenNotInConfig', () => {
    const selfJoin = (b: StreamsBuilder): void => {
      const s = t(b, 't1')
      s.join(s, joiner, windows)
    }
    expect(windowed(build('single.store.self.join', selfJoin))).to.equal(1)
    expect(windowed(build('reuse.ktable.source.topics,merge.repartition.topics', selfJoin))).to.equal(2)
    expect(windowed(build('none', selfJoin))).to.equal(2)
  })

  it('two streams of one topic share one source node (mergeDuplicateSourceNodes); overlapping different topic lists are an error', () => {
    expect(build('none', b => void t(b, 't1').join(t(b, 't1'), joiner, windows))).to.not.include('KSTREAM-SOURCE-0000000001')
    expect(() => build('none', b => void [t(b, 't1'), b.stream(['t1', 't2'])])).to.throw(/overlapping but not equal/)
  })
})
