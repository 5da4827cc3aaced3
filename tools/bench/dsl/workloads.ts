/**
 * The workloads of the DSL benchmark: each topology written with the DSL and with the Processor
 * API doing the same work (same repartition, same stores with the DSL's defaults: timestamped,
 * in-memory, cached, logged), plus how to drain the driver's outputs and check the result.
 */
import { Record, Serdes, TimeWindow, Topology, ValueAndTimestamp, Windowed, WindowedSerdes } from '@kstreams/core'
import type { Processor, ProcessorContext, TimestampedKeyValueStore, TimestampedWindowStore } from '@kstreams/core'
import { ADD_INTERNAL_TOPIC } from '@kstreams/core/internal'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder, TimeWindows } from '@kstreams/dsl'
import { Stores } from '@kstreams/stores'
import type { TopologyTestDriver } from '@kstreams/testing'

export interface Workload {
  readonly name: string
  readonly description: string
  readonly inputTopic: string
  dsl(): Topology
  papi(): Topology
  /** Reads every record the topology wrote since the last drain; returns how many went to the output topic. */
  drain(driver: TopologyTestDriver): number
  /** Throws unless the stores hold the expected result for `records` inputs. */
  check(driver: TopologyTestDriver, records: number): void
}

const S = Serdes.String()
const L = Serdes.Long()
const INPUT = 'bench-lines'
const OUTPUT = 'bench-counts'

/** Reads and drops every captured record; returns how many were on `outputTopic`. */
function drainAll(driver: TopologyTestDriver, outputTopic: string): number {
  let outputs = 0
  for (const topic of driver.producedTopicNames()) {
    while (driver.readOutput(topic) !== undefined) if (topic === outputTopic) outputs++
  }
  return outputs
}

/** Splits each line into words, re-keys by word (repartition), counts per word into the DSL's timestamped store and forwards each new count. */
class SplitProcessor implements Processor<string, string, string, string> {
  #context!: ProcessorContext<string, string>
  init(context: ProcessorContext<string, string>): void {
    this.#context = context
  }
  process(record: Record<string, string>): void {
    for (const word of record.value.split(' ')) if (word !== '') this.#context.forward(record.withKey(word).withValue(word))
  }
}

class CountProcessor implements Processor<string, string, string, number> {
  #context!: ProcessorContext<string, number>
  #store!: TimestampedKeyValueStore<string, number>
  init(context: ProcessorContext<string, number>): void {
    this.#context = context
    this.#store = context.getStateStore('Counts')
  }

  process(record: Record<string, string>): void {
    const previous = this.#store.get(record.key)
    const count = (previous?.value ?? 0) + 1
    const timestamp = previous === null ? record.timestamp : Math.max(previous.timestamp, record.timestamp)
    this.#store.put(record.key, ValueAndTimestamp.make(count, timestamp))
    this.#context.forward(new Record(record.key, count, timestamp))
  }
}

function checkCounts(driver: TopologyTestDriver, records: number): void {
  const store = driver.getTimestampedKeyValueStore<string, number>('Counts')
  if (store === undefined) throw new Error('no Counts store')
  let total = 0
  const it = store.all()
  try {
    for (const { value } of it) total += value.value
  } finally {
    it.close()
  }
  if (total !== records) throw new Error(`counted ${total} words for ${records} one-word lines`)
}

