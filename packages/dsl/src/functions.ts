/** The function types the DSL takes (Kafka Streams' functional interfaces). */
import type { KeyValue } from '@kstreams/core'

export type Predicate<K, V> = (key: K, value: V) => boolean
export type KeyValueMapper<K, V, R> = (key: K, value: V) => R
export type ValueMapper<V, VR> = (value: V) => VR
export type ValueMapperWithKey<K, V, VR> = (key: K, value: V) => VR
export type ForeachAction<K, V> = (key: K, value: V) => void
export type Initializer<VA> = () => VA
export type Aggregator<K, V, VA> = (key: K, value: V, aggregate: VA) => VA
export type Reducer<V> = (aggregate: V, value: V) => V
/** Mappers returning a new key and value return `KeyValue.pair(key, value)`. */
export type KeyValuePairMapper<K, V, KR, VR> = KeyValueMapper<K, V, KeyValue<KR, VR>>
/** Merges the aggregates of two sessions of one key (Kafka Streams' `Merger`). */
export type Merger<K, VA> = (key: K, aggOne: VA, aggTwo: VA) => VA
/** Joins a value of this stream with a value of the other side (Kafka Streams' `ValueJoiner`). */
export type ValueJoiner<V1, V2, VR> = (value1: V1, value2: V2) => VR
/** A ValueJoiner that also receives the (read-only) key: declare three parameters. */
export type ValueJoinerWithKey<K, V1, V2, VR> = (key: K, value1: V1, value2: V2) => VR
