/**
 * toMermaid: the exact flowchart text of the README's Processor API WordCount and of a topology
 * with a global store, names that are not Mermaid-safe, pattern sources and extractor sinks; and
 * the structural facts of every diagram (each edge's ends declared, no id declared twice).
 */
import { expect } from 'chai'
import { Serdes, Topology, toMermaid } from '../../src/index.js'
import { noop, storeBuilder } from './topology-helpers.js'

/** Ids declared as nodes or subgraphs, and the ids each edge references. */
function structure(text: string): { declared: string[]; referenced: string[] } {
  const declared: string[] = []
  const referenced: string[] = []
  for (const line of text.split('\n')) {
    const edge = /^ {2}(\w+) (?:-->|-\.-) (\w+)$/.exec(line)
    if (edge !== null) {
      referenced.push(edge[1]!, edge[2]!)
      continue
    }
    const node = /^ *(?:subgraph )?(\w+)(?:\(\[|\[\(|\[\/|\[|>)"/.exec(line)
    if (node !== null) declared.push(node[1]!)
  }
  return { declared, referenced }
}

export function expectWellFormed(text: string): void {
  const { declared, referenced } = structure(text)
  expect(new Set(declared).size, 'no id declared twice').to.equal(declared.length)
  for (const id of referenced) expect(declared, `edge end ${id} is declared`).to.include(id)
  const lines = text.split('\n')
  expect(lines.filter(line => line.trim().startsWith('subgraph ')).length).to.equal(lines.filter(line => line.trim() === 'end').length)
  // Every line is a header, a declaration, an edge or a subgraph end: nothing else can sneak in.
  for (const line of lines.slice(1, -1))
    expect(line).to.match(
      /^ {2}(?:subgraph \w+\[".*"\]|end|\w+ (?:-->|-\.-) \w+)$|^ {2,4}\w+(?:\(\[".*"\]\)|\[\(".*"\)\]|\[\/".*"\/\]|\[".*"\]|>".*"\])$/
    )
  expect(lines.at(-1)).to.equal('')
}

function wordCountTopology(): Topology {
  return new Topology()
    .addSource('Source', 'streams-plaintext-input', { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
    .addProcessor('Process', noop(), 'Source')
    .addStateStore(storeBuilder('Counts'), 'Process')
    .addSink('Sink', 'streams-wordcount-processor-output', { keySerializer: Serdes.String(), valueSerializer: Serdes.Long() }, 'Process')
}

describe('toMermaid(topology.describe())', () => {
  it("draws the README's Processor API WordCount: topics, source, processor with its store, sink", () => {
    const text = toMermaid(wordCountTopology().describe())
    expect(text).to.equal(
      [
        'flowchart TB',
        '  topic_0[/"streams-plaintext-input"/]',
        '  topic_1[/"streams-wordcount-processor-output"/]',
        '  subgraph sub_0["Sub-topology: 0"]',
        '    node_0(["Source"])',
        '    node_1["Process"]',
        '    node_2>"Sink"]',
        '    store_0[("Counts")]',
        '  end',
        '  topic_0 --> node_0',
        '  node_0 --> node_1',
        '  node_1 -.- store_0',
        '  node_1 --> node_2',
        '  node_2 --> topic_1',
        ''
      ].join('\n')
    )
    expectWellFormed(text)
  })

  it('flows left to right when asked, and gives the same text every time', () => {
    const first = toMermaid(wordCountTopology().describe(), { direction: 'LR' })
    expect(first.split('\n')[0]).to.equal('flowchart LR')
    expect(toMermaid(wordCountTopology().describe(), { direction: 'LR' })).to.equal(first)
  })

  it('draws a global store as its own subgraph, in id order with the sub-topologies', () => {
    const topology = new Topology()
      .addGlobalStore(storeBuilder('GlobalStore'), 'GlobalSource', {}, 'global-topic', 'GlobalProcessor', noop())
      .addSource('Source', 'input')
      .addProcessor('Lookup', noop(), 'Source')
      .addSink('Sink', 'output', 'Lookup')
    const text = toMermaid(topology.describe())
    expect(text).to.equal(
      [
        'flowchart TB',
        '  topic_0[/"global-topic"/]',
        '  topic_1[/"input"/]',
        '  topic_2[/"output"/]',
        '  subgraph sub_0["Sub-topology: 0 (global store)"]',
        '    node_0(["GlobalSource"])',
        '    node_1["GlobalProcessor"]',
        '    store_0[("GlobalStore")]',
        '  end',
        '  subgraph sub_1["Sub-topology: 1"]',
        '    node_2(["Source"])',
        '    node_3["Lookup"]',
        '    node_4>"Sink"]',
        '  end',
        '  topic_0 --> node_0',
        '  node_0 --> node_1',
        '  node_1 -.- store_0',
        '  topic_1 --> node_2',
        '  node_2 --> node_3',
        '  node_3 --> node_4',
        '  node_4 --> topic_2',
        ''
      ].join('\n')
    )
    expectWellFormed(text)
  })

  it('escapes any name into a quoted label and never uses a name as an id; pattern sources and extractor sinks get their own topic nodes', () => {
    const extractor = Object.assign(() => 'x', { toString: () => 'By "region"' })
    const topology = new Topology()
      .addSource('end', /orders-.*#1/)
      .addSource('sub_0', ['a "quoted" topic', 'topic<b>&c'])
      .addProcessor('new\nline %% [x] → y', noop(), 'end', 'sub_0')
      .addStateStore(storeBuilder('store_0'), 'new\nline %% [x] → y')
      .addSink('s;1', extractor, 'new\nline %% [x] → y')
    const text = toMermaid(topology.describe())
    expect(text).to.equal(
      [
        'flowchart TB',
        '  topic_0[/"pattern: orders-.*#35;1"/]',
        '  topic_1[/"topic#60;b#62;#38;c"/]',
        '  topic_2[/"a #34;quoted#34; topic"/]',
        '  topic_3[/"extractor: By #34;region#34;"/]',
        '  subgraph sub_0["Sub-topology: 0"]',
        '    node_0(["end"])',
        '    node_1(["sub_0"])',
        '    node_2["new#10;line #37;#37; #91;x#93; #8594; y"]',
        '    node_3>"s#59;1"]',
        '    store_0[("store_0")]',
        '  end',
        '  topic_0 --> node_0',
        '  node_0 --> node_2',
        '  topic_1 --> node_1',
        '  topic_2 --> node_1',
        '  node_1 --> node_2',
        '  node_2 -.- store_0',
        '  node_2 --> node_3',
        '  node_3 --> topic_3',
        ''
      ].join('\n')
    )
    expectWellFormed(text)
  })
})
