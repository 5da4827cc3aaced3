/**
 * The WordCount topology built with the Processor API, as Kafka Streams' WordCountProcessorDemo:
 * Source (lines) -> Process (counts words into the "Counts" store, forwards every count on a
 * stream-time punctuation) -> Sink (word -> count).
 */
import { Serdes, Topology } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { WordCountProcessor } from './word-count-processor.js'

export const INPUT_TOPIC = 'streams-plaintext-input'
export const OUTPUT_TOPIC = 'streams-wordcount-processor-output'
export const STORE_NAME = 'Counts'
export const SOURCE_NAME = 'Source'
export const PROCESSOR_NAME = 'Process'
export const SINK_NAME = 'Sink'
/** The demo punctuates every second of stream time (Java: `Duration.ofSeconds(1)`). */
export const PUNCTUATION_INTERVAL_MS = 1000

export interface WordCountTopologyOptions {
  /** Stream-time interval between two outputs of all counts; default 1000 ms. */
  punctuationIntervalMs?: number
  /** The bytes store of the counts (its name is the store name); default `Stores.inMemoryKeyValueStore('Counts')`. */
  storeSupplier?: KeyValueBytesStoreSupplier
}

export function buildWordCountTopology(options: WordCountTopologyOptions = {}): Topology {
  const intervalMs = options.punctuationIntervalMs ?? PUNCTUATION_INTERVAL_MS
  const supplier = options.storeSupplier ?? Stores.inMemoryKeyValueStore(STORE_NAME)
  return new Topology()
    .addSource(SOURCE_NAME, INPUT_TOPIC, { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
    .addProcessor(PROCESSOR_NAME, () => new WordCountProcessor(supplier.name, intervalMs), SOURCE_NAME)
    .addStateStore(Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.Long()), PROCESSOR_NAME)
    .addSink(SINK_NAME, OUTPUT_TOPIC, { keySerializer: Serdes.String(), valueSerializer: Serdes.Long() }, PROCESSOR_NAME)
}
