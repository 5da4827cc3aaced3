/** The function types the DSL takes (Kafka Streams' functional interfaces). */
import type { KeyValue } from '@kstreams/core'

/** Tests a record (Kafka Streams' Predicate). */
export type Predicate<K, V> = (key: K, value: V) => boolean
/** Maps a record to a new value, e.g. a new key (Kafka Streams' KeyValueMapper). */
export type KeyValueMapper<K, V, R> = (key: K, value: V) => R
/** Maps a value to a new value (Kafka Streams' ValueMapper). */
export type ValueMapper<V, VR> = (value: V) => VR
/** Maps a value to a new value, given the (read-only) key (Kafka Streams' ValueMapperWithKey). */
export type ValueMapperWithKey<K, V, VR> = (key: K, value: V) => VR
/** Runs for each record (Kafka Streams' ForeachAction). */
export type ForeachAction<K, V> = (key: K, value: V) => void
/** Makes the initial aggregate of a key (Kafka Streams' Initializer). */
export type Initializer<VA> = () => VA
/** Adds a record to its key's aggregate and returns the new aggregate (Kafka Streams' Aggregator). */
export type Aggregator<K, V, VA> = (key: K, value: V, aggregate: VA) => VA
/** Combines a key's aggregate with a new value (Kafka Streams' Reducer). */
export type Reducer<V> = (aggregate: V, value: V) => V
/** Mappers returning a new key and value return `KeyValue.pair(key, value)`. */
export type KeyValuePairMapper<K, V, KR, VR> = KeyValueMapper<K, V, KeyValue<KR, VR>>
/** Merges the aggregates of two sessions of one key (Kafka Streams' `Merger`). */
export type Merger<K, VA> = (key: K, aggOne: VA, aggTwo: VA) => VA
/** Joins a value of this stream with a value of the other side (Kafka Streams' `ValueJoiner`). */
export type ValueJoiner<V1, V2, VR> = (value1: V1, value2: V2) => VR
/** A ValueJoiner that also receives the (read-only) key: declare three parameters. */
export type ValueJoinerWithKey<K, V1, V2, VR> = (key: K, value1: V1, value2: V2) => VR
