/**
 * Benchmark: a WordCount-shaped Processor API topology (source -> count into an in-memory
 * key-value store -> sink) on the TopologyTestDriver, against two baselines without kstreams in
 * the same process: plain Map updates, and Map updates plus the String/Long serde work of a
 * record. Warm-up first, then interleaved rounds; prints records/s and kstreams/baseline ratios.
 *
 * Usage: npm run bench (from the root), or with options from tools/bench:
 *   npm run bench -- --records=1000000 --rounds=3 --warmup=200000 --vocabulary=10000
 */
import { Record, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext, Serializer, Deserializer } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { TopologyTestDriver } from '@kstreams/testing'
import { cpus } from 'node:os'

const INPUT_TOPIC = 'bench-words'
const OUTPUT_TOPIC = 'bench-counts'
const STORE_NAME = 'Counts'
/** Output records are drained (read and deserialized) after every this many inputs. */
const DRAIN_EVERY = 10_000

interface Options {
  records: number
  rounds: number
  warmup: number
  vocabulary: number
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { records: 1_000_000, rounds: 3, warmup: 200_000, vocabulary: 10_000 }
  for (const arg of argv) {
    const match = /^--(records|rounds|warmup|vocabulary)=(\d+)$/.exec(arg)
    if (match === null) throw new Error(`Unknown argument ${arg}; expected --records=N, --rounds=N, --warmup=N or --vocabulary=N`)
    options[match[1] as keyof Options] = Number(match[2])
  }
  if (options.records < 1 || options.rounds < 1 || options.vocabulary < 1)
    throw new Error('records, rounds and vocabulary must be at least 1')
  return options
}

/** A deterministic vocabulary of distinct lower-case words, 3 to 10 letters long. */
function makeVocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>()
  while (words.size < size) {
    const length = 3 + Math.floor(random() * 8)
    let word = ''
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(random() * 26))
    words.add(word)
  }
  return [...words]
}

/** xorshift32: the same input sequence on every run. */
function xorshift(seed: number): () => number {
  let x = seed | 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

/** Word indices of the input records, uniform over the vocabulary. */
function makeInput(records: number, vocabulary: number, random: () => number): Uint32Array {
  const input = new Uint32Array(records)
  for (let i = 0; i < records; i++) input[i] = Math.floor(random() * vocabulary)
  return input
}

/** Counts the word (the key) in the store and forwards (word, count). */
class CountProcessor implements Processor<string, string | null, string, number> {
  #context: ProcessorContext<string, number> | undefined
  #store: KeyValueStore<string, number> | undefined

  init(context: ProcessorContext<string, number>): void {
    this.#context = context
    this.#store = context.getStateStore<KeyValueStore<string, number>>(STORE_NAME)
  }

  process(record: Record<string, string | null>): void {
    const count = (this.#store!.get(record.key) ?? 0) + 1
    this.#store!.put(record.key, count)
    this.#context!.forward(new Record(record.key, count, record.timestamp))
  }
}

function buildTopology(): Topology {
  return new Topology()
    .addSource('Source', INPUT_TOPIC, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
    .addProcessor('Count', () => new CountProcessor(), 'Source')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE_NAME), Serdes.String(), Serdes.Long()), 'Count')
    .addSink('Sink', OUTPUT_TOPIC, { keySerializer: Serdes.String(), valueSerializer: Serdes.Long() }, 'Count')
}

interface RoundResult {
  seconds: number
  checksum: number
}

/** kstreams: pipe every record through the driver, draining the output topic as it goes. */
function runKstreams(words: readonly string[], input: Uint32Array, records: number): RoundResult {
  const driver = new TopologyTestDriver(buildTopology(), { applicationId: 'bench-processor-wordcount' }, 0)
  try {
    const source = driver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String())
    const sink = driver.createOutputTopic(OUTPUT_TOPIC, Serdes.String(), Serdes.Long())
    // The store is logged (the PAPI default): the driver captures its changelog too; drain it as well.
    const changelog = driver.createOutputTopic(`bench-processor-wordcount-${STORE_NAME}-changelog`, Serdes.ByteArray(), Serdes.ByteArray())
    let checksum = 0
    let drained = 0
    const start = process.hrtime.bigint()
    for (let i = 0; i < records; i++) {
      source.pipeInput(words[input[i]!]!, null, i)
      if ((i + 1) % DRAIN_EVERY === 0 || i === records - 1) {
        const out = sink.readRecordsToList()
        while (!changelog.isEmpty()) changelog.readRecord()
        drained += out.length
        checksum += out[out.length - 1]!.value!
      }
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    if (drained !== records) throw new Error(`kstreams wrote ${drained} output records for ${records} inputs`)
    checkStoreTotal(driver, records)
    return { seconds, checksum }
  } finally {
    driver.close()
  }
}

function checkStoreTotal(driver: TopologyTestDriver, records: number): void {
  const iterator = driver.getKeyValueStore<string, number>(STORE_NAME)!.all()
  let total = 0
  try {
    for (const { value } of iterator) total += value
  } finally {
    iterator.close()
  }
  if (total !== records) throw new Error(`kstreams counted ${total} words for ${records} inputs`)
}

