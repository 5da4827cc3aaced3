/**
 * @internal Parts of @kstreams/core that sibling packages (@kstreams/testing, the runtime) build
 * on. Not a public API: it may change in any release.
 */
export { TOPOLOGY_DEF, ADD_INTERNAL_TOPIC, COPARTITION_SOURCES, SOURCE_CHANGELOG, REWRITE } from './topology/internal.js'
export type { InternalTopicSpec, TopologyEdit } from './topology/internal.js'
export type {
  TopologyDef,
  NodeDef,
  SourceNodeDef,
  ProcessorNodeDef,
  SinkNodeDef,
  SubtopologyDef,
  GlobalStoreDef
} from './topology/definitions.js'
export { StreamTask } from './runtime/stream-task.js'
export type { StreamTaskOptions, TaskState } from './runtime/stream-task.js'
export { GlobalStateUpdateTask } from './runtime/global-state-update-task.js'
export type { ConsumedRecord } from './runtime/consumed-record.js'
export type { RecordCollector, CollectedRecord } from './runtime/record-collector.js'
export { ProcessorContextImpl } from './runtime/processor-context-impl.js'
export { StateDirectory } from './runtime/state/state-directory.js'
export { OffsetCheckpoint, CheckpointCorruptedError, OFFSET_UNKNOWN } from './runtime/state/offset-checkpoint.js'
export { MeteredKeyValueStore } from './state/metered-key-value-store.js'
export { MeteredTimestampedKeyValueStore } from './state/metered-timestamped-key-value-store.js'
export { MeteredVersionedKeyValueStore } from './state/metered-versioned-key-value-store.js'
export { validateStoreName } from './state/store-name.js'
export { StreamsMetricsRegistry } from './metrics/streams-metrics-registry.js'
export type { MetricName, MetricSnapshot } from './metrics/metric-name.js'
export type { RecordingLevel } from './metrics/recording-level.js'
export { WindowKeySchema } from './state/window-key-schema.js'
export { SessionKeySchema } from './state/session-key-schema.js'
export {
  defaultSegmentInterval,
  checkRetentionPeriod,
  checkWindowStoreArguments,
  checkSegmentInterval,
  checkRetainDuplicates
} from './state/windowed-store-arguments.js'
export { MeteredWindowStore } from './state/metered-window-store.js'
export { MeteredTimestampedWindowStore } from './state/metered-timestamped-window-store.js'
export { MeteredSessionStore } from './state/metered-session-store.js'
export { ThreadCache } from './state/cache/thread-cache.js'
export { KeyValueIteratorBase } from './state/key-value-iterator-base.js'
export { recordDroppedRecord } from './runtime/dropped-records.js'
export { processorMetadata } from './runtime/processor-metadata.js'
export type { ProcessorMetadata } from './runtime/processor-metadata.js'
export { parseTopologyOptimization } from './config/streams-config.js'
export { configsWithPrefix, defaultKeySerde, defaultValueSerde } from './config/app-configs.js'
export { isAutoOffsetReset, describeOffsetReset } from './processor/api.js'
export { KAFKA_STREAMS_TRANSITIONS } from './runtime/kafka-streams-state.js'
export { bytesToKey, keyToBytes, prefixUpperBound, prefixUpperBoundBytes, boundToKey } from './state/byte-keys.js'
export { ConsumerCoordinator } from './runtime/consumer/consumer-coordinator.js'
export type { MemberState } from './runtime/consumer/consumer-coordinator.js'
export { GroupConsumer } from './runtime/consumer/group-consumer.js'
export { AssignedPartitionReader } from './runtime/consumer/assigned-partition-reader.js'
export { RepartitionPurger } from './runtime/repartition-purger.js'
export { encodeSubscription, decodeSubscription, encodeAssignment, decodeAssignment } from './runtime/consumer/consumer-protocol.js'
export { encodeSubscriptionInfo, decodeSubscriptionInfo } from './runtime/assignment/subscription-info.js'
export { encodeAssignmentInfo, decodeAssignment as decodeAssignmentInfo } from './runtime/assignment/assignment-info.js'
export type {
  GroupAssignor,
  GroupMemberSubscription,
  MemberAssignment,
  RebalanceListener,
  MainConsumer,
  PartitionReader
} from './runtime/consumer/consumer-api.js'
export { runStateQuery } from './runtime/iq/v2/state-query-runner.js'
export { trustedPeerCheck } from './runtime/iq/trusted-peers.js'
