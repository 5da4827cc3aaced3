/** @kstreams/dsl: the Kafka Streams DSL (StreamsBuilder, KStream, KTable, KGroupedStream) over the core Topology. */
export { StreamsBuilder } from './streams-builder.js'
export { KStream } from './kstream.js'
export { KTable } from './ktable.js'
export { KGroupedStream } from './kgrouped-stream.js'
export { BranchedKStream } from './branched-kstream.js'
export { Branched } from './branched.js'
export { Consumed } from './consumed.js'
export { Produced } from './produced.js'
export { Grouped } from './grouped.js'
export { Materialized } from './materialized.js'
export { Named } from './named.js'
export { Change } from './change.js'
export type { FixedKeyProcessor, FixedKeyProcessorContext, FixedKeyProcessorSupplier } from './fixed-key-processor.js'
export type {
  Predicate, KeyValueMapper, ValueMapper, ValueMapperWithKey, ForeachAction, Initializer, Aggregator, Reducer, KeyValuePairMapper
} from './functions.js'
export { KeyValue } from '@kstreams/core'
