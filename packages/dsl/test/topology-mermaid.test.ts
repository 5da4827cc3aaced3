/**
 * toMermaid on a DSL topology: groupBy writes to a repartition topic that links sub-topology 0's
 * sink to sub-topology 1's source, and a stream-table join shares the count's store. Exact text,
 * then the structural facts (each edge's ends declared, no id declared twice).
 */
import { expect } from 'chai'
import { Serdes, toMermaid } from '@kstreams/core'
import { Consumed, Grouped, Produced, StreamsBuilder } from '../src/index.js'

const S = Serdes.String()

function groupByAndJoin(): StreamsBuilder {
  const builder = new StreamsBuilder()
  const counts = builder
    .stream<string, string>('words', Consumed.with(S, S))
    .groupBy((_key, value) => value, Grouped.with(S, S))
    .count()
  builder
    .stream<string, string>('clicks', Consumed.with(S, S))
    .join(counts, (click, count) => `${click}:${count}`)
    .to('enriched', Produced.with(S, S))
  return builder
}

describe('toMermaid on a DSL topology (groupBy and a stream-table join)', () => {
  it('links the repartition sink and source through one topic node and draws the shared store once', () => {
    const text = toMermaid(groupByAndJoin().build().describe(), { direction: 'LR' })
    expect(text).to.equal(
      [
        'flowchart LR',
        '  topic_0[/"words"/]',
        '  topic_1[/"KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition"/]',
        '  topic_2[/"clicks"/]',
        '  topic_3[/"enriched"/]',
        '  subgraph sub_0["Sub-topology: 0"]',
        '    node_0(["KSTREAM-SOURCE-0000000000"])',
        '    node_1["KSTREAM-KEY-SELECT-0000000001"]',
        '    node_2["KSTREAM-FILTER-0000000005"]',
        '    node_3>"KSTREAM-SINK-0000000004"]',
        '  end',
        '  subgraph sub_1["Sub-topology: 1"]',
        '    node_4(["KSTREAM-SOURCE-0000000007"])',
        '    node_5["KSTREAM-JOIN-0000000008"]',
        '    node_6(["KSTREAM-SOURCE-0000000006"])',
        '    node_7["KSTREAM-AGGREGATE-0000000003"]',
        '    node_8>"KSTREAM-SINK-0000000009"]',
        '    store_0[("KSTREAM-AGGREGATE-STATE-STORE-0000000002")]',
        '  end',
        '  topic_0 --> node_0',
        '  node_0 --> node_1',
        '  node_1 --> node_2',
        '  node_2 --> node_3',
        '  node_3 --> topic_1',
        '  topic_2 --> node_4',
        '  node_4 --> node_5',
        '  node_5 -.- store_0',
        '  node_5 --> node_8',
        '  topic_1 --> node_6',
        '  node_6 --> node_7',
        '  node_7 -.- store_0',
        '  node_8 --> topic_3',
        ''
      ].join('\n')
    )

    const lines = text.split('\n')
    const declared = lines.flatMap(line => /^ *(?:subgraph )?(\w+)(?:\(\[|\[\(|\[\/|\[|>)"/.exec(line)?.[1] ?? [])
    const edges = lines.flatMap(line => {
      const edge = /^ {2}(\w+) (?:-->|-\.-) (\w+)$/.exec(line)
      return edge === null ? [] : [[edge[1]!, edge[2]!] as const]
    })
    expect(new Set(declared).size, 'no id declared twice').to.equal(declared.length)
    for (const [from, to] of edges) expect(declared).to.include.members([from, to])
    // The repartition topic is written by sub-topology 0 and read by sub-topology 1.
    expect(edges).to.deep.include(['node_3', 'topic_1'])
    expect(edges).to.deep.include(['topic_1', 'node_6'])
  })
})
