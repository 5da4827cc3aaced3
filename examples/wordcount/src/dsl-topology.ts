/**
 * WordCount with the DSL (Kafka's WordCountDemo): lines are split into words, grouped by word
 * (through a repartition topic the runtime creates), and counted in the queryable "Counts" store
 * (RocksDB unless asked otherwise, with a changelog); every count the cache flushes is written to
 * the output topic.
 */
import { Serdes, type Topology } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import { splitWords, STORE_NAME } from './topology.js'

export interface DslWordCountTopics {
  readonly input: string
  readonly output: string
}

export function buildDslWordCountTopology(topics: DslWordCountTopics, store: 'rocksdb' | 'in-memory' = 'rocksdb'): Topology {
  const S = Serdes.String()
  const builder = new StreamsBuilder(store === 'rocksdb' ? { dslStoreSuppliers: RocksDBDslStoreSuppliers } : {})
  builder
    .stream(topics.input, Consumed.with(S, S))
    .flatMapValues(line => splitWords(line))
    .groupBy((_key, word) => word, Grouped.with(S, S))
    .count(Materialized.as<string, number>(STORE_NAME).withKeySerde(S).withValueSerde(Serdes.Long()))
    .toStream()
    .to(topics.output, Produced.with(S, Serdes.Long()))
  return builder.build()
}