/** Baseline 1: one Map get + set per record. */
function runMap(words: readonly string[], input: Uint32Array, records: number): RoundResult {
  const counts = new Map<string, number>()
  let checksum = 0
  const start = process.hrtime.bigint()
  for (let i = 0; i < records; i++) {
    const word = words[input[i]!]!
    const count = (counts.get(word) ?? 0) + 1
    counts.set(word, count)
    checksum += count
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return { seconds, checksum }
}

interface SerdeSet {
  stringSerializer: Serializer<string>
  stringDeserializer: Deserializer<string>
  longSerializer: Serializer<number>
  longDeserializer: Deserializer<number>
}

/**
 * Baseline 2: the Map update plus, per record, String serialize + deserialize of the key and
 * Long serialize + deserialize of the count, with the same serdes kstreams uses.
 */
function runMapWithSerdes(words: readonly string[], input: Uint32Array, records: number, serdes: SerdeSet): RoundResult {
  const { stringSerializer, stringDeserializer, longSerializer, longDeserializer } = serdes
  const counts = new Map<string, number>()
  let checksum = 0
  const start = process.hrtime.bigint()
  for (let i = 0; i < records; i++) {
    const keyBytes = stringSerializer.serialize(INPUT_TOPIC, words[input[i]!]!)
    const word = stringDeserializer.deserialize(INPUT_TOPIC, keyBytes)!
    const count = (counts.get(word) ?? 0) + 1
    counts.set(word, count)
    const valueBytes = longSerializer.serialize(OUTPUT_TOPIC, count)
    checksum += longDeserializer.deserialize(OUTPUT_TOPIC, valueBytes)!
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return { seconds, checksum }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const formatRate = (rate: number): string => Math.round(rate).toLocaleString('en-US')
const formatNs = (rate: number): string => (1e9 / rate).toFixed(rate > 1e7 ? 1 : 0)

function main(): void {
  const options = parseOptions(process.argv.slice(2))
  const random = xorshift(0x5eed)
  const words = makeVocabulary(options.vocabulary, random)
  const input = makeInput(Math.max(options.records, options.warmup), options.vocabulary, random)
  const serdes: SerdeSet = {
    stringSerializer: Serdes.String().serializer(),
    stringDeserializer: Serdes.String().deserializer(),
    longSerializer: Serdes.Long().serializer(),
    longDeserializer: Serdes.Long().deserializer()
  }
  const runs = [
    { name: 'kstreams (TopologyTestDriver)', run: (n: number) => runKstreams(words, input, n) },
    { name: 'baseline: Map', run: (n: number) => runMap(words, input, n) },
    { name: 'baseline: Map + String/Long serdes', run: (n: number) => runMapWithSerdes(words, input, n, serdes) }
  ]

  const cpu = cpus()
  console.log('processor-wordcount: source -> count in in-memory store -> sink, on the TopologyTestDriver')
  console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}`)
  console.log(
    `${options.records.toLocaleString('en-US')} records per round, vocabulary ${options.vocabulary.toLocaleString('en-US')} words, ` +
      `warm-up ${options.warmup.toLocaleString('en-US')} records each, ${options.rounds} interleaved round${options.rounds === 1 ? '' : 's'}\n`
  )

  if (options.warmup > 0) for (const r of runs) r.run(options.warmup)

  const rates: number[][] = runs.map(() => [])
  const checksums = runs.map(() => new Set<number>())
  for (let round = 0; round < options.rounds; round++) {
    runs.forEach((r, i) => {
      const result = r.run(options.records)
      rates[i]!.push(options.records / result.seconds)
      checksums[i]!.add(result.checksum)
    })
  }
  // Every round of a run sees the same input: its checksum (sum of the counts read) must not vary.
  checksums.forEach((set, i) => {
    if (set.size !== 1) throw new Error(`${runs[i]!.name}: checksums differ between rounds`)
  })

  const nameWidth = Math.max(...runs.map(r => r.name.length))
  const header = ['', ...rates[0]!.map((_, i) => `round ${i + 1}`), 'median', 'ns/record'].map((h, i) =>
    i === 0 ? h.padEnd(nameWidth) : h.padStart(13)
  )
  console.log('records/s')
  console.log(header.join(''))
  runs.forEach((r, i) => {
    const m = median(rates[i]!)
    console.log(
      [
        r.name.padEnd(nameWidth),
        ...rates[i]!.map(x => formatRate(x).padStart(13)),
        formatRate(m).padStart(13),
        formatNs(m).padStart(13)
      ].join('')
    )
  })

  const kstreams = median(rates[0]!)
  console.log('\nratios of medians (kstreams / baseline)')
  for (let i = 1; i < runs.length; i++) {
    const baseline = median(rates[i]!)
    const ratio = kstreams / baseline
    console.log(
      `${('kstreams / ' + runs[i]!.name.replace('baseline: ', '')).padEnd(nameWidth + 11)}${ratio.toFixed(4).padStart(9)}` +
        `   (the baseline is ${(1 / ratio).toFixed(1)}x faster; kstreams adds ${(1e9 / kstreams - 1e9 / baseline).toFixed(0)} ns per record)`
    )
  }
}

main()
