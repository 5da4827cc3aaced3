/**
 * `@kstreams/dsl`: the Kafka Streams DSL (StreamsBuilder, KStream, KTable, GlobalKTable, grouping,
 * windows, joins, suppress) over the core Topology.
 * @packageDocumentation
 */
export { StreamsBuilder } from './streams-builder.js'
export { KStream } from './kstream.js'
export { KTable } from './ktable.js'
export { KGroupedStream } from './kgrouped-stream.js'
export { BranchedKStream } from './branched-kstream.js'
export { Branched } from './branched.js'
export { Consumed } from './consumed.js'
export { Produced } from './produced.js'
export { Printed } from './printed.js'
export { Grouped } from './grouped.js'
export { Materialized } from './materialized.js'
export { Named } from './named.js'
export { Change } from './change.js'
export { JoinWindows } from './join-windows.js'
export { StreamJoined } from './stream-joined.js'
export { Joined } from './joined.js'
export { GlobalKTable } from './global-ktable.js'
export { TimeWindows } from './time-windows.js'
export { Windows } from './windows.js'
export { UnlimitedWindows } from './unlimited-windows.js'
export { UnlimitedWindow } from './unlimited-window.js'
export { SlidingWindows } from './sliding-windows.js'
export { SessionWindows } from './session-windows.js'
export { EmitStrategy } from './emit-strategy.js'
export type { EmitStrategyType } from './emit-strategy.js'
export { TimeWindowedKStream } from './time-windowed-kstream.js'
export { SessionWindowedKStream } from './session-windowed-kstream.js'
export { TableJoined } from './table-joined.js'
export { KGroupedTable } from './kgrouped-table.js'
export { Suppressed } from './suppressed.js'
export type { SuppressionKind } from './suppressed.js'
export { BufferConfig } from './buffer-config.js'
export type { StrictBufferConfig, EagerBufferConfig, BufferFullStrategy } from './buffer-config.js'
export { BufferFullError } from './buffer-full-error.js'
export { CogroupedKStream } from './cogrouped-kstream.js'
export { TimeWindowedCogroupedKStream } from './time-windowed-cogrouped-kstream.js'
export { SessionWindowedCogroupedKStream } from './session-windowed-cogrouped-kstream.js'
export { Repartitioned } from './repartitioned.js'
export type { FixedKeyProcessor, FixedKeyProcessorContext, FixedKeyProcessorSupplier } from './fixed-key-processor.js'
export { ContextualFixedKeyProcessor } from './contextual-fixed-key-processor.js'
export type { ValueTransformerWithKey, ValueTransformerWithKeySupplier } from './value-transformer-with-key.js'
export type {
  Predicate,
  KeyValueMapper,
  ValueMapper,
  ValueMapperWithKey,
  ForeachAction,
  Initializer,
  Aggregator,
  Reducer,
  KeyValuePairMapper,
  ValueJoiner,
  ValueJoinerWithKey,
  Merger
} from './functions.js'
export { KeyValue, Window, Windowed, TimeWindow, SessionWindow, WindowedSerdes } from '@kstreams/core'
export type { TopicNameExtractor, StreamPartitioner, StreamPartitions, DslStoreSuppliers } from '@kstreams/core'
