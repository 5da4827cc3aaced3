import { expect } from 'chai'
import { KeyValue, Record, Serdes } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { Branched, Consumed, Named, Produced, StreamsBuilder } from '../src/index.js'
import type { FixedKeyProcessorContext, KStream } from '../src/index.js'
import { capture, readAll } from './helpers.js'

const S = Serdes.String()
const I = Serdes.Integer()

describe('KStream stateless operators on the TopologyTestDriver', () => {
  describe('filter / filterNot (KStreamFilterTest)', () => {
    const isMultipleOfThree = (key: number): boolean => key % 3 === 0
    for (const [op, expected] of [
      [
        'filter',
        [
          [3, 'V3', 0],
          [6, 'V6', 0]
        ]
      ],
      [
        'filterNot',
        [
          [1, 'V1', 0],
          [2, 'V2', 0],
          [4, 'V4', 0],
          [5, 'V5', 0],
          [7, 'V7', 0]
        ]
      ]
    ] as const) {
      it(`${op} forwards the ${expected.length} matching records of keys 1..7`, () => {
        const builder = new StreamsBuilder()
        const { supplier, processed } = capture<number, string>()
        const stream = builder.stream('topic', Consumed.with(I, S))
        ;(op === 'filter' ? stream.filter(isMultipleOfThree) : stream.filterNot(isMultipleOfThree)).process(supplier)
        const driver = new TopologyTestDriver(builder.build())
        const input = driver.createInputTopic('topic', I, S)
        for (const k of [1, 2, 3, 4, 5, 6, 7]) input.pipeInput(k, 'V' + k, 0)
        expect(processed).to.deep.equal(expected)
        driver.close()
      })
    }
  })

  describe('mapValues (KStreamMapValuesTest)', () => {
    it('maps values with a ValueMapper', () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<number, number>()
      builder
        .stream('topic1', Consumed.with(I, S))
        .mapValues(v => v.length)
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic1', I, S)
      for (const k of [1, 10, 100, 1000]) input.pipeInput(k, String(k), k)
      expect(processed).to.deep.equal([
        [1, 1, 1],
        [10, 2, 10],
        [100, 3, 100],
        [1000, 4, 1000]
      ])
      driver.close()
    })

    it('maps values with a ValueMapperWithKey', () => {
      const builder = new StreamsBuilder()
      const { supplier, processed } = capture<number, number>()
      builder
        .stream('topic1', Consumed.with(I, S))
        .mapValues((key: number, v: string) => v.length + key)
        .process(supplier)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic1', I, S)
      for (const k of [1, 10, 100, 1000]) input.pipeInput(k, String(k), 0)
      expect(processed).to.deep.equal([
        [1, 2, 0],
        [10, 12, 0],
        [100, 103, 0],
        [1000, 1004, 0]
      ])
      driver.close()
    })
  })

  describe('split (KStreamSplitTest)', () => {
    const isEven = (k: number): boolean => k % 2 === 0
    const isMultipleOfThree = (k: number): boolean => k % 3 === 0
    const isMultipleOfFive = (k: number): boolean => k % 5 === 0
    const isMultipleOfSeven = (k: number): boolean => k % 7 === 0
    const isNegative = (k: number): boolean => k < 0
    const keys = [-1, 0, 1, 2, 3, 4, 5, 6, 7]

    it('sends each record to the first matching branch and drops the rest without a default branch', () => {
      const builder = new StreamsBuilder()
      const branches = builder
        .stream('topic', Consumed.with(I, S))
        .split()
        .branch(
          isEven,
          Branched.withConsumer(ks => {
            ks.to('x2')
          })
        )
        .branch(
          isMultipleOfThree,
          Branched.withConsumer(ks => {
            ks.to('x3')
          })
        )
        .branch(
          isMultipleOfFive,
          Branched.withConsumer(ks => {
            ks.to('x5')
          })
        )
        .noDefaultBranch()
      expect(branches.size).to.equal(0)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic', I, S)
      for (const k of keys) input.pipeInput(k, 'V' + k)
      expect(driver.createOutputTopic('x2', I, S).readValuesToList()).to.deep.equal(['V0', 'V2', 'V4', 'V6'])
      expect(driver.createOutputTopic('x3', I, S).readValuesToList()).to.deep.equal(['V3'])
      expect(driver.createOutputTopic('x5', I, S).readValuesToList()).to.deep.equal(['V5'])
      driver.close()
    })

    it('names the result map entries <split name><branch name or position>, the default branch 0', () => {
      const builder = new StreamsBuilder()
      const branches = builder
        .stream('topic', Consumed.with(I, S))
        .split(Named.as('foo-'))
        .branch(isEven, Branched.as('bar'))
        .branch(
          isMultipleOfThree,
          Branched.withConsumer(() => {})
        )
        .branch(
          isMultipleOfFive,
          Branched.withFunction(() => null)
        )
        .branch(
          isNegative,
          Branched.withFunction(ks => ks)
        )
        .branch(isMultipleOfSeven)
        .defaultBranch()
      expect([...branches.keys()].sort()).to.deep.equal(['foo-0', 'foo-4', 'foo-5', 'foo-bar'])
      for (const name of branches.keys()) branches.get(name)!.to(name)
      const driver = new TopologyTestDriver(builder.build())
      const input = driver.createInputTopic('topic', I, S)
      for (const k of keys) input.pipeInput(k, 'V' + k)
      const values = (t: string): Array<string | null> => driver.createOutputTopic(t, I, S).readValuesToList()
      expect(values('foo-bar')).to.deep.equal(['V0', 'V2', 'V4', 'V6'])
      expect(values('foo-4')).to.deep.equal(['V-1'])
      expect(values('foo-5')).to.deep.equal(['V7'])
      expect(values('foo-0')).to.deep.equal(['V1'])
      driver.close()
    })
  })

  it('map, flatMap, selectKey, flatMapValues change keys and values and keep timestamps', () => {
    const builder = new StreamsBuilder()
    const source = builder.stream('in', Consumed.with(S, S))
    source.map((k, v) => KeyValue.pair(v, k.length)).to('map', Produced.with(S, I))
    source.flatMap((k, v) => [KeyValue.pair(k + '1', v), KeyValue.pair(k + '2', v)]).to('flatMap', Produced.with(S, S))
    source.selectKey((_k, v) => v.toUpperCase()).to('selectKey', Produced.with(S, S))
    source.flatMapValues(v => v.split(' ')).to('flatMapValues', Produced.with(S, S))
    source.flatMapValues((k: string, v: string) => [k + ':' + v]).to('flatMapValuesWithKey', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('in', S, S).pipeInput('key', 'a b', 42)
    expect(readAll(driver.createOutputTopic('map', S, I))).to.deep.equal([['a b', 3, 42]])
    expect(readAll(driver.createOutputTopic('flatMap', S, S))).to.deep.equal([
      ['key1', 'a b', 42],
      ['key2', 'a b', 42]
    ])
    expect(readAll(driver.createOutputTopic('selectKey', S, S))).to.deep.equal([['A B', 'a b', 42]])
    expect(readAll(driver.createOutputTopic('flatMapValues', S, S))).to.deep.equal([
      ['key', 'a', 42],
      ['key', 'b', 42]
    ])
    expect(readAll(driver.createOutputTopic('flatMapValuesWithKey', S, S))).to.deep.equal([['key', 'key:a b', 42]])
    driver.close()
  })

  it('peek and foreach see every record; merge interleaves two streams in processing order', () => {
    const builder = new StreamsBuilder()
    const peeked: string[] = []
    const seen: string[] = []
    const a = builder.stream(['a1', 'a2'], Consumed.with(S, S)).peek((k, v) => {
      peeked.push(`${k}=${v}`)
    })
    const b = builder.stream(/b-.*/, Consumed.with(S, S))
    const merged: KStream<string, string> = a.merge(b)
    merged.foreach((k, v) => {
      seen.push(`${k}=${v}`)
    })
    merged.to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('a1', S, S).pipeInput('x', '1', 1)
    driver.createInputTopic('b-topic', S, S).pipeInput('y', '2', 2)
    driver.createInputTopic('a2', S, S).pipeInput('z', '3', 3)
    expect(peeked).to.deep.equal(['x=1', 'z=3'])
    expect(seen).to.deep.equal(['x=1', 'y=2', 'z=3'])
    expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([
      ['x', '1', 1],
      ['y', '2', 2],
      ['z', '3', 3]
    ])
    driver.close()
  })

  it('process runs a Processor API processor whose output is the new stream', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in', Consumed.with(S, S))
      .process<number, string>(() => {
        let ctx: import('@kstreams/core').ProcessorContext<number, string>
        return {
          init(c) {
            ctx = c
          },
          process(r) {
            ctx.forward(new Record(r.value.length, r.key, r.timestamp + 1))
          }
        }
      })
      .to('out', Produced.with(I, S))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('in', S, S).pipeInput('k', 'abc', 10)
    expect(readAll(driver.createOutputTopic('out', I, S))).to.deep.equal([[3, 'k', 11]])
    driver.close()
  })

  it('process can use a store added with StreamsBuilder.addStateStore; Consumed passes the timestamp extractor', () => {
    const builder = new StreamsBuilder()
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('seen'), S, I))
    builder
      .stream(
        'in',
        Consumed.with(S, S).withTimestampExtractor(r => Number(r.value))
      )
      .process<string, number>(() => {
        let ctx: import('@kstreams/core').ProcessorContext<string, number>
        let store: import('@kstreams/core').KeyValueStore<string, number>
        return {
          init(c) {
            ctx = c
            store = c.getStateStore('seen')
          },
          process(r) {
            const n = (store.get(r.key) ?? 0) + 1
            store.put(r.key, n)
            ctx.forward(r.withValue(n))
          }
        }
      }, 'seen')
      .to('out', Produced.with(S, I))
    const driver = new TopologyTestDriver(builder.build())
    const input = driver.createInputTopic('in', S, S)
    input.pipeInput('k', '100', 1)
    input.pipeInput('k', '200', 2)
    expect(readAll(driver.createOutputTopic('out', S, I))).to.deep.equal([
      ['k', 1, 100],
      ['k', 2, 200]
    ])
    driver.close()
  })

  it('processValues cannot change keys: forwarded records keep the input key', () => {
    const builder = new StreamsBuilder()
    builder
      .stream('in', Consumed.with(S, S))
      .processValues<number>(() => {
        let ctx: FixedKeyProcessorContext<string, number>
        return {
          init(c) {
            ctx = c
          },
          process(r) {
            ctx.forward(r.withKey('ignored').withValue(r.value.length))
          }
        }
      })
      .to('out', Produced.with(S, I))
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('in', S, S).pipeInput('k', 'abcd', 5)
    expect(readAll(driver.createOutputTopic('out', S, I))).to.deep.equal([['k', 4, 5]])
    driver.close()
  })

  it('to() with a TopicNameExtractor picks the topic per record', () => {
    const builder = new StreamsBuilder()
    builder.stream('in', Consumed.with(S, S)).to((key, value, context) => `${key}-${value}-${context.topic ?? ''}`)
    const driver = new TopologyTestDriver(builder.build())
    driver.createInputTopic('in', S, S).pipeInput('a', 'b', 3)
    expect(readAll(driver.createOutputTopic('a-b-in', S, S))).to.deep.equal([['a', 'b', 3]])
    driver.close()
  })

  it('to() uses the stream serdes when Produced has none, and Produced.as names the sink', () => {
    const builder = new StreamsBuilder()
    builder.stream('in', Consumed.with(S, I)).to('out', Produced.as('my-sink'))
    const topology = builder.build()
    expect(topology.describe().toString()).to.contain('Sink: my-sink (topic: out)')
    const driver = new TopologyTestDriver(topology)
    driver.createInputTopic('in', S, I).pipeInput('k', 7, 1)
    expect(readAll(driver.createOutputTopic('out', S, I))).to.deep.equal([['k', 7, 1]])
    driver.close()
  })
})
