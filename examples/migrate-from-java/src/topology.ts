/**
 * Kafka's WordCountDemo, written for kstreams the way the Java application is written, so that a
 * running Java Kafka Streams application and this one are the same application: the same
 * sub-topologies and node names (hence the same task ids), the same store "Counts" with the same
 * changelog topic `<application.id>-Counts-changelog`, the same repartition topic
 * `<application.id>-Counts-repartition`, and the same bytes in every topic (String keys and
 * values, Long counts, big-endian as Java's LongSerializer writes them).
 *
 * The Java application it replaces:
 *
 *     builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
 *         .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
 *         .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
 *         .count(Materialized.as("Counts"))
 *         .toStream()
 *         .to(output, Produced.with(Serdes.String(), Serdes.Long()));
 */
import { Serdes, type Topology } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'

export const STORE = 'Counts'

export interface Topics {
  readonly input: string
  readonly output: string
}

/** Java's `line.toLowerCase(Locale.ROOT).split("\\W+")`, without the empty strings split can give. */
export function words(line: string): string[] {
  return line
    .toLowerCase()
    .split(/[^A-Za-z0-9_]+/)
    .filter(word => word !== '')
}

export function buildWordCount(topics: Topics): Topology {
  const S = Serdes.String()
  // RocksDB, as Kafka Streams' DSL stores are by default: a Java instance's state directory layout is not shared, its changelog is.
  const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
  builder
    .stream(topics.input, Consumed.with(S, S))
    .flatMapValues(line => words(line))
    .groupBy((_key, word) => word, Grouped.with(S, S))
    .count(Materialized.as<string, number>(STORE))
    .toStream()
    .to(topics.output, Produced.with(S, Serdes.Long()))
  return builder.build()
}
