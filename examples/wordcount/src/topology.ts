/**
 * WordCount on a real Kafka cluster, with the Processor API: lines are split into words and
 * re-keyed by word through an intermediate topic (so each word is counted by exactly one task),
 * then counted in a "Counts" store (RocksDB by default) whose every change goes to its changelog;
 * every count update is written to the output topic.
 */
import { type Record, Serdes, Topology, type KeyValueStore, type Processor, type ProcessorContext } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { RocksDBStores } from '@kstreams/rocksdb'

export interface WordCountTopics {
  readonly input: string
  readonly words: string
  readonly output: string
}

export const DEFAULT_TOPICS: WordCountTopics = { input: 'wordcount-input', words: 'wordcount-words', output: 'wordcount-output' }
export const STORE_NAME = 'Counts'

/** Splits a line like Java's `line.toLowerCase().split("\\W+")`, without empty words. */
export function splitWords(line: string): string[] {
  return line
    .toLowerCase()
    .split(/\W+/)
    .filter(w => w !== '')
}

class SplitProcessor implements Processor<string | null, string, string, string> {
  #ctx!: ProcessorContext<string, string>
  init(ctx: ProcessorContext<string, string>): void {
    this.#ctx = ctx
  }
  process(record: Record<string | null, string>): void {
    if (record.value === null) return
    for (const word of splitWords(record.value)) this.#ctx.forward(record.withKey(word).withValue(word))
  }
}

class CountProcessor implements Processor<string, string, string, number> {
  #ctx!: ProcessorContext<string, number>
  #store!: KeyValueStore<string, number>
  init(ctx: ProcessorContext<string, number>): void {
    this.#ctx = ctx
    this.#store = ctx.getStateStore(STORE_NAME)
  }

  process(record: Record<string, string>): void {
    const count = (this.#store.get(record.key) ?? 0) + 1
    this.#store.put(record.key, count)
    this.#ctx.forward(record.withValue(count))
  }
}

export function buildWordCountTopology(topics: WordCountTopics = DEFAULT_TOPICS, store: 'rocksdb' | 'in-memory' = 'rocksdb'): Topology {
  const S = Serdes.String()
  const supplier = store === 'rocksdb' ? RocksDBStores.persistentKeyValueStore(STORE_NAME) : Stores.inMemoryKeyValueStore(STORE_NAME)
  return new Topology()
    .addSource('Lines', topics.input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Split', () => new SplitProcessor(), 'Lines')
    .addSink('Words', topics.words, { keySerializer: S, valueSerializer: S }, 'Split')
    .addSource('WordsSource', topics.words, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'WordsSource')
    .addStateStore(Stores.keyValueStoreBuilder(supplier, S, Serdes.Long()), 'Count')
    .addSink('Output', topics.output, { keySerializer: S, valueSerializer: Serdes.Long() }, 'Count')
}
