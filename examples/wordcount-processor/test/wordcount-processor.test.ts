/**
 * The Processor API WordCount on the TopologyTestDriver: ports of Kafka's WordCountProcessorTest
 * and WordCountDemoTest expectations, stream-time punctuation timing, store contents, the
 * describe() text and Java's split semantics.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueIterator } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic, TestOutputTopic } from '@kstreams/testing'
import { INPUT_TOPIC, OUTPUT_TOPIC, STORE_NAME, buildWordCountTopology } from '../src/topology.js'
import type { WordCountTopologyOptions } from '../src/topology.js'
import { splitWords } from '../src/word-count-processor.js'

describe('WordCount (Processor API)', () => {
  let driver: TopologyTestDriver
  let input: TestInputTopic<string, string>
  let output: TestOutputTopic<string, number>

  function start(options?: WordCountTopologyOptions): void {
    driver = new TopologyTestDriver(buildWordCountTopology(options), { applicationId: 'wordcount-processor-test' })
    input = driver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String())
    output = driver.createOutputTopic(OUTPUT_TOPIC, Serdes.String(), Serdes.Long())
  }

  function storeContents(): Array<[string, number]> {
    const iterator = driver.getKeyValueStore<string, number>(STORE_NAME)!.all()
    try {
      return [...iterator].map(kv => [kv.key, kv.value])
    } finally {
      iterator.close()
    }
  }

  function readAll(): Array<{ key: string | null; value: number | null; timestamp: number }> {
    return output.readRecordsToList().map(r => ({ key: r.key, value: r.value, timestamp: r.timestamp }))
  }

  afterEach(() => {
    driver?.close()
  })

  describe('describe()', () => {
    it('prints one sub-topology: Source -> Process (stores: [Counts]) -> Sink', () => {
      expect(buildWordCountTopology().describe().toString()).to.equal(
        'Topologies:\n' +
          '   Sub-topology: 0\n' +
          '    Source: Source (topics: [streams-plaintext-input])\n' +
          '      --> Process\n' +
          '    Processor: Process (stores: [Counts])\n' +
          '      --> Sink\n' +
          '      <-- Source\n' +
          '    Sink: Sink (topic: streams-wordcount-processor-output)\n' +
          '      <-- Process\n' +
          '\n'
      )
    })
  })

  describe('ported from Kafka', () => {
    it('WordCountProcessorTest: counts "alpha beta\\tgamma\\n\\talpha" and forwards the counts at the punctuation time', () => {
      start()
      input.pipeInput('key', 'alpha beta\tgamma\n\talpha', 0)
      expect(readAll()).to.deep.equal([
        { key: 'alpha', value: 2, timestamp: 0 },
        { key: 'beta', value: 1, timestamp: 0 },
        { key: 'gamma', value: 1, timestamp: 0 }
      ])
      expect(output.isEmpty()).to.equal(true)
    })

    it('WordCountDemoTest.testOneWord: "Hello" gives (hello, 1)', () => {
      start()
      input.pipeInput(null, 'Hello', 0)
      expect(output.readKeyValue()).to.deep.equal(KeyValue.pair('hello', 1))
      expect(output.isEmpty()).to.equal(true)
    })

    it('WordCountDemoTest.testCountListOfWords: the last count of each word (one punctuation per line)', () => {
      start()
      const ticking = driver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String(), 0, 1000)
      ticking.pipeValueList(['Apache Kafka Streams Example', 'Using Kafka Streams Test Utils', 'Reading and Writing Kafka Topic'])
      expect(output.readKeyValuesToMap()).to.deep.equal(
        new Map([
          ['and', 1],
          ['apache', 1],
          ['example', 1],
          ['kafka', 3],
          ['reading', 1],
          ['streams', 2],
          ['test', 1],
          ['topic', 1],
          ['using', 1],
          ['utils', 1],
          ['writing', 1]
        ])
      )
    })
  })

  describe('stream-time punctuation', () => {
    it('forwards every count in key order on each punctuation, and nothing in between', () => {
      start()
      input.pipeInput(null, 'Hello Kafka Streams', 0)
      expect(readAll()).to.deep.equal([
        { key: 'hello', value: 1, timestamp: 0 },
        { key: 'kafka', value: 1, timestamp: 0 },
        { key: 'streams', value: 1, timestamp: 0 }
      ])

      input.pipeInput(null, 'All streams lead to Kafka', 500)
      expect(output.isEmpty()).to.equal(true)

      input.pipeInput(null, 'Join Kafka Summit', 1000)
      expect(readAll()).to.deep.equal([
        { key: 'all', value: 1, timestamp: 1000 },
        { key: 'hello', value: 1, timestamp: 1000 },
        { key: 'join', value: 1, timestamp: 1000 },
        { key: 'kafka', value: 3, timestamp: 1000 },
        { key: 'lead', value: 1, timestamp: 1000 },
        { key: 'streams', value: 2, timestamp: 1000 },
        { key: 'summit', value: 1, timestamp: 1000 },
        { key: 'to', value: 1, timestamp: 1000 }
      ])
    })

    it('writes nothing until stream time reaches the next grid point (1000 ms after 0)', () => {
      start()
      input.pipeInput(null, 'a', 0)
      readAll()
      for (const ts of [1, 500, 999]) {
        input.pipeInput(null, 'b', ts)
        expect(output.isEmpty(), `after a record at ${ts}`).to.equal(true)
      }
      input.pipeInput(null, 'c', 1000)
      expect(readAll().map(r => [r.key, r.value, r.timestamp])).to.deep.equal([
        ['a', 1, 1000],
        ['b', 3, 1000],
        ['c', 1, 1000]
      ])
    })

    it('stamps the output with the current stream time and does not catch up on missed grid points', () => {
      start()
      input.pipeInput(null, 'x', 0)
      readAll()
      input.pipeInput(null, 'x', 5500)
      expect(readAll()).to.deep.equal([{ key: 'x', value: 2, timestamp: 5500 }])
      input.pipeInput(null, 'x', 5999)
      expect(output.isEmpty()).to.equal(true)
      input.pipeInput(null, 'x', 6000)
      expect(readAll()).to.deep.equal([{ key: 'x', value: 4, timestamp: 6000 }])
    })

    it('counts an out-of-order record without punctuating (stream time does not go back)', () => {
      start()
      input.pipeInput(null, 'late', 1200)
      readAll()
      input.pipeInput(null, 'late', 100)
      expect(output.isEmpty()).to.equal(true)
      expect(storeContents()).to.deep.equal([['late', 2]])
      input.pipeInput(null, 'late', 2000)
      expect(readAll()).to.deep.equal([{ key: 'late', value: 3, timestamp: 2000 }])
    })

    it('does not punctuate on wall-clock time', () => {
      start()
      input.pipeInput(null, 'tick', 0)
      readAll()
      driver.advanceWallClockTime(60_000)
      expect(output.isEmpty()).to.equal(true)
    })

    it('uses the configured punctuation interval', () => {
      start({ punctuationIntervalMs: 100 })
      input.pipeInput(null, 'a', 0)
      readAll()
      input.pipeInput(null, 'a', 99)
      expect(output.isEmpty()).to.equal(true)
      input.pipeInput(null, 'a', 100)
      expect(readAll()).to.deep.equal([{ key: 'a', value: 3, timestamp: 100 }])
    })

    it('closes the store iterator of every punctuation', () => {
      const open = new Set<KeyValueIterator<Buffer, Buffer>>()
      let opened = 0
      start({
        storeSupplier: trackingSupplier(
          Stores.inMemoryKeyValueStore(STORE_NAME),
          it => {
            opened++
            open.add(it)
          },
          it => open.delete(it)
        )
      })
      input.pipeInput(null, 'one two', 0)
      input.pipeInput(null, 'three', 1000)
      expect(readAll()).to.have.length(5)
      expect(opened).to.equal(2)
      expect(open.size).to.equal(0)
    })
  })

  describe('counting', () => {
    it('keeps the running counts in the "Counts" store, lower-cased', () => {
      start()
      input.pipeInput(null, 'Hello Kafka Streams', 0)
      input.pipeInput(null, 'All streams lead to Kafka', 500)
      input.pipeInput(null, 'Join Kafka Summit', 600)
      expect(storeContents()).to.deep.equal([
        ['all', 1],
        ['hello', 1],
        ['join', 1],
        ['kafka', 3],
        ['lead', 1],
        ['streams', 2],
        ['summit', 1],
        ['to', 1]
      ])
      expect(driver.getKeyValueStore<string, number>(STORE_NAME)!.get('kafka')).to.equal(3)
    })

    it('splits on runs of non-word characters, as Java does (a leading separator counts an empty word)', () => {
      start()
      input.pipeInput(null, ' Hello,  world! hello_world 42', 0)
      expect(storeContents()).to.deep.equal([
        ['', 1],
        ['42', 1],
        ['hello', 1],
        ['hello_world', 1],
        ['world', 1]
      ])
    })

    it('ignores a null line', () => {
      start()
      input.pipeInput(null, 'word', 0)
      readAll()
      input.pipeInput('key', null, 10)
      expect(storeContents()).to.deep.equal([['word', 1]])
      expect(output.isEmpty()).to.equal(true)
    })
  })

  describe('splitWords (Java String.split("\\\\W+"))', () => {
    const cases: Array<[string, string[]]> = [
      ['alpha beta\tgamma\n\talpha', ['alpha', 'beta', 'gamma', 'alpha']],
      ['a--b', ['a', 'b']],
      [' a', ['', 'a']],
      ['a b  ', ['a', 'b']],
      ['   ', []],
      ['', ['']],
      ['word', ['word']],
      ['héllo', ['h', 'llo']]
    ]
    for (const [line, words] of cases) {
      it(`${JSON.stringify(line)} -> ${JSON.stringify(words)}`, () => {
        expect(splitWords(line)).to.deep.equal(words)
      })
    }
  })
})

/** Wraps a bytes-store supplier so the test sees every all() iterator opened and closed. */
function trackingSupplier(
  inner: KeyValueBytesStoreSupplier,
  onOpen: (it: KeyValueIterator<Buffer, Buffer>) => void,
  onClose: (it: KeyValueIterator<Buffer, Buffer>) => void
): KeyValueBytesStoreSupplier {
  return {
    name: inner.name,
    metricsScope: inner.metricsScope,
    get() {
      const store = inner.get()
      return new Proxy(store, {
        get(target, property) {
          if (property === 'all') {
            return () => {
              const iterator = target.all()
              const close = iterator.close.bind(iterator)
              iterator.close = () => {
                onClose(iterator)
                close()
              }
              onOpen(iterator)
              return iterator
            }
          }
          const value: unknown = Reflect.get(target, property, target)
          return typeof value === 'function' ? value.bind(target) : value
        }
      })
    }
  }
}