const wordCount: Workload = {
  name: 'wordcount',
  description: 'lines -> words -> group by word (repartition) -> count (timestamped, cached, logged store) -> output',
  inputTopic: INPUT,
  dsl() {
    const builder = new StreamsBuilder()
    builder
      .stream(INPUT, Consumed.with(S, S))
      .flatMapValues(line => line.split(' ').filter(w => w !== ''))
      .groupBy((_key, word) => word, Grouped.as<string, string>('words').withKeySerde(S).withValueSerde(S))
      .count(Materialized.as<string, number>('Counts').withKeySerde(S).withValueSerde(L))
      .toStream()
      .to(OUTPUT, Produced.with(S, L))
    return builder.build()
  },
  papi() {
    const topology = new Topology()
      .addSource('Lines', INPUT, { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('Split', () => new SplitProcessor(), 'Lines')
      .addSink('ToWords', 'words-repartition', { keySerializer: S, valueSerializer: S }, 'Split')
      .addSource('Words', 'words-repartition', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('Count', () => new CountProcessor(), 'Words')
      .addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.inMemoryKeyValueStore('Counts'), S, L).withCachingEnabled(), 'Count')
      .addSink('Output', OUTPUT, { keySerializer: S, valueSerializer: L }, 'Count')
    topology[ADD_INTERNAL_TOPIC]('words-repartition')
    return topology
  },
  drain: driver => drainAll(driver, OUTPUT),
  check: checkCounts
}

const WINDOW_MS = 60_000
const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, WINDOW_MS)

/** Counts per key and one-minute tumbling window in the DSL's timestamped window store and forwards each new count. */
class WindowCountProcessor implements Processor<string, string, Windowed<string>, number> {
  #context!: ProcessorContext<Windowed<string>, number>
  #store!: TimestampedWindowStore<string, number>
  init(context: ProcessorContext<Windowed<string>, number>): void {
    this.#context = context
    this.#store = context.getStateStore('WindowCounts')
  }

  process(record: Record<string, string>): void {
    const start = record.timestamp - (record.timestamp % WINDOW_MS)
    const previous = this.#store.fetch(record.key, start)
    const count = (previous?.value ?? 0) + 1
    const timestamp = previous === null ? record.timestamp : Math.max(previous.timestamp, record.timestamp)
    this.#store.put(record.key, ValueAndTimestamp.make(count, timestamp), start)
    this.#context.forward(new Record(new Windowed(record.key, new TimeWindow(start, start + WINDOW_MS)), count, timestamp))
  }
}

const windowedCount: Workload = {
  name: 'windowed-count',
  description: 'count per key in one-minute tumbling windows (timestamped, cached, logged window store) -> output',
  inputTopic: INPUT,
  dsl() {
    const builder = new StreamsBuilder()
    builder
      .stream(INPUT, Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_MS))
      .count(Materialized.as<string, number>('WindowCounts').withKeySerde(S).withValueSerde(L))
      .toStream()
      .to(OUTPUT, Produced.with(windowedSerde, L))
    return builder.build()
  },
  papi() {
    return new Topology()
      .addSource('Lines', INPUT, { keyDeserializer: S, valueDeserializer: S })
      .addProcessor('Count', () => new WindowCountProcessor(), 'Lines')
      .addStateStore(
        Stores.timestampedWindowStoreBuilder(
          Stores.inMemoryWindowStore('WindowCounts', WINDOW_MS, WINDOW_MS, false),
          S,
          L
        ).withCachingEnabled(),
        'Count'
      )
      .addSink('Output', OUTPUT, { keySerializer: windowedSerde, valueSerializer: L }, 'Count')
  },
  drain: driver => drainAll(driver, OUTPUT),
  check(driver, records) {
    // One output per input (the driver commits after each record), and the last window holds counts.
    const store = driver.getTimestampedWindowStore<string, number>('WindowCounts')
    if (store === undefined) throw new Error('no WindowCounts store')
    const last = (records - 1) * 1000
    const start = last - (last % WINDOW_MS)
    let total = 0
    const it = store.fetchAll(start, start)
    try {
      for (const { value } of it) total += value.value
    } finally {
      it.close()
    }
    const expected = Math.floor(last / 1000) - Math.floor(start / 1000) + 1
    if (total !== expected) throw new Error(`the last window counted ${total} records, expected ${expected}`)
  }
}

export const WORKLOADS: readonly Workload[] = [wordCount, windowedCount]
